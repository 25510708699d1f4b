"""Fire under the appendix: the blast rule with guns, wagons, works and generals (KS-3..8, KS-13, KS-89),
and rifle fire as gun shots (KS-8).

Blast (KS-3): half, rounded up, of the figures within 3 in of the impact die, the
nearest first (footprint to point). A figure is shielded (KS-7) when a building or wall
stands between it and the impact (the Little Wars table), when a finished entrenchment
lies across the line between them, or when it stands in a finished gun pit and the
impact is outside the pit. Guns: wholly inside the 3 in circle destroyed (KS-4), partly
inside out of action for 2 turns (KS-5), unless shielded the same way. Wagons, engines
and railway carriages are destroyed wholly or partly inside (KS-6, KS-89). A general
with a shell landing within 3 in of him (and not killed) leaves for 3 turns (KS-13).

Rifle fire (KS-8): each 5 infantry standing roughly in a line who did not move this
turn fire one ordinary gun shot from behind the middle figure (rifles_in_line says how
many shots; the shots are then resolved exactly like gun shots).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from shapely.geometry import LineString, Point

from rules.littlewars.geom import FigureIndex
from rules.littlewars.table import Table
from rules.tabletop.points import Coord

from .numbers import (
    BLAST_RADIUS,
    GENERAL_NEAR,
    LINE_SPACING,
    LINE_TOLERANCE,
    RIFLES_PER_SHOT,
    footprint,
)

GUN_RADIUS = 1.0  # a gun's footprint on the table (decision)
PIT_RADIUS = 2.0  # a finished gun pit shelters what stands within 2 in of its centre
WAGON_RADIUS = 1.0


def finished(works: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [w for w in works.values() if w["kind"] == kind and w["status"] == "complete"]


def shielded_by_works(works: dict[str, Any], impact: Coord, target: Coord) -> bool:
    line = LineString([impact, target]) if tuple(impact) != tuple(target) else Point(impact)
    for w in finished(works, "entrenchment"):
        seg = LineString([w["at"], w["to"]])
        if line.intersects(seg) and Point(impact).distance(seg) > 1e-6:  # a shell on the parapet is not shielded
            return True
    for w in finished(works, "gunpit"):
        inside_t = math.dist(target, w["at"]) <= PIT_RADIUS
        inside_i = math.dist(impact, w["at"]) <= PIT_RADIUS
        if inside_t and not inside_i:
            return True
    return False


def resolve(
    impact: Coord,
    figures: dict[str, Any],
    guns: dict[str, Any],
    wagons: dict[str, Any],
    works: dict[str, Any],
    table: Table,
    dead: set[str],
    generals: dict[str, Any] | None = None,
    index: FigureIndex | None = None,
) -> dict[str, Any]:
    """Effects of one impact: {"killed", "guns_destroyed", "guns_out", "wagons", "generals_out"}.

    ``index``: a FigureIndex of the figures on the table (geom.py) to find those near the
    impact without looking at every figure; without one every figure is looked at.
    """

    def shielded(p: Coord) -> bool:
        return table.shielded(impact, p) or shielded_by_works(works, impact, p)

    near = index.near(impact, BLAST_RADIUS) if index is not None else sorted(figures)
    ranked = []
    for fid in near:
        f = figures[fid]
        if fid in dead or not (f["st"] == "ok" or (f["st"] == "pow" and not f["pow"][2])):
            continue
        d = math.dist(impact, (f["x"], f["y"]))
        if d - footprint(f["arm"]) <= BLAST_RADIUS + 1e-9 and not shielded((f["x"], f["y"])):
            ranked.append((d, fid))
    ranked.sort()
    killed = [fid for _, fid in ranked[: math.ceil(len(ranked) / 2)]]
    out = {"killed": killed, "guns_destroyed": [], "guns_out": [], "wagons": [], "generals_out": []}
    for gid in sorted(guns):
        g = guns[gid]
        if g.get("destroyed"):
            continue
        d = math.dist(impact, (g["x"], g["y"]))
        if d - GUN_RADIUS > BLAST_RADIUS or shielded((g["x"], g["y"])):
            continue
        (out["guns_destroyed"] if d + GUN_RADIUS <= BLAST_RADIUS + 1e-9 else out["guns_out"]).append(gid)
    out["wagons"] = sorted(
        wid for wid, w in wagons.items() if math.dist(impact, (w["x"], w["y"])) - WAGON_RADIUS <= BLAST_RADIUS + 1e-9
    )
    for side, gen in sorted((generals or {}).items()):
        fid = gen.get("figure")
        f = figures.get(fid)
        if f and f["st"] == "ok" and fid not in killed and math.dist(impact, (f["x"], f["y"])) <= GENERAL_NEAR:
            out["generals_out"].append(side)
    return out


def rifles_in_line(points: list[tuple[float, float]]) -> tuple[int, str | None]:
    """KS-8: (shots, why not) for infantry standing at ``points``: one shot per 5 in a rough line.

    "Roughly in a line" (decision): every figure within LINE_TOLERANCE (1 in) of the best
    straight line through them, and no gap wider than LINE_SPACING (2 in) between
    neighbours along it.
    """
    if len(points) < RIFLES_PER_SHOT:
        return 0, f"{len(points)} riflemen: one shot needs {RIFLES_PER_SHOT} in line (KS-8)"
    pts = np.asarray(points, dtype=float)
    centre = pts.mean(axis=0)
    _, _, vt = np.linalg.svd(pts - centre)
    axis, normal = vt[0], vt[1]
    off = np.abs((pts - centre) @ normal)
    if off.max() > LINE_TOLERANCE + 1e-9:
        return 0, (
            f"not in line: a figure stands {off.max():.1f} in off the line; rifle fire needs the men "
            f"within {LINE_TOLERANCE:g} in of a straight line (KS-8)"
        )
    along = np.sort((pts - centre) @ axis)
    gap = float(np.max(np.diff(along))) if len(along) > 1 else 0.0
    if gap > LINE_SPACING + 1e-9:
        return 0, f"not in line: a gap of {gap:.1f} in; rifle fire needs no gap over {LINE_SPACING:g} in (KS-8)"
    return len(points) // RIFLES_PER_SHOT, None


def firing_point(points: list[tuple[float, float]], aim: Coord) -> tuple[float, float]:
    """Where the line's 'gun' stands: behind the middle figure, so its shot passes over his head (KS-8)."""
    pts = sorted(points)
    mid = min(pts, key=lambda p: math.dist(p, tuple(np.mean(pts, axis=0))))
    d = math.dist(mid, aim) or 1.0
    return (round(mid[0] - (aim[0] - mid[0]) / d, 4), round(mid[1] - (aim[1] - mid[1]) / d, 4))
