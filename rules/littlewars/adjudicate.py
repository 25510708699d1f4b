"""Setup and the phases of one simultaneous turn.

Deployment turn (turn 1 of the game, the curtain of LW-8): both sides' deploy orders are
revealed together. Every later turn (LW-15 "guns first" as phases):

1. group changes and standing melee choices (private to the side);
2. voluntary surrenders (LW-45);
3. guns fire from where they stood at the start of the turn (both sides at once);
4. all movement together, figures stopping on touching an enemy (LW-33); guns move
   with their teams (LW-24..26);
5. melees in order of first contact (LW-34..39);
6. gun capture (LW-46), wagon capture (LW-66/67), escorts, delivery and re-arming (LW-41..43);
7. the turn ends; the scenario's end is checked and scored (LW-47..55).

Each event is folded as soon as it is made, so every phase sees the state the
previous one left and adjudication equals replay by construction.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from random import Random
from typing import Any, Protocol

from rules.core.i18n import _, gettext_noop, marked_in, pgettext, with_marked_texts
from rules.core.protocol import PUBLIC, RuleEvent, State, TurnSpec, side_audience

from . import aftermath, melee, scoring, wagons
from . import plan as planning
from .fire import resolve_fire
from .fold import PREFIX, fold, game_turn_of_play, initial_state, next_name
from .motion import resolve_moves
from .scenario import OPPOSITE, load, swap_armies
from .units import FIRST_FIRE_TURN, RESERVE, SIDES, other
from .version import LW_VERSION


class TurnLog(Protocol):
    """What the public turn steps (``emit_surrenders``, ``emit_prisoners``, ``emit_turn_end``) write
    to: a variant's own log (Kriegspiel's) works if it emits Little Wars kinds and folds at once."""

    state: State

    def emit(self, kind: str, payload: dict[str, Any], audience: str = PUBLIC) -> None: ...


class _Log:
    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[RuleEvent] = []

    def emit(self, kind: str, payload: dict[str, Any], audience: str = PUBLIC) -> None:
        ev = RuleEvent(PREFIX + kind, payload, audience)
        self.events.append(ev)
        self.state = fold(self.state, ev.type, ev.payload)


def setup(scenario: Any, rng: random.Random) -> list[RuleEvent]:
    sc = load(scenario)
    log = _Log(initial_state())
    coin = None
    if sc["settings"]["defender_coin"]:  # LW-53: a coin names the defender, before anything is laid out
        coin = {"side": rng.choice(SIDES), "scenario_defender": sc["settings"]["defender"]}
        coin["swapped"] = coin["side"] != coin["scenario_defender"]
        sc = swap_armies(sc) if coin["swapped"] else sc
    sc = with_marked_texts(sc)  # refused lines keep their marked message (older games' logs have none)
    log.emit(
        "table_laid", {"scenario": sc, "first": rng.choice(SIDES), "ids": "side", "lw_version": LW_VERSION}
    )  # LW-6: a coin for the First Player
    if coin:
        log.emit("defender_chosen", coin)
    if sc["settings"]["random_advantage"]:
        log.emit("reinforcements", _reinforcements(log.state, rng))
    if sc["settings"]["choose_edge"]:
        # LW-53: the defender chooses; else (LW-1/2) a coin names who laid the table and the other chooses
        chooser = sc["settings"]["defender"] if sc["kind"] == "defence" else rng.choice(SIDES)
        log.emit("edge_choice", {"side": chooser})
    return log.events


def _reinforcements(state: State, rng: Random) -> dict[str, Any]:
    """LW-57: each side rolls 2d6 and takes that many of its 12 set-aside figures."""
    out = {}
    for side in SIDES:
        group = next(g["name"] for g in state["scenario"]["forces"][side]["groups"] if g["reserve"])
        reserve = sorted(
            (fid for fid, f in state["figures"].items() if f["side"] == side and f["st"] == "absent"),
            key=lambda i: int(i.split(":")[1][1:]),
        )
        roll = [rng.randint(1, 6), rng.randint(1, 6)]
        out[side] = {"roll": roll, "group": group, "joined": reserve[: min(sum(roll), RESERVE)]}
    return out


def deploying_sides(state: dict[str, Any]) -> tuple[str, ...]:
    """Who deploys now: both behind the curtain (LW-8); else the First Player, then the other (LW-7)."""
    done = state.get("deployed", [])
    waiting = tuple(s for s in (state["first"], other(state["first"])) if s not in done)
    if state["scenario"]["settings"].get("deployment", "curtain") == "curtain":
        return tuple(s for s in SIDES if s in waiting)
    return waiting[:1]


def next_turn(state: dict[str, Any]) -> TurnSpec:
    if state["phase"] == "edge":
        side = state["edge_chooser"]
        edge = state["scenario"]["edges"][side]
        return TurnSpec(
            (side,),
            "orders",
            _(
                "Choose the edge you start from (LW-2, LW-53): 'edge {edge}' keeps the {edge} edge, "
                "'edge {other}' takes the other; the armies then deploy.",
                edge=edge,
                other=OPPOSITE[edge],
            ),
        )
    if state["phase"] == "deploy":
        sides = deploying_sides(state)
        if len(sides) == len(SIDES):
            return TurnSpec(
                SIDES,
                "orders",
                gettext_noop(
                    "Deployment behind the curtain (LW-8): place your groups and guns "
                    "along your edge with deploy orders, or keep the scenario's places."
                ),
            )
        if state.get("deployed"):
            prompt = _(
                "Deployment without the curtain (LW-7): {side} deploys along its edge with deploy orders, or "
                "keeps the scenario's places. You see the army already deployed. In the first turn every move "
                "is measured from the edge line.",
                side=pgettext("side", sides[0]),
            )
        else:
            prompt = _(
                "Deployment without the curtain (LW-7): {side} deploys along its edge with deploy orders, or "
                "keeps the scenario's places. In the first turn every move is measured from the edge line.",
                side=pgettext("side", sides[0]),
            )
        return TurnSpec(sides, "orders", prompt)
    if state["phase"] == "play" and not state.get("result"):
        first = game_turn_of_play(state, FIRST_FIRE_TURN)
        if state["turn"] < first:
            prompt = _(
                "Turn {turn}: both sides order at once. Guns may not fire before turn {first} (LW-14).",
                turn=state["turn"],
                first=first,
            )
        else:
            prompt = _("Turn {turn}: both sides order at once.", turn=state["turn"])
        return TurnSpec(SIDES, "orders", prompt)
    return TurnSpec(())


def default_orders(state: dict[str, Any], side: str, kind: str = "orders") -> str:
    return "hold"


def adjudicate(
    state: dict[str, Any], orders: Mapping[str, Sequence[Any]], rng: random.Random | None = None, kind: str = "orders"
) -> list[RuleEvent]:
    rng = rng or random.Random(0)
    acting = next_turn(state).sides or SIDES
    plans = {s: planning.build_spaced(state, s, orders.get(s, ()) if s in acting else ()) for s in SIDES}
    log = _Log(state)
    for side in acting:
        _private(log, plans[side])
    if state["phase"] == "edge":
        side = state["edge_chooser"]
        chosen = plans[side].edge or state["scenario"]["edges"][side]
        log.emit("edge_chosen", {"side": side, "edge": chosen, "swapped": chosen != state["scenario"]["edges"][side]})
        return log.events
    if state["phase"] == "deploy":
        for side in deploying_sides(state):
            p = plans[side]
            placed = {"wagons": p.deploy_wagons} if p.deploy_wagons else {}  # LW-66/67, only where ordered
            log.emit("deployed", {"side": side, "figures": p.deploy_figures, "guns": p.deploy_guns, **placed})
        if not deploying_sides(log.state):
            log.emit("deployment_done", {})
        return log.events
    start = state
    emit_surrenders(log, plans)
    fire = {gid: aims for p in plans.values() for gid, aims in p.fire.items()}
    if fire:
        log.emit("fired", resolve_fire(log.state, fire, rng))
    _movement(log, plans)
    after_move = log.state
    for payload in melee.resolve(after_move, _contacts(log)):
        log.emit("melee", payload)
    for cap in aftermath.captures(start, log.state):
        log.emit("gun_captured", cap)
    for cap in wagons.captures(log.state):  # LW-66/67: a wagon reached with none of its own near
        log.emit("wagon_captured", cap)
    emit_prisoners(log)
    emit_turn_end(log)
    return log.events


def _private(log: _Log, p: planning.Plan) -> None:
    aud = side_audience(p.side)
    if p.errors:
        log.emit(
            "orders_rejected",
            {
                "side": p.side,
                "errors": [
                    {
                        "line": e.line,
                        "text": e.text,
                        "message": e.message,
                        **marked_in(log.state["scenario"], "message_msg", e.message),
                    }
                    for e in p.errors
                ],
            },
            aud,
        )
    if p.groups_changed:
        log.emit("groups_changed", {"side": p.side, "groups": p.groups}, aud)
    if p.standing:
        log.emit("standing_orders", {"side": p.side, "kill": p.standing[0], "lose": p.standing[1]}, aud)


def emit_surrenders(log: TurnLog, plans: Mapping[str, planning.Plan]) -> None:
    """Step 1 of the turn (LW-45): each side's ordered surrenders, before any fire."""
    for side in SIDES:
        for name, ids in plans[side].surrender:
            log.emit(
                "surrendered",
                {
                    "side": side,
                    "group": name,
                    "figures": list(ids),
                    "captor": other(side),
                    "pow": next_name(log.state, other(side), "pow"),
                },
            )


