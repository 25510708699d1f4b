"""Artillery in the appendix: its pace (KS-19), limbering (KS-33) and pursuit (KS-86).

Decisions (RULES.md, "Artillery"):
- A gun is either in action (unlimbered) or limbered up to march. Guns are deployed in
  action. A gun fires only in action and moves only limbered.
- Each gun has one turn of time; limbering or unlimbering takes half of it (KS-33):
  * a gun in action ordered to move limbers first: half a turn, so half its 2 ft (KS-19);
  * ``unlimber gun1`` with a move (of a limbered gun): half the move, in action at the end;
  * a limbered gun ordered to fire unlimbers first: half its shots (2 of 4, LW-21);
  * ``limber gun1`` with fire (of a gun in action): half the shots, limbered at the end;
  * ``limber gun1`` / ``unlimber gun1`` alone: the half turn and nothing else needed.
  A gun that would need more than a whole turn is refused with the reason.
- A moving gun goes at the artillery's pace, 2 ft (KS-19), whatever its team, with the
  appendix's costs of climbing, slopes and no fording (KS-23..25, KS-34), not LW-26's rates.
  Its gunners (its crew at the start of the turn whose move ends within 6 in of its
  destination, LW-24) march with it at the same pace, if that is more than their own.
- KS-86: when a charge takes a gun (KS-85), the other guns of that side within 6 in of it
  that were moving away that turn (withdrawing before the charge) are pursued: in the next
  turn they withdraw again at the artillery's pace towards their own edge, with their
  crews, instead of their orders, unless their side attacks the pursuers that turn (the
  test of KS-80/84). Charged again while withdrawing, an unsupported gun is taken (KS-85).
"""

from __future__ import annotations

import math
from typing import Any

from rules.littlewars.geom import crew, gun_name
from rules.littlewars.table import table_of
from rules.littlewars.units import CREW_RANGE, SHOTS_PER_TURN, radius
from rules.tabletop.points import Coord, Polyline

from .movement import MoveError, cost, ground_of, steep_bars, way_home
from .numbers import FOOT, HALF, MOVE
from .version import ks_version

BATTERY_REACH = 6.0  # KS-86 (decision): guns within 6 in of the gun taken are its battery


def limbered(state: dict[str, Any], side: str) -> set[str]:
    """The side's guns limbered up at the start of the turn (older logs have none: all in action)."""
    return set(state["ks"].get("limbered", {}).get(side, ()))


def move_half_turns(start_limbered: bool, unlimber_after: bool) -> int:
    """Half turns of limbering a moving gun spends: limbering first if in action, unlimbering after if told."""
    return (0 if start_limbered else HALF["limber"]) + (HALF["limber"] if unlimber_after else 0)


def fire_half_turns(start_limbered: bool, limber_after: bool) -> int:
    return (HALF["limber"] if start_limbered else 0) + (HALF["limber"] if limber_after else 0)


def move_error(state: dict[str, Any], gid: str, pts: Polyline, half_turns: int) -> str | None:
    """Why this gun's planned path breaks KS-19/23..25/33/34, or None."""

    name = gun_name(state["guns"][gid])
    if half_turns >= 2:
        return (
            f"{name} has no time to move: limbering up and unlimbering take half a turn each (KS-33); "
            f"it is {'limbered' if gid in limbered(state, state['guns'][gid]['owner']) else 'in action'}"
        )
    try:
        c, limit = cost(
            ground_of(state["scenario"]),
            "art",
            [tuple(p) for p in pts],
            half_turns=half_turns,
            steep_bars=steep_bars(state["scenario"], "art"),
            on_ground=ks_version(state) >= 4,
        )
    except MoveError as exc:
        return f"{name}: {exc}"
    if c > limit + 1e-9:
        return (
            f"out of range: {name}'s move costs {c / FOOT:.2f} ft (a level up costs 1 ft, a level down 1/2 ft, "
            f"KS-23/24); artillery moves {MOVE['art'] / FOOT:g} ft a turn (KS-19)"
            + (f", {limit / FOOT:g} ft after limbering or unlimbering (half a turn, KS-33)" if half_turns else "")
        )
    return None


