"""End-of-turn checks: guns moved with their team, gun capture, escorts, delivery, re-arming.

Decisions (RULES.md): a gun whose team did not end within 6 in of its destination
stays where it was (LW-24); a gun is taken when no fighting friend is within 6 in
and 4 or more enemies within 6 in crossed its axle line this turn (LW-46); an
escort holds 7 prisoners per guard within 6 in, and the prisoners beyond that (the
farthest from the guards first; all of them when no guard is left) go back to their
side disarmed (LW-41, LW-43).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from .fold import Namer
from .geom import FigureIndex, bearing, crew
from .table import path_length, table_of
from .units import (
    CREW_MIN,
    CREW_RANGE,
    GUARD_RANGE,
    GUARD_RATIO,
    SIDES,
    gun_pace,
    other,
    radius,
)


def gun_moves(
    start: dict[str, Any],
    moved: dict[str, Any],
    gun_paths: dict[str, Any],
    limit_of: Callable[[str], float] | None = None,
) -> tuple[dict[str, Any], list[Any]]:
    """New gun positions {gid: [x, y, heading]} and the guns that could not go (with why).

    ``limit_of(gid)``: a variant's own range for the gun's path instead of LW-26's."""
    figs = start["figures"]
    out: dict[str, Any] = {}
    stuck: list[Any] = []
    for gid in sorted(gun_paths):
        pts = gun_paths[gid]
        g = start["guns"][gid]
        dest = pts[-1]
        team = []
        for fid in crew(start, g["owner"], (g["x"], g["y"])):
            end = moved.get(fid, [figs[fid]["x"], figs[fid]["y"]])
            if math.dist(end, dest) - radius(figs[fid]["arm"]) <= CREW_RANGE + 1e-9:
                team.append(fid)
        cav = sum(1 for i in team if figs[i]["arm"] == "cav")
        limit = limit_of(gid) if limit_of else gun_pace(start["scenario"], cav)
        if len(team) < CREW_MIN or path_length(pts) > limit + 1e-9:
            stuck.append({"gun": gid, "team": len(team), "cavalry": cav})
            continue
        out[gid] = [round(dest[0], 4), round(dest[1], 4), bearing(dest, pts[-2])]  # LW-25: muzzle back the way it came
    return out, stuck


def _axle_side(g: dict[str, Any], x: float, y: float) -> float:
    h = math.radians(g["heading"])
    result: float = (x - g["x"]) * math.cos(h) + (y - g["y"]) * math.sin(h)
    return result


def captures(start: dict[str, Any], now: dict[str, Any]) -> list[dict[str, Any]]:
    """LW-46 at the end of movement and melee."""
    index = FigureIndex(now["figures"])
    out = []
    for gid in sorted(now["guns"]):
        g = now["guns"][gid]
        if index.near((g["x"], g["y"]), CREW_RANGE, g["owner"]):
            continue
        enemy = other(g["owner"])
        passed = []
        for fid in index.near((g["x"], g["y"]), CREW_RANGE, enemy):
            before = start["figures"][fid]
            after = now["figures"][fid]
            if _axle_side(g, before["x"], before["y"]) * _axle_side(g, after["x"], after["y"]) < 0:
                passed.append(fid)
        if len(passed) >= CREW_MIN:
            out.append({"gun": gid, "by": enemy, "from": g["owner"], "figures": passed})
    return out


def escorts(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Prisoner groups short of guards release the prisoners beyond their guards' capacity."""
    index = FigureIndex(state["figures"])
    figs = state["figures"]
    out = []
    names = Namer(state, "freed")
    for captor in SIDES:
        for name in sorted(state["pows"][captor]):
            ids = [i for i in state["pows"][captor][name] if figs[i]["st"] == "pow" and not figs[i]["pow"][2]]
            if not ids:
                continue
            pts = [(figs[i]["x"], figs[i]["y"]) for i in ids]
            guards = sorted(index.near_any(pts, [GUARD_RANGE + radius(figs[i]["arm"]) for i in ids], captor))
            keep = len(guards) * GUARD_RATIO
            if keep >= len(ids):
                continue
            gp = [(figs[g]["x"], figs[g]["y"]) for g in guards]
            ranked = sorted(
                ids, key=lambda i: (min((math.dist((figs[i]["x"], figs[i]["y"]), p) for p in gp), default=0.0), i)
            )
            free = ranked[keep:]
            out.append(
                {
                    "side": other(captor),
                    "captor": captor,
                    "from": name,
                    "figures": free,
                    "guards": len(guards),
                    "group": names(other(captor)),
                }
            )
    return out


def deliveries(state: dict[str, Any]) -> list[dict[str, Any]]:
    """LW-42: prisoners brought to the captor's edge leave the table."""
    table = table_of(state["scenario"])
    out = []
    for captor in SIDES:
        edge = table.home(captor)
        ids = sorted(
            i
            for name, members in state["pows"][captor].items()
            for i in members
            if not state["figures"][i]["pow"][2]
            and table.at_edge(edge, state["figures"][i]["x"], state["figures"][i]["y"], state["figures"][i]["arm"])
        )
        if ids:
            out.append({"captor": captor, "figures": ids})
    return out


def rearming(state: dict[str, Any]) -> list[str]:
    """LW-43: disarmed figures that reach their own edge fight again."""
    table = table_of(state["scenario"])
    return sorted(
        fid
        for fid, f in state["figures"].items()
        if f["st"] == "ok" and f["dis"] and table.at_edge(table.home(f["side"]), f["x"], f["y"], f["arm"])
    )
