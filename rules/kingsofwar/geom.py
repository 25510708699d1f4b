"""Unit bases on a continuous table: rectangles with a facing, a leader point and arcs.

A unit's state is plain JSON: ``x, y`` (its leader point, the centre of the front edge,
in inches), ``facing`` (degrees anticlockwise from east, the convention of Little Wars'
``geom.bearing``), and its base ``w`` (frontage) and ``d`` (depth) in inches. Geometry is
rebuilt from that JSON when needed and never stored in events.

Arcs (house rule, KW ambiguity 1): rays leave the two front corners and the two rear
corners; ``ARC_MODES`` names the two readings in use (45 degrees from the facing, or the
base diagonals produced through the corners). A point exactly on a ray (within ``TIE``)
counts as in the flank arc.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np
import shapely
from numpy.typing import ArrayLike, NDArray
from shapely.geometry import Point, Polygon
from shapely.geometry.base import BaseGeometry

TIE = 1e-6  # inches: a point this close to an arc ray is on it (and counts as flank)
RANGE_EPS = 1e-5  # a distance equal to a range within rounding (positions keep 6 decimals) is in range (KW-DT-5)
AREA_EPS = 1e-6  # square inches: less overlap than this is touching, not overlapping
TOUCH = 1e-5  # inches: from version 2, bases that overlap no deeper than this touch (see ``overlaps``)
MM = 1 / 25.4  # inches per millimetre: base sizes are given in mm, the table in inches
ARC_MODES = ("corner45", "diagonal")
SIDES = ("front", "right", "rear", "left")


def local_frame(facing: float) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Unit vectors (forward, right) of a facing in degrees."""
    a = math.radians(facing)
    fwd = np.array([math.cos(a), math.sin(a)])
    return fwd, np.array([fwd[1], -fwd[0]])


def to_local(u: dict[str, Any], points: ArrayLike) -> NDArray[np.float64]:
    """Points as (lateral to the right, forward) offsets from the unit's leader point."""
    fwd, right = local_frame(u["facing"])
    rel = np.asarray(points, dtype=float).reshape(-1, 2) - (u["x"], u["y"])
    out: NDArray[np.float64] = np.stack([rel @ right, rel @ fwd], axis=1)
    return out


def to_world(u: dict[str, Any], local: ArrayLike) -> NDArray[np.float64]:
    fwd, right = local_frame(u["facing"])
    loc = np.asarray(local, dtype=float).reshape(-1, 2)
    out: NDArray[np.float64] = (u["x"], u["y"]) + np.outer(loc[:, 0], right) + np.outer(loc[:, 1], fwd)
    return out


def base(u: dict[str, Any]) -> Polygon:
    """The base rectangle: ``box(-w/2, -d, w/2, 0)`` turned to the facing and moved to the leader point."""
    return _base(float(u["x"]), float(u["y"]), float(u["facing"]), float(u["w"]), float(u["d"]))


@functools.lru_cache(maxsize=8192)
def _base(x: float, y: float, facing: float, w: float, d: float) -> Polygon:
    # shapely geometries are immutable, so one pose's rectangle is built once and shared
    u = {"x": x, "y": y, "facing": facing}
    return Polygon(to_world(u, [(-w / 2, 0), (w / 2, 0), (w / 2, -d), (-w / 2, -d)]).tolist())