def fire_error(state: dict[str, Any], gid: str, shots: int, half_turns: int) -> str | None:
    """Why a gun cannot fire ``shots`` shots this turn with ``half_turns`` of limbering, or None."""
    name = gun_name(state["guns"][gid])
    if half_turns >= 2:
        return (
            f"{name} is limbered: unlimbering and limbering again take the whole turn (KS-33), leaving no time to fire"
        )
    allowed = SHOTS_PER_TURN * (2 - half_turns) // 2
    if shots > allowed:
        return (
            f"{name} {'unlimbers' if gid in limbered(state, state['guns'][gid]['owner']) else 'limbers up'} "
            f"this turn (half a turn, KS-33): it has time for {allowed} shots, not {shots}"
        )
    return None


def gunners(
    state: dict[str, Any], side: str, marching: dict[str, tuple[Any, ...]], halves: dict[str, int]
) -> dict[str, tuple[Any, ...]]:
    """{figure id: (destination of its gun, half turns, gun id)} for the crews of guns ordered to move (LW-24)."""
    out: dict[str, tuple[Any, ...]] = {}
    for gid, dest in sorted(marching.items()):
        g = state["guns"][gid]
        for fid in crew(state, side, (g["x"], g["y"])):
            out.setdefault(fid, (tuple(dest), halves.get(gid, 0), gid))
    return out


def marches_with(state: dict[str, Any], fid: str, end: Coord, gunner: tuple[Any, ...]) -> bool:
    """Does a crew figure's move end within reach of its gun's destination (so it goes with the gun)?"""
    dest = gunner[0]
    return math.dist(tuple(end), dest) - radius(state["figures"][fid]["arm"]) <= CREW_RANGE + 1e-9


def battery_withdrawing(state: dict[str, Any], gid: str, moving: set[str]) -> list[str]:
    """KS-86: the taken gun's battery (same owner, within 6 in) that was moving away this turn."""
    g = state["guns"][gid]
    return sorted(
        k
        for k, o in state["guns"].items()
        if k != gid
        and k in moving
        and o["owner"] == g["owner"]
        and math.dist((o["x"], o["y"]), (g["x"], g["y"])) <= BATTERY_REACH + 1e-9
    )


def withdrawal(state: dict[str, Any], gid: str) -> tuple[list[Any], dict[str, Any]]:
    """A pursued gun's way back (KS-86) at the artillery pace, and its crew's ways beside it.
    Returns ([], {}) where the scenery leaves it no way back."""
    g = state["guns"][gid]
    side = g["owner"]
    table = table_of(state["scenario"])
    step = MOVE["art"] * (2 - move_half_turns(gid in limbered(state, side), False)) / 2
    start = (g["x"], g["y"])
    pts = way_home(state, side, start, step, "cav")
    if not pts:
        return [], {}
    dx, dy = pts[-1][0] - start[0], pts[-1][1] - start[1]
    figs = state["figures"]
    crew_paths = {}
    for fid in crew(state, side, start):
        f = figs[fid]
        way = table.path(f["arm"], (f["x"], f["y"]), (f["x"] + dx, f["y"] + dy))
        if way:
            crew_paths[fid] = way
    return pts, crew_paths


def after_turn(start: set[str], moved: set[str], fired: set[str], ordered: dict[str, bool]) -> set[str]:
    """The guns limbered at the end of the turn: a gun that moved is limbered, one that fired in action,
    unless told otherwise in the same turn; ``ordered``: gun id -> limber (True) / unlimber (False)."""
    now = set(start) | set(moved)
    now -= set(fired)
    for gid, up in ordered.items():
        (now.add if up else now.discard)(gid)
    return now