def _movement(log: _Log, plans: Mapping[str, planning.Plan]) -> None:
    figs = log.state["figures"]
    paths = {}
    for p in plans.values():
        for fid, pts in p.paths.items():
            f = figs[fid]
            own_and_free = f["st"] == "ok" and f["side"] == p.side  # not killed by fire, not surrendered
            escorted = f["st"] == "pow" and f["pow"][0] == p.side and not f["pow"][2]
            if own_and_free or escorted:
                paths[fid] = pts
    gun_paths = {gid: pts for p in plans.values() for gid, pts in p.gun_moves.items()}
    moved, contacts = resolve_moves(log.state, paths)
    guns, stuck = aftermath.gun_moves(log.state, moved, gun_paths)
    payload = {"figures": moved, "guns": guns, "stuck": stuck, "contacts": contacts}
    # wagons neither stop nor are stopped (their drivers are no figures); one shot to pieces stays put
    carts = {
        wid: list(pts[-1])
        for p in plans.values()
        for wid, pts in p.wagon_moves.items()
        if wid in wagons.live(log.state, p.side)
    }
    if carts:
        payload["wagons"] = carts
    log.emit("moved", payload)


def _contacts(log: _Log) -> list[Any]:
    return log.events[-1].payload["contacts"] if log.events and log.events[-1].type == PREFIX + "moved" else []


def emit_prisoners(log: TurnLog) -> None:
    """After melee: escorts lost, prisoners delivered, figures re-armed (LW-41..43)."""
    for rel in aftermath.escorts(log.state):
        log.emit("prisoners_released", rel)
    for dl in aftermath.deliveries(log.state):
        log.emit("prisoners_delivered", dl)
    rearmed = aftermath.rearming(log.state)
    if rearmed:
        log.emit("rearmed", {"figures": rearmed})


def emit_turn_end(log: TurnLog) -> None:
    """The turn's end: capitulation and game over when the scenario has ended (LW-47..53)."""
    turn = log.state["turn"]
    end = scoring.check_end(log.state)
    if end is not None and end.get("capitulated"):
        cap = end.pop("capitulated")
        if cap["figures"] or cap["guns"] or cap.get("wagons"):
            log.emit("capitulated", {"side": other(end["winner"]), "captor": end["winner"], **cap})
    log.emit("turn_completed", {"turn": turn})
    if end is not None:
        log.emit("game_over", {**end, "scores": scoring.sheet(log.state, end["winner"])})
