"""Spatial queries over figures: an STRtree per position, never all pairs.

Distances to a figure are to the nearest part of its footprint disc (LW-34), so a
figure counts as "within d of p" when centre distance - radius <= d.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.strtree import STRtree

from rules.core.protocol import State
from rules.tabletop.points import XY, Coord, Polyline, point_array

from .units import ARMS, CREW_RANGE, pace, radius

MAX_R = max(a["radius"] for a in ARMS.values())


def fighting(f: dict[str, Any]) -> bool:
    """Alive, on the table, armed and free: counts for crews, support and melee."""
    return f["st"] == "ok" and not f["dis"]


class FigureIndex:
    """Figures passing ``keep`` at their current positions, in an STRtree."""

    def __init__(self, figures: dict[str, Any], keep: Callable[[dict[str, Any]], bool] = fighting) -> None:
        self.ids = [fid for fid, f in figures.items() if keep(f)]
        self.figures = figures
        xy = np.array([(figures[i]["x"], figures[i]["y"]) for i in self.ids], dtype=float).reshape(-1, 2)
        self.xy = xy
        self.r = np.array([radius(figures[i]["arm"]) for i in self.ids], dtype=float)
        self.tree = STRtree(point_array(xy)) if len(self.ids) else None
        self._masks: dict[str, NDArray[np.bool_]] = {}

    def near(self, point: Coord, dist: float, side: str | None = None) -> list[str]:
        """Ids whose footprint comes within ``dist`` of ``point`` (optionally of one side), sorted."""
        if self.tree is None:
            return []
        cand = self.tree.query(shapely.Point(point), predicate="dwithin", distance=dist + MAX_R)
        out = []
        for c in cand:
            k = int(c)
            fid = self.ids[k]
            if side is not None and self.figures[fid]["side"] != side:
                continue
            if math.dist(point, self.xy[k]) - self.r[k] <= dist + 1e-9:
                out.append(fid)
        return sorted(out)

    def near_any(self, points: Polyline, dist: float | Sequence[float], side: str | None = None) -> set[str]:
        """Ids within ``dist`` of any of ``points`` (one bulk tree query, filtered with numpy)."""
        return {fid for _, fid in self.near_pairs(points, dist, side)}

    def near_pairs(
        self, points: Polyline, dist: float | Sequence[float], side: str | None = None
    ) -> list[tuple[int, str]]:
        """(k, id) for every figure within ``dist[k]`` (or ``dist``) of ``points[k]``: one bulk tree query."""
        if self.tree is None or not len(points):
            return []
        pts = np.asarray(points, dtype=float).reshape(-1, 2)
        dists = np.broadcast_to(np.asarray(dist, dtype=float), (len(pts),))
        src, cand = self.tree.query(shapely.points(pts), predicate="dwithin", distance=dists + MAX_R)
        gap = np.hypot(pts[src, 0] - self.xy[cand, 0], pts[src, 1] - self.xy[cand, 1]) - self.r[cand]
        ok = gap <= dists[src] + 1e-9
        if side is not None:
            ok &= self._side_mask(side)[cand]
        return [(int(k), self.ids[c]) for k, c in zip(src[ok].tolist(), cand[ok].tolist(), strict=True)]

    def _side_mask(self, side: str) -> NDArray[np.bool_]:
        if side not in self._masks:
            self._masks[side] = np.array([self.figures[i]["side"] == side for i in self.ids], dtype=bool)
        return self._masks[side]


_CACHE: list[Any] = [None, None]


def index_of(figures: dict[str, Any]) -> FigureIndex:
    """The fighting-figure index of a figures dict (one-entry cache: states are immutable)."""
    if _CACHE[0] is not figures:
        _CACHE[0], _CACHE[1] = figures, FigureIndex(figures)
    result: FigureIndex = _CACHE[1]
    return result


def crew(state: dict[str, Any], side: str, point: Coord, index: FigureIndex | None = None) -> list[str]:
    """LW-19: fighting figures of ``side`` within 6 in of a gun at ``point``."""
    return (index or index_of(state["figures"])).near(point, CREW_RANGE, side)


def support(
    state: dict[str, Any], side: str, ids: list[str], index: FigureIndex | None = None, exclude: Iterable[str] = ()
) -> tuple[int, int]:
    """LW-32: (friends within the group's move radius, group size). Each member reaches out by its own move."""
    index = index or index_of(state["figures"])
    figs = state["figures"]
    pts = [(figs[i]["x"], figs[i]["y"]) for i in ids]
    reach = [pace(state["scenario"], figs[i]["arm"]) for i in ids]
    friends = index.near_any(pts, reach, side) - set(ids) - set(exclude)
    return len(friends), len(ids)


def isolated(
    state: State, side: str, ids: list[str], index: FigureIndex | None = None, exclude: Iterable[str] = ()
) -> bool:
    friends, n = support(state, side, ids, index, exclude)
    return 2 * friends < n


class PlannedMoves(Protocol):
    """What ``gun_team`` reads of a side's plan (plan.Plan has it)."""

    side: str
    paths: dict[str, list[XY]]


def gun_team(state: dict[str, Any], plan: PlannedMoves, gid: str, dest: Sequence[float]) -> list[str]:
    """LW-24: crew at the start of the turn whose planned end lies within 6 in of the gun's destination."""
    g = state["guns"][gid]
    figs = state["figures"]
    team = []
    for fid in crew(state, plan.side, (g["x"], g["y"])):
        end = plan.paths[fid][-1] if fid in plan.paths else (figs[fid]["x"], figs[fid]["y"])
        if math.dist(end, dest) - radius(figs[fid]["arm"]) <= CREW_RANGE + 1e-9:
            team.append(fid)
    return team


def gun_name(g: dict[str, Any]) -> str:
    """How its owner calls a gun: a captured gun takes its old side as a prefix (red-gun2), so names stay unique."""
    return g["name"] if g["owner"] == g["side"] else f"{g['side']}-{g['name']}"


def line_slots(a: Coord, b: Coord, n: int) -> list[tuple[float, float]]:
    if n == 1:
        return [(round((a[0] + b[0]) / 2, 4), round((a[1] + b[1]) / 2, 4))]
    return [
        (round(a[0] + (b[0] - a[0]) * k / (n - 1), 4), round(a[1] + (b[1] - a[1]) * k / (n - 1), 4)) for k in range(n)
    ]


def bearing(a: Coord, b: Coord) -> float:
    """Degrees anticlockwise from east, 0 <= b < 360 (rounded for stable JSON)."""
    return round(math.degrees(math.atan2(b[1] - a[1], b[0] - a[0])) % 360.0, 3)
