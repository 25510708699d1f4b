"""One player turn: movement, shooting, melee (KW-23..53), then the end of the turn.

Resolution order inside a turn (RULES.md, "Order of resolution"):
1. movement, as ``plan.plan`` orders it (charges by target, then other moves in line order);
   lines that cannot be carried out are refused with their reason and the unit halts;
2. shooting in the order of the shoot lines, against the positions after movement; one
   Nerve test per enemy unit damaged, at the end of the phase, in the order first damaged;
3. one fight per charged enemy unit, in the order of its first charge line; a Nerve test
   after each fight that did damage; then the chargers regroup;
4. the turn ends, the other side is to move, and victory is checked.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from typing import Any

from rules.core.i18n import _, pgettext
from rules.core.protocol import PUBLIC, LineError, RuleEvent, TurnSpec

from . import combat, geom
from .battlefield import battlefield_of, sighter_for
from .fold import PREFIX, apply_in_place
from .orders import Order, parse_text
from .plan import Move, Plan, alive, own_ids, plan, prof
from .profiles import profile, weapon
from .scenario import load
from .scoring import final_result
from .version import RULES_VERSION, rules_version

FALL_BACK = 1.0  # house Regroup: chargers whose enemy stands fall back 1 in (KW-45)


class _Run:
    def __init__(self, state: dict[str, Any]) -> None:
        self.state = copy.deepcopy(state)
        self.events: list[RuleEvent] = []
        self.field = battlefield_of(self.state["scenario"])

    def emit(self, name: str, payload: dict[str, Any], audience: str = PUBLIC) -> None:
        self.events.append(RuleEvent(PREFIX + name, payload, audience))
        apply_in_place(self.state, PREFIX + name, payload)


def other(state: dict[str, Any], side: str) -> str:
    return str(next(s for s in state["scenario"]["sides"] if s != side))


def setup(scenario: Any, rng: random.Random | None = None) -> list[RuleEvent]:
    scenario = {**load(scenario), "rules_version": RULES_VERSION}  # the game keeps these rules (version.py)
    units = {}
    for spec in scenario["units"]:
        army = scenario["armies"][spec["side"]]
        p = profile(army, spec["type"])
        units[spec["id"]] = {
            "id": spec["id"],
            "side": spec["side"],
            "army": army,
            "type": spec["type"],
            "x": float(spec["x"]),
            "y": float(spec["y"]),
            "facing": float(spec["facing"]),
            "w": round(p["w_mm"] * geom.MM, 4),
            "d": round(p["d_mm"] * geom.MM, 4),
            "h": p["h"],
            "damage": 0,
            "status": "steady",
            "charged_by": [],
        }
    return [RuleEvent(PREFIX + "battle_set", {"scenario": scenario, "units": units, "first": scenario["first"]})]


def next_turn(state: dict[str, Any]) -> TurnSpec:
    if state.get("result") or state.get("phase") != "play":
        return TurnSpec(())
    return TurnSpec(
        (state["to_move"],),
        "orders",
        _("{side}'s turn {round}", side=pgettext("side", state["to_move"]), round=state["round"]),
    )


def default_orders(state: dict[str, Any], side: str, kind: str = "orders") -> str:
    return "\n".join(f"{uid} halt" for uid in own_ids(state, side)) if state.get("phase") == "play" else ""


def validate(state: dict[str, Any], side: str, orders: Sequence[Order], kind: str = "orders") -> tuple[LineError, ...]:
    if state.get("result"):
        return (LineError(0, "", "the game is over"),)
    if side != state.get("to_move"):
        return (LineError(0, "", f"it is not {side}'s turn: {state.get('to_move')} is to move"),)
    return tuple(sorted(settle(state, side, orders)[1], key=lambda e: e.line))


def settle(state: dict[str, Any], side: str, orders: Sequence[Order]) -> tuple[Plan, list[LineError]]:
    """The plan a turn carries out and every line it refuses, in the order refused: what ``validate``
    tells the player and what ``adjudicate`` does, so a turn refuses no line validation did not name.

    From version 3 the plan is final (plan.py): its errors are the lines refused. Versions 1 and 2
    refuse the plan's errors, then plan again without those lines until none is refused, which can
    refuse more (issue 33: a charger refused stands in the way of one planned to move with it)."""
    if rules_version(state) >= 3:
        p = plan(state, side, orders)
        return p, sorted(p.errors, key=lambda e: e.line)
    orders = list(orders)
    refused: list[LineError] = []
    for _attempt in range(len(orders) + 1):
        p = plan(state, side, orders)
        if not p.errors:
            break
        bad = {e.line for e in p.errors}
        refused += sorted(p.errors, key=lambda e: e.line)
        orders = [o for o in orders if o.line not in bad]
    return p, refused


def _coerce(value: Any) -> list[Order]:
    if isinstance(value, str):
        return list(parse_text(value).orders)
    items = list(value or [])
    if items and all(isinstance(i, str) for i in items):
        return list(parse_text("\n".join(items)).orders)
    return items


def adjudicate(
    state: dict[str, Any], orders: Mapping[str, Any], rng: random.Random, kind: str = "orders"
) -> list[RuleEvent]:
    if state.get("result") or state.get("phase") != "play":
        return []
    side = state["to_move"]
    run = _Run(state)
    mine = _coerce((orders or {}).get(side))
    moved = _movement(run, side, mine)
    _shooting(run, side, moved, rng)
    _melee(run, side, moved, rng)
    _end_turn(run, side)
    return run.events


def _movement(run: _Run, side: str, orders: list[Order]) -> Plan:
    """Refuse what cannot be done (``settle``: the lines validate names), then move. Returns the
    accepted plan."""
    p, refused = settle(run.state, side, orders)
    for e in refused:  # the English kept in the log (a marked reason is read back by describe.py)
        run.emit("order_refused", {"side": side, "line": e.line, "text": e.text, "reason": str(e.message)})
    for m in p.moves:
        o, pose = m.order, m.pose
        if o.is_charge:
            run.emit(
                "unit_charged",
                {
                    "unit": o.unit,
                    "target": o.target,
                    "side": m.side,
                    "counter": o.verb == "counter",
                    "hindered": m.hindered,
                    "x": pose["x"],
                    "y": pose["y"],
                    "facing": pose["facing"],
                },
            )
        elif o.verb != "halt":
            run.emit(
                "unit_moved",
                {
                    "unit": o.unit,
                    "order": o.verb,
                    "dist": o.dist,
                    "pivot": o.pivot,
                    "x": pose["x"],
                    "y": pose["y"],
                    "facing": pose["facing"],
                },
            )
    return p


def _shooting(run: _Run, side: str, p: Plan, rng: random.Random) -> None:
    if not p.shots:
        return
    units = {k: v for k, v in run.state["units"].items() if alive(v)}
    sighter = sighter_for(run.state, units)
    damaged: list[str] = []
    for o, move in p.shots:
        assert o.target is not None  # the parser gives every shot its target
        u, t = units[o.unit], units[o.target]
        seen = sighter.sight(o.unit, o.target)
        if not seen.los:
            run.emit("shot_impossible", {"unit": o.unit, "target": o.target, "reason": "no line of sight"})
            continue
        cover, cover_die = seen.cover, None
        if cover is None:
            cover_die, cover = combat.doubtful_cover(rng)
        wpn = weapon(prof(u))
        assert wpn is not None  # the planner refuses a shot from a unit without a ranged attack
        moving = move is not None and move.verb != "halt" and not wpn["thrown"]  # KW-37
        mods = -int(moving) - int(cover)
        res = combat.attack(rng, combat.to_hit(prof(u)["ra"], prof(u)["att"], mods), prof(t)["de"])
        run.emit(
            "shot",
            {
                "unit": o.unit,
                "target": o.target,
                "side": seen.side,
                "moved": moving,
                "cover": cover,
                "cover_die": cover_die,
                "obscured": round(seen.obscured, 3),
                **res,
            },
        )
        if res["damage"] and o.target not in damaged:
            damaged.append(o.target)
    for tid in damaged:  # KW-44
        _nerve_test(run, tid, rng)


def _nerve_test(run: _Run, uid: str, rng: random.Random) -> None:
    u = run.state["units"][uid]
    if not alive(u):
        return
    pr = prof(u)
    run.emit("nerve_test", {"unit": uid, **combat.nerve(rng, u["damage"], pr["waver"], pr["rout"])})


def _melee(run: _Run, side: str, p: Plan, rng: random.Random) -> None:
    fights: dict[str, list[Move]] = {}
    for m in p.moves:
        if m.order.is_charge:
            assert m.order.target is not None  # the parser gives every charge its target
            fights.setdefault(m.order.target, []).append(m)
    if not fights:
        return
    occupancy = geom.Occupancy({k: v for k, v in run.state["units"].items() if alive(v)})
    for tid, chargers in fights.items():
        target = run.state["units"][tid]
        attackers = [m for m in chargers if alive(run.state["units"][m.order.unit])]
        if alive(target) and attackers:
            rolls: list[dict[str, Any]] = []
            total = 0
            for m in attackers:  # KW-46..52
                pr = prof(run.state["units"][m.order.unit])
                assert m.side is not None  # a charge's move names the side of the target it hits
                dice = pr["att"] * combat.MULTIPLIER[m.side]
                hindered = m.hindered and m.order.verb == "charge"  # KW-50
                res = combat.attack(rng, combat.to_hit(pr["me"], dice, -int(hindered)), prof(target)["de"])
                rolls.append({"unit": m.order.unit, "side": m.side, "hindered": hindered, **res})
                total += res["damage"]
            run.emit(
                "fight",
                {"target": tid, "attackers": [m.order.unit for m in attackers], "rolls": rolls, "damage": total},
            )
            if total:  # KW-53
                _nerve_test(run, tid, rng)
        _regroup(run, tid, attackers, occupancy)


def _regroup(run: _Run, tid: str, attackers: list[Move], occupancy: geom.Occupancy) -> None:
    """House Regroup: chargers of an enemy that still stands fall back 1 in straight back
    (if the ground behind them is free); chargers whose enemy routed hold where they are."""
    if not alive(run.state["units"][tid]):
        for m in attackers:
            run.emit("regrouped", {"unit": m.order.unit, "target": tid})
        return
    field_ = run.field
    units = run.state["units"]
    version = rules_version(run.state)
    for m in attackers:
        u = run.state["units"][m.order.unit]
        back = geom.moved(u, forward=-FALL_BACK)
        shape = geom.base(back)
        clash = (
            field_.off_table(shape)
            or field_.blocking(shape)
            or any(
                k != u["id"] and alive(units[k]) and geom.overlaps(geom.base(units[k]), shape, version)
                for k in occupancy.near(shape)
            )
        )
        if not clash:
            occupancy.put(u["id"], back)
            run.emit("fell_back", {"unit": u["id"], "x": back["x"], "y": back["y"], "facing": back["facing"]})


def _end_turn(run: _Run, side: str) -> None:
    s = run.state
    nxt = other(s, side)
    rnd = s["round"] + (1 if nxt == s["scenario"]["first"] else 0)
    run.emit("turn_ended", {"side": side, "next": nxt, "round": rnd})
    res = final_result(run.state)
    if res:
        run.emit("game_over", res)