class Occupancy:
    """Which bases are where, in buckets of ``cell`` inches: updated as units move during a
    turn (an STRtree cannot be), so "who is near this shape" never scans every unit."""

    def __init__(self, units: dict[str, Any], cell: float = 8.0) -> None:
        self.cell = cell
        self.cells: dict[tuple[int, int], set[str]] = {}
        self.where: dict[str, list[tuple[int, int]]] = {}
        for uid, u in units.items():
            self.put(uid, u)

    def _keys(self, bounds: tuple[float, float, float, float], pad: float = 0.0) -> list[tuple[int, int]]:
        x0, y0, x1, y1 = bounds
        c = self.cell
        return [
            (i, j)
            for i in range(int((x0 - pad) // c), int((x1 + pad) // c) + 1)
            for j in range(int((y0 - pad) // c), int((y1 + pad) // c) + 1)
        ]

    def put(self, uid: str, u: dict[str, Any]) -> None:
        self.drop(uid)
        keys = self._keys(base(u).bounds)
        self.where[uid] = keys
        for k in keys:
            self.cells.setdefault(k, set()).add(uid)

    def drop(self, uid: str) -> None:
        for k in self.where.pop(uid, ()):
            self.cells[k].discard(uid)

    def near(self, shape: BaseGeometry, pad: float = 0.0) -> list[str]:
        """Ids whose bucket meets ``shape``'s bounds grown by ``pad`` (a superset), sorted."""
        found: set[str] = set()
        for k in self._keys(shape.bounds, pad):
            found |= self.cells.get(k, set())
        return sorted(found)


def corners(u: dict[str, Any]) -> dict[str, tuple[float, float]]:
    """Front-left, front-right, rear-right, rear-left corners in world coordinates."""
    w, d = u["w"] / 2, u["d"]
    pts = to_world(u, [(-w, 0), (w, 0), (w, -d), (-w, -d)])
    return dict(zip(("FL", "FR", "RR", "RL"), map(tuple, pts.tolist()), strict=True))


def side_segment(u: dict[str, Any], side: str) -> tuple[tuple[float, float], tuple[float, float]]:
    """A side's end points, left to right as seen by someone facing that side from outside."""
    c = corners(u)
    return {
        "front": (c["FR"], c["FL"]),
        "right": (c["RR"], c["FR"]),
        "rear": (c["RL"], c["RR"]),
        "left": (c["FL"], c["RL"]),
    }[side]


def centre(u: dict[str, Any]) -> tuple[float, float]:
    return tuple(to_world(u, [(0, -u["d"] / 2)])[0].tolist())


def _slope(u: dict[str, Any], mode: str) -> float:
    if mode not in ARC_MODES:
        raise ValueError(f"unknown arc mode {mode!r} (known: {', '.join(ARC_MODES)})")
    return 1.0 if mode == "corner45" else u["d"] / u["w"]


def arc_of(u: dict[str, Any], point: ArrayLike, mode: str = "corner45") -> str:
    """Which arc of ``u`` holds ``point``: front, left, right or rear (on a ray: the flank)."""
    lat, fwd = to_local(u, point)[0]
    k = _slope(u, mode)
    out = abs(lat) - u["w"] / 2
    if fwd - out * k > TIE:
        return "front"
    if -u["d"] - fwd - out * k > TIE:
        return "rear"
    return "right" if lat > 0 else "left"


def arc_polygon(u: dict[str, Any], arc: str, mode: str = "corner45", far: float = 1000.0) -> Polygon:
    """The wedge of one arc, reaching ``far`` inches (far beyond any table)."""
    w, d, k = u["w"] / 2, u["d"], _slope(u, mode)
    ray = far / math.hypot(1, k)
    fr, fl, rr, rl = (w, 0), (-w, 0), (w, -d), (-w, -d)
    out_fr, out_fl = (w + ray, ray * k), (-w - ray, ray * k)
    out_rr, out_rl = (w + ray, -d - ray * k), (-w - ray, -d - ray * k)
    local = {
        "front": [fl, fr, out_fr, (w + ray, far), (-w - ray, far), out_fl],
        "rear": [rl, rr, out_rr, (w + ray, -d - far), (-w - ray, -d - far), out_rl],
        "right": [fr, rr, out_rr, out_fr],
        "left": [fl, rl, out_rl, out_fl],
    }[arc]
    return Polygon(to_world(u, local).tolist())


def partly_in_front(u: dict[str, Any], target: Polygon, mode: str = "corner45") -> bool:
    """KW-29: the target is at least partly in the front arc."""
    return arc_polygon(u, "front", mode).intersects(target)


def leader_distance(u: dict[str, Any], target: Polygon) -> float:
    """Inches from the leader point to the nearest part of a target's base (KW-29)."""
    return float(Point(u["x"], u["y"]).distance(target))


def in_range(distance: float, rng: float) -> bool:
    return distance <= rng + RANGE_EPS


def moved(u: dict[str, Any], forward: float = 0.0, pivot: float = 0.0, lateral: float = 0.0) -> dict[str, Any]:
    """``u`` pivoted about its centre by ``pivot`` degrees (anticlockwise), then moved
    ``forward`` inches along its new facing and ``lateral`` inches to its right."""
    cx, cy = centre(u)
    a = math.radians(pivot)
    dx, dy = u["x"] - cx, u["y"] - cy
    turned = dict(
        u,
        x=cx + dx * math.cos(a) - dy * math.sin(a),
        y=cy + dx * math.sin(a) + dy * math.cos(a),
        facing=(u["facing"] + pivot) % 360,
    )
    fwd, right = local_frame(turned["facing"])
    x, y = np.array([turned["x"], turned["y"]]) + forward * fwd + lateral * right
    return dict(turned, x=round(float(x), 6), y=round(float(y), 6), facing=round(turned["facing"], 6))


def overlaps(a: BaseGeometry, b: BaseGeometry, version: int) -> bool:
    """Whether two shapes (bases, swept paths) overlap rather than touch.

    Version 1: they share more than ``AREA_EPS`` square inches. That is also true of two bases
    set side by side at a slant: positions keep 6 decimals, so rounding alone moves a leader
    point up to 7e-7 in and leaves a sliver some 1e-6 in deep and a base long (issue 33: chargers
    of a massed charge at a slant "overlapped", lost their Regroup and could not advance). From
    version 2 the shared part must also be deeper than ``TOUCH`` (1e-5 in, as ``RANGE_EPS``):
    its mean depth, twice its area over its perimeter, the depth of a sliver."""
    shared = a.intersection(b)
    area = float(shared.area)
    if area <= AREA_EPS:
        return False
    if version < 2:
        return True
    rim = sum(float(g.length) for g in shapely.get_parts(shared) if g.area > 0)
    return 2 * area / rim > TOUCH


def sweep(before: dict[str, Any], after: dict[str, Any]) -> BaseGeometry:
    """The ground a base covers going straight from ``before`` to ``after`` (same facing):
    the hull of both rectangles. A pivot is in place and is checked at its end only (KW-12)."""
    return base(before).union(base(after)).convex_hull
