"""The state and how events change it (``fold`` never mutates its input).

State (plain JSON)::

    phase     "empty" | "edge" (a side chooses its edge, LW-2/53) | "deploy" | "play" | "over"
    scenario  the validated scenario (table, terrain, forces, settings)
    turn      the game's turn number, the platform's: every round of orders is a turn, from 1 (the
              choice of edge, each deployment round, then play); 0 before setup. ``play_turn``
              counts the turns of play (1 in the first), which the rules' timings use (LW-7, LW-14)
    play_from the game turn of the first turn of play (set when deployment is done)
    first     the First Player (coin toss, LW-6): breaks ties in who began a melee
    figures   {id: {side, arm, x, y, st, dis, pow}}; st "ok" | "dead" | "pow" | "absent"
              (absent = a reserve figure that did not join, LW-57); dis = disarmed (LW-43);
              pow = [captor, prisoner group, delivered?] while a prisoner
    guns      {id: {side, name, x, y, heading, owner}}; owner changes on capture (LW-46)
    wagons    {id: {side, name, kind, x, y, owner, st}} supply wagons and ammunition carts (LW-66/67,
              wagons.py); only in games whose scenario has them
    groups    {side: {name: [figure ids]}} (alive, armed or disarmed, not prisoners)
    pows      {captor: {name: [figure ids]}} prisoner groups held by each side
    deployed  the sides that have deployed (LW-7: one after the other without the curtain)
    standing  {side: {"kill": policy, "lose": policy}} (LW-39 choices)
    start     {side: {"inf", "cav", "guns", "figures"}} after reinforcements
    last      {"turn", "impacts", "melees", "captures", "notes"} of the last turn
    result    None or {"winner", "reason", "scores"}
    ids       "side" in games laid since per-side numbering (table_laid says so); absent in older logs
    lw_version  3 in games laid since Little Wars version 3 (table_laid records it; version.py)
    serial    {side: {"pow": n, "freed": n}} the groups each side has formed so far ("side" ids only)
    counter   the one count both sides shared before: names groups in older logs (next_name)
    commands  (only with several players a side) {side: {command: {"figures", "guns"}}} (commands.py)

Group names the rules make up (prisoners ``powN``, freed men ``freedN``) are numbered in the
forming side's own count (``serial``), so no name tells a side what the other side did
(rules/core/protocol.py: nothing a viewer sees may depend on what it may not see).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core.i18n import _
from rules.core.protocol import RulesError, State

from . import wagons
from .commands import resolve as resolve_commands
from .scenario import OPPOSITE, block, mirror, mirror_force
from .units import SIDES

PREFIX = "littlewars."


def initial_state() -> dict[str, Any]:
    return {
        "phase": "empty",
        "scenario": None,
        "turn": 0,
        "first": SIDES[0],
        "figures": {},
        "guns": {},
        "groups": {s: {} for s in SIDES},
        "pows": {s: {} for s in SIDES},
        "standing": {s: {"kill": "nearest", "lose": "nearest"} for s in SIDES},
        "start": {},
        "last": None,
        "counter": 0,
        "result": None,
        "deployed": [],
    }


def fold(state: dict[str, Any], event_type: str, payload: Mapping[str, Any]) -> dict[str, Any]:
    if not event_type.startswith(PREFIX):
        return state
    handler = _HANDLERS.get(event_type[len(PREFIX) :])
    return state if handler is None else handler(state, payload)


def next_name(state: dict[str, Any], side: str, kind: str, already: int = 0) -> str:
    """The name of the next ``kind`` group ("pow", "freed") ``side`` forms, ``already`` more
    having been named this phase: the side's own count; in an older log the shared counter
    (so older turns re-adjudicate as they were recorded)."""
    serial = state.get("serial")
    return f"{kind}{(serial[side][kind] if serial else state['counter']) + already + 1}"


class Namer:
    """Names handed out in one phase before the events that form them are folded."""

    def __init__(self, state: dict[str, Any], kind: str) -> None:
        self.state, self.kind, self.given = state, kind, dict.fromkeys(SIDES, 0)

    def __call__(self, side: str) -> str:
        shared = "serial" not in self.state
        name = next_name(self.state, side, self.kind, sum(self.given.values()) if shared else self.given[side])
        self.given[side] += 1
        return name


def _count(state: dict[str, Any], new: dict[str, Any], side: str, kind: str) -> None:
    new["counter"] = state["counter"] + 1
    if state.get("serial"):
        new["serial"] = {**state["serial"], side: {**state["serial"][side], kind: state["serial"][side][kind] + 1}}


def figure_id(side: str, arm: str, n: int) -> str:
    return f"{side}:{arm[0]}{n}"


def gun_id(side: str, name: str) -> str:
    return f"{side}:{name}"


def _table_laid(state: State, p: Mapping[str, Any]) -> State:
    sc = p["scenario"]
    new = initial_state()
    # turn 1: the first round of orders; 0 in a game laid by 0.1.0 (littlewars version 1), which
    # counted turns of play only (its table_laid has no per-side ids: ``laid_by_version_1``)
    new.update(scenario=sc, phase="deploy", first=p["first"], turn=1 if p.get("ids") == "side" else 0)
    if p.get("ids") == "side":
        new.update(ids="side", serial={s: {"pow": 0, "freed": 0} for s in SIDES})
    if "lw_version" in p:
        new["lw_version"] = p["lw_version"]
    for side in SIDES:
        numbers = {"inf": 0, "cav": 0}
        force = sc["forces"][side]
        for g in force["groups"]:
            ids = []
            for x, y in block(g, sc["edges"][side]):
                numbers[g["arm"]] += 1
                fid = figure_id(side, g["arm"], numbers[g["arm"]])
                st = "absent" if g["reserve"] and sc["settings"]["random_advantage"] else "ok"
                new["figures"][fid] = {
                    "side": side,
                    "arm": g["arm"],
                    "x": x,
                    "y": y,
                    "st": st,
                    "dis": False,
                    "pow": None,
                }
                ids.append(fid)
            new["groups"][side][g["name"]] = [i for i in ids if new["figures"][i]["st"] == "ok"]
        heading = {"south": 90.0, "north": 270.0, "west": 0.0, "east": 180.0}[sc["edges"][side]]
        for g in force["guns"]:
            new["guns"][gun_id(side, g["name"])] = {
                "side": side,
                "name": g["name"],
                "x": g["at"][0],
                "y": g["at"][1],
                "heading": heading,
                "owner": side,
            }
    if any(f.get("wagons") for f in sc["forces"].values()):
        new["wagons"] = wagons.initial(sc)
    new["start"] = _start_counts(new)
    if sc.get("commands"):  # LW-61/KS-9: several players a side (commands.py)
        new["commands"] = {
            side: resolve_commands(sc["commands"], new["groups"][side], new["guns"], side) for side in SIDES
        }
    return new


def _place_wagons(state: dict[str, Any], new: dict[str, Any], places: Mapping[str, Any] | None) -> None:
    """Wagons to new places ({id: [x, y]}); a game without wagons is left as it was."""
    if places:
        new["wagons"] = {
            **state["wagons"],
            **{wid: {**state["wagons"][wid], "x": xy[0], "y": xy[1]} for wid, xy in places.items()},
        }


def _start_counts(state: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for side in SIDES:
        figs = [f for f in state["figures"].values() if f["side"] == side and f["st"] == "ok"]
        inf = sum(1 for f in figs if f["arm"] == "inf")
        out[side] = {
            "inf": inf,
            "cav": len(figs) - inf,
            "figures": len(figs),
            "guns": sum(1 for g in state["guns"].values() if g["side"] == side),
        }
    return out


def _set_figures(state: dict[str, Any], new: dict[str, Any], changes: Mapping[str, Mapping[str, Any]]) -> None:
    figures = dict(state["figures"])
    for fid, change in changes.items():
        figures[fid] = {**figures[fid], **change}
    new["figures"] = figures


def drop_from_groups(groups: dict[str, Any], gone: set[str]) -> dict[str, Any]:
    """Groups without ``gone`` figures; groups left empty disappear."""
    out: dict[str, Any] = {}
    for side, named in groups.items():
        out[side] = {}
        for name, ids in named.items():
            kept = [i for i in ids if i not in gone] if gone.intersection(ids) else ids
            if kept:
                out[side][name] = kept
    return out


def _reinforcements(state: State, p: Mapping[str, Any]) -> State:
    new = dict(state)
    joined = [fid for side in SIDES for fid in p[side]["joined"]]
    _set_figures(state, new, {fid: {"st": "ok"} for fid in joined})
    groups = {s: dict(state["groups"][s]) for s in SIDES}
    for side in SIDES:
        if p[side]["joined"]:
            groups[side][p[side]["group"]] = list(p[side]["joined"])
    new["groups"] = groups
    new["start"] = _start_counts(new)
    return new


def _deployed(state: State, p: Mapping[str, Any]) -> State:
    new = dict(state)
    _set_figures(state, new, {fid: {"x": xy[0], "y": xy[1]} for fid, xy in p["figures"].items()})
    guns = dict(state["guns"])
    for gid, xy in p["guns"].items():
        guns[gid] = {**guns[gid], "x": xy[0], "y": xy[1]}
    new["guns"] = guns
    _place_wagons(state, new, p.get("wagons"))
    new["deployed"] = sorted(set(state.get("deployed", [])) | {p["side"]})  # LW-7: who has deployed
    if not _curtain(state) and not laid_by_version_1(state):  # without the curtain each side deploys in a turn
        new["turn"] = state["turn"] + 1
    return new


def laid_by_version_1(state: dict[str, Any]) -> bool:
    """A game laid by 0.1.0, played by littlewars (and kriegspiel) version 1 for good
    (rules/README.md, "Versions"). Its log says so: its ``table_laid`` came before per-side ids,
    which shipped in 0.2.0 with the other changes of version 2. Version 1's ``turn`` is 0 until
    the first turn of play and then counts turns of play only (no ``play_from``); its melees are
    resolved as 0.1.0 did (v1.py). So such a game re-adjudicates as 0.1.0 did (tests/golden)."""
    return state.get("ids") != "side"


def refuse_carrying_version_1(state: dict[str, Any]) -> None:
    """A game laid by version 1 plays on by it to its end (Little Wars' and the Kriegspiel's
    ``carry_over``): its turns are numbered from the first turn of play and its ids by shared
    counts, which no later turn could renumber without changing every name and number its players
    have read."""
    if laid_by_version_1(state):
        raise RulesError(
            _(
                "a game laid by version 1 of these rules plays on by it to its end: its turn numbers and ids cannot change"
            )
        )


def _curtain(state: State) -> bool:
    result: bool = state["scenario"]["settings"].get("deployment", "curtain") == "curtain"
    return result


def play_turn(state: dict[str, Any]) -> int:
    """The turn of play (1 in the first turn of play, 0 before): the rules' own timings (LW-7, LW-14,
    the turn limit) count these; every number shown is the game turn, ``state["turn"]``."""
    if "play_from" in state:
        return int(state["turn"] - state["play_from"] + 1)
    if laid_by_version_1(state) and state.get("phase") in ("play", "over"):
        return int(state["turn"])  # version 1: the turn is the turn of play
    return 0


def game_turn_of_play(state: dict[str, Any], n: int) -> int:
    """The game turn of the ``n``-th turn of play (once deployment is done)."""
    if "play_from" not in state and laid_by_version_1(state):
        return n  # version 1 numbers turns of play only
    result: int = state["play_from"] + n - 1
    return result


def _edge_choice(state: State, p: Mapping[str, Any]) -> State:
    """LW-2 / LW-53: before deployment ``side`` chooses the edge it starts from."""
    return {**state, "phase": "edge", "edge_chooser": p["side"]}


def _edge_chosen(state: State, p: Mapping[str, Any]) -> State:
    # the choice took a turn of its own (version 1 did not count it)
    new = {**state, "phase": "deploy", "turn": state["turn"] + (0 if laid_by_version_1(state) else 1)}
    if not p["swapped"]:
        return new
    sc = state["scenario"]
    flip_y = sc["edges"][SIDES[0]] in ("south", "north")
    new["scenario"] = {
        **sc,
        "edges": {s: OPPOSITE[e] for s, e in sc["edges"].items()},
        "forces": {s: mirror_force(sc, f) for s, f in sc["forces"].items()},
    }
    _set_figures(
        state,
        new,
        {fid: dict(zip(("x", "y"), mirror(sc, f["x"], f["y"]), strict=True)) for fid, f in state["figures"].items()},
    )
    new["guns"] = {
        gid: {
            **g,
            **dict(zip(("x", "y"), mirror(sc, g["x"], g["y"]), strict=True)),
            "heading": (-g["heading"] if flip_y else 180.0 - g["heading"]) % 360.0,
        }
        for gid, g in state["guns"].items()
    }
    _place_wagons(state, new, {wid: list(mirror(sc, w["x"], w["y"])) for wid, w in state.get("wagons", {}).items()})
    return new


def _deployment_done(state: State, p: Mapping[str, Any]) -> State:
    # behind the curtain both sides deployed in this turn; without it each ``deployed`` counted its turn
    if laid_by_version_1(state):  # version 1: the first turn of play is turn 1, and nothing else counts
        return {**state, "phase": "play", "turn": 1, "last": None}
    first = state["turn"] + (1 if _curtain(state) else 0)
    return {**state, "phase": "play", "turn": first, "play_from": first, "last": None}


def _groups_changed(state: State, p: Mapping[str, Any]) -> State:
    return {**state, "groups": {**state["groups"], p["side"]: {k: list(v) for k, v in p["groups"].items()}}}


def _standing(state: State, p: Mapping[str, Any]) -> State:
    return {**state, "standing": {**state["standing"], p["side"]: {"kill": p["kill"], "lose": p["lose"]}}}


def _last(state: dict[str, Any]) -> dict[str, Any]:
    last = state.get("last")
    if last and last["turn"] == state["turn"]:
        return {k: list(v) if isinstance(v, list) else v for k, v in last.items()}
    return {"turn": state["turn"], "impacts": [], "melees": [], "captures": [], "notes": []}


def _fired(state: State, p: Mapping[str, Any]) -> State:
    new = dict(state)
    killed = [fid for s in p["shots"] for fid in s["killed"]]
    _set_figures(state, new, {fid: {"st": "dead"} for fid in killed})
    new["groups"] = drop_from_groups(state["groups"], set(killed))
    new["pows"] = drop_from_groups(state["pows"], set(killed))  # prisoners standing in the fire die too
    guns = dict(state["guns"])
    for gid, heading in p["headings"].items():
        guns[gid] = {**guns[gid], "heading": heading}
    new["guns"] = guns
    if p.get("wagons"):  # LW-66/67 wagons a shot struck (KS-6)
        new["wagons"] = {**state["wagons"], **{wid: {**state["wagons"][wid], "st": "destroyed"} for wid in p["wagons"]}}
    last = _last(state)
    last["impacts"] = last["impacts"] + [
        {"gun": s["gun"], "aim": s["aim"], "at": s["impact"], "killed": len(s["killed"])} for s in p["shots"]
    ]
    new["last"] = last
    return new


def _moved(state: State, p: Mapping[str, Any]) -> State:
    new = dict(state)
    _set_figures(state, new, {fid: {"x": xy[0], "y": xy[1]} for fid, xy in p["figures"].items()})
    guns = dict(state["guns"])
    for gid, g in p["guns"].items():
        guns[gid] = {**guns[gid], "x": g[0], "y": g[1], "heading": g[2]}
    new["guns"] = guns
    _place_wagons(state, new, p.get("wagons"))
    return new


def capture_figures(
    state: dict[str, Any],
    new: dict[str, Any],
    killed: list[Any],
    captured: list[Any],
    captor: str,
    pow_name: str | None,
) -> None:
    changes = {fid: {"st": "dead"} for fid in killed}
    changes.update({fid: {"st": "pow", "pow": [captor, pow_name, False]} for fid in captured})
    _set_figures(state, new, changes)
    new["groups"] = drop_from_groups(state["groups"], set(killed) | set(captured))
    if captured:
        new["pows"] = {**state["pows"], captor: {**state["pows"][captor], pow_name: list(captured)}}
        _count(state, new, captor, "pow")


def _melee(state: State, p: Mapping[str, Any]) -> State:
    new = dict(state)
    capture_figures(state, new, p["killed"], p["captured"], p["captor"], p.get("pow"))
    # prisoners taken earlier in the turn may have died here: drop them from their escort groups
    new["pows"] = drop_from_groups(new["pows"], set(p["killed"]))
    last = _last(state)
    last["melees"] = last["melees"] + [
        {"at": p["at"], "counts": p["counts"], "killed": len(p["killed"]), "captured": len(p["captured"])}
    ]
    new["last"] = last
    return new


def _surrendered(state: State, p: Mapping[str, Any]) -> State:
    new = dict(state)
    capture_figures(state, new, [], p["figures"], p["captor"], p["pow"])
    return new


def _prisoners_released(state: State, p: Mapping[str, Any]) -> State:
    new = dict(state)
    _set_figures(state, new, {fid: {"st": "ok", "dis": True, "pow": None} for fid in p["figures"]})
    new["pows"] = drop_from_groups(state["pows"], set(p["figures"]))
    new["groups"] = {**state["groups"], p["side"]: {**state["groups"][p["side"]], p["group"]: list(p["figures"])}}
    _count(state, new, p["side"], "freed")
    return new


def _prisoners_delivered(state: State, p: Mapping[str, Any]) -> State:
    new = dict(state)
    _set_figures(state, new, {fid: {"pow": [p["captor"], None, True]} for fid in p["figures"]})
    new["pows"] = drop_from_groups(state["pows"], set(p["figures"]))
    return new


def _rearmed(state: State, p: Mapping[str, Any]) -> State:
    new = dict(state)
    _set_figures(state, new, {fid: {"dis": False} for fid in p["figures"]})
    return new


def _gun_captured(state: State, p: Mapping[str, Any]) -> State:
    new = dict(state)
    new["guns"] = {**state["guns"], p["gun"]: {**state["guns"][p["gun"]], "owner": p["by"]}}
    last = _last(state)
    last["captures"] = last["captures"] + [p["gun"]]
    new["last"] = last
    return new


def _wagon_captured(state: State, p: Mapping[str, Any]) -> State:
    return {**state, "wagons": {**state["wagons"], p["wagon"]: {**state["wagons"][p["wagon"]], "owner": p["by"]}}}


def _capitulated(state: State, p: Mapping[str, Any]) -> State:
    new = dict(state)
    _set_figures(state, new, {fid: {"st": "pow", "pow": [p["captor"], None, True]} for fid in p["figures"]})
    new["groups"] = drop_from_groups(state["groups"], set(p["figures"]))
    guns = dict(state["guns"])
    for gid in p["guns"]:
        guns[gid] = {**guns[gid], "owner": p["captor"]}
    new["guns"] = guns
    if p.get("wagons"):  # LW-66/67: the wagons left behind in the flight
        new["wagons"] = {
            **state["wagons"],
            **{wid: {**state["wagons"][wid], "owner": p["captor"]} for wid in p["wagons"]},
        }
    return new


def _turn_completed(state: State, p: Mapping[str, Any]) -> State:
    return {**state, "turn": state["turn"] + 1}


def _game_over(state: State, p: Mapping[str, Any]) -> State:
    return {**state, "phase": "over", "result": {k: p[k] for k in ("winner", "reason", "scores")}}


_HANDLERS = {
    "table_laid": _table_laid,
    "reinforcements": _reinforcements,
    "deployed": _deployed,
    "deployment_done": _deployment_done,
    "edge_choice": _edge_choice,
    "edge_chosen": _edge_chosen,
    "groups_changed": _groups_changed,
    "standing_orders": _standing,
    "fired": _fired,
    "moved": _moved,
    "melee": _melee,
    "surrendered": _surrendered,
    "prisoners_released": _prisoners_released,
    "prisoners_delivered": _prisoners_delivered,
    "rearmed": _rearmed,
    "gun_captured": _gun_captured,
    "wagon_captured": _wagon_captured,
    "turn_completed": _turn_completed,
    "capitulated": _capitulated,
    "game_over": _game_over,
}
