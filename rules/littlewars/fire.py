"""Gun fire: the model that replaces the spring cannon (RULES.md, "Fire").

Every shot has an aim point; the impact is drawn from a normal distribution around
it whose spread grows with range (seeded rng, so re-adjudication is exact). A shot
flies flat: the first building or wall on its line stops it there.

Casualties, seed-000 rule (LW-28..31): the shot kills the figure it strikes (the
nearest footprint within STRIKE_REACH of the impact) and at most one more, the next
nearest within KNOCK_REACH, which it would have knocked over; never more.
Blast rule (setting ``blast``, KS-3/KS-7): half, rounded up, of the figures within 3 in
of the impact die, nearest first; a building or wall between impact and figure shields it.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from random import Random
from typing import Any

from rules.core.protocol import State
from rules.tabletop.points import XY, Coord

from .geom import FigureIndex, bearing
from .table import Table, table_of
from .units import (
    BLAST_RADIUS,
    KNOCK_REACH,
    SCATTER_BASE,
    SCATTER_PER_INCH,
    STRIKE_REACH,
    radius,
)
from .wagons import struck


def on_table(f: dict[str, Any]) -> bool:
    """Anything standing on the table can be hit: free figures and undelivered prisoners."""
    return f["st"] == "ok" or (f["st"] == "pow" and not f["pow"][2])


def scatter(range_in: float) -> float:
    return SCATTER_BASE + SCATTER_PER_INCH * range_in


def resolve_fire(state: dict[str, Any], fire: dict[str, list[Any]], rng: Random) -> dict[str, Any]:
    """All guns' shots from start-of-turn positions, guns in id order. Returns the ``fired`` payload."""
    table = table_of(state["scenario"])
    index = FigureIndex(state["figures"], on_table)
    blast = state["scenario"]["settings"]["blast"]
    dead: set[str] = set()
    shots, headings = [], {}
    wrecked: list[str] = []  # LW-66/67 wagons and carts the shots destroyed
    for gid in sorted(fire):
        g = state["guns"][gid]
        origin = (g["x"], g["y"])
        for aim in fire[gid]:
            sigma = scatter(math.dist(origin, aim))
            impact = (aim[0] + rng.gauss(0.0, sigma), aim[1] + rng.gauss(0.0, sigma))
            stop = table.shot_blocker(origin, impact)
            hit = stop if stop is not None else impact
            hit = (round(min(max(hit[0], 0.0), table.width), 3), round(min(max(hit[1], 0.0), table.depth), 3))
            killed = (_blast if blast else _strike)(state, index, table, hit, dead)
            dead.update(killed)
            wrecked += struck(state, hit, blast, table, set(wrecked))
            shots.append(
                {
                    "gun": gid,
                    "aim": [float(aim[0]), float(aim[1])],
                    "impact": list(hit),
                    "blocked": stop is not None,
                    "killed": killed,
                }
            )
        headings[gid] = bearing(origin, fire[gid][-1])  # LW-23: it faces its last shot
    out = {"shots": shots, "headings": headings}
    if wrecked:
        out["wagons"] = wrecked
    return out


def _ranked(
    state: State, index: FigureIndex, point: Coord, reach: float, dead: Collection[str]
) -> list[tuple[float, str]]:
    figs = state["figures"]
    out: list[tuple[float, str]] = []
    for fid in index.near(point, reach):
        if fid in dead:
            continue
        f = figs[fid]
        out.append((math.dist(point, (f["x"], f["y"])), fid))
    return sorted(out)


def _strike(state: State, index: FigureIndex, table: Table, hit: XY, dead: Collection[str]) -> list[str]:
    figs = state["figures"]
    ranked = _ranked(state, index, hit, KNOCK_REACH, dead)
    if not ranked:
        return []
    d0, first = ranked[0]
    if d0 - radius(figs[first]["arm"]) > STRIKE_REACH + 1e-9:
        return []  # it landed among them but struck no one
    return [fid for _, fid in ranked[:2]]  # the struck figure and at most one knocked over


def _blast(state: State, index: FigureIndex, table: Table, hit: XY, dead: Collection[str]) -> list[str]:
    figs = state["figures"]
    exposed = [
        fid
        for _, fid in _ranked(state, index, hit, BLAST_RADIUS, dead)
        if not table.shielded(hit, (figs[fid]["x"], figs[fid]["y"]))
    ]
    return exposed[: math.ceil(len(exposed) / 2)]
