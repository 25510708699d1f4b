"""Simultaneous movement: everyone moves at once and stops on touching an enemy (LW-33).

Each figure walks its path at its arm's full pace (an infantryman covers 12 in in the
whole turn, a cavalryman 24 in), so time t runs from 0 to 1. Two enemy figures
touch when their footprints come within 1/8 in; both stop where they are at that
moment and stay for the rest of the turn. Candidate pairs come from an STRtree of
swept paths (never all pairs); each pair's first touching time is exact for
piecewise-linear motion (a quadratic per segment). When a figure stops, its pairs
are re-timed (an event queue), so a stop early in the turn changes later contacts.
Prisoners and disarmed figures do not fight and never stop anyone.
"""

from __future__ import annotations

import heapq
import math
from itertools import pairwise
from typing import Any

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.strtree import STRtree

from rules.tabletop.points import XY, Polyline

from .geom import MAX_R, fighting
from .units import CONTACT_GAP, pace, radius

FloatArray = NDArray[np.float64]

EPS_T = 1e-9


class Track:
    """A figure's motion: polyline walked at ``speed`` inches per turn, possibly halted at ``stop``."""

    __slots__ = ("pts", "cum", "speed", "stop", "end")

    def __init__(self, pts: Polyline, speed: float) -> None:
        self.pts: list[XY] = []
        for x, y in pts:  # repeated points add nothing; a track that goes nowhere is a single point
            if not self.pts or self.pts[-1] != (float(x), float(y)):
                self.pts.append((float(x), float(y)))
        self.cum = [0.0]
        for a, b in pairwise(self.pts):
            self.cum.append(self.cum[-1] + math.dist(a, b))
        self.speed = speed
        self.end = min(1.0, self.cum[-1] / speed) if speed > 0 else 0.0
        self.stop = self.end

    def at(self, t: float) -> tuple[float, float]:
        s = min(t, self.stop) * self.speed
        if s >= self.cum[-1]:
            return self.pts[-1]
        for k in range(1, len(self.cum)):
            if s <= self.cum[k]:
                seg = self.cum[k] - self.cum[k - 1]
                u = 0.0 if seg == 0 else (s - self.cum[k - 1]) / seg
                a, b = self.pts[k - 1], self.pts[k]
                return (a[0] + (b[0] - a[0]) * u, a[1] + (b[1] - a[1]) * u)
        return self.pts[-1]

    def breaks(self) -> list[float]:
        return [min(c / self.speed, self.stop) for c in self.cum if self.speed > 0] + [self.stop]

    def moving(self, t: float) -> bool:
        return t < self.stop - EPS_T


def _earliest1(rx: float, ry: float, vx: float, vy: float, span: float, d: float) -> float | None:
    """Scalar twin of ``_earliest``: earliest u in [0, span] with |r + v u| <= d, or None."""
    c = rx * rx + ry * ry - d * d
    if c <= 0:
        return 0.0
    a = vx * vx + vy * vy
    b = rx * vx + ry * vy
    if a == 0 or b >= 0:
        return None
    disc = b * b - a * c
    if disc < 0:
        return None
    u = (-b - math.sqrt(disc)) / a
    return u if 0 <= u <= span else None


def _velocity(t: Track) -> tuple[float, float]:
    length = t.cum[-1]
    if length == 0:
        return 0.0, 0.0
    (x0, y0), (x1, y1) = t.pts[0], t.pts[-1]
    return (x1 - x0) * t.speed / length, (y1 - y0) * t.speed / length


def _simple_touch(a: Track, b: Track, d: float) -> float | None:
    """first_touch for straight or standing tracks in closed form (both move, then one, then none)."""
    (vax, vay), (vbx, vby) = _velocity(a), _velocity(b)
    t1, t2 = min(a.stop, b.stop), max(a.stop, b.stop)
    rx, ry = a.pts[0][0] - b.pts[0][0], a.pts[0][1] - b.pts[0][1]
    dvx, dvy = vax - vbx, vay - vby
    u = _earliest1(rx, ry, dvx, dvy, t1, d)
    if u is not None:
        result: float | None = u
        return result
    rx, ry = rx + dvx * t1, ry + dvy * t1
    vx, vy = (vax, vay) if a.stop > b.stop else (-vbx, -vby)
    u = _earliest1(rx, ry, vx, vy, t2 - t1, d)
    return None if u is None else t1 + u


def first_touch(a: Track, b: Track, d: float) -> float | None:
    """Earliest t in [0, 1] at which the two tracks are within ``d``, or None."""
    if len(a.pts) <= 2 and len(b.pts) <= 2:
        return _simple_touch(a, b, d)
    times = sorted({0.0, 1.0, *a.breaks(), *b.breaks()})
    times = [t for t in times if 0.0 <= t <= 1.0]
    for t0, t1 in zip(times, times[1:] + [1.0], strict=True):
        pa, pb = a.at(t0), b.at(t0)
        rx, ry = pa[0] - pb[0], pa[1] - pb[1]
        c = rx * rx + ry * ry - d * d
        if c <= 0:
            return t0
        if t1 <= t0:
            continue
        qa, qb = a.at(t1), b.at(t1)
        vx = ((qa[0] - qb[0]) - rx) / (t1 - t0)
        vy = ((qa[1] - qb[1]) - ry) / (t1 - t0)
        aa = vx * vx + vy * vy
        bb = rx * vx + ry * vy
        if aa == 0 or bb >= 0:
            continue
        disc = bb * bb - aa * c
        if disc < 0:
            continue
        t = (-bb - math.sqrt(disc)) / aa
        if 0 <= t <= t1 - t0:
            return t0 + t
    return None


def _earliest(r: FloatArray, v: FloatArray, span: FloatArray, d: FloatArray) -> FloatArray:
    """Vectorised: earliest u in [0, span] with |r + v u| <= d (inf where none)."""
    c = np.einsum("ij,ij->i", r, r) - d * d
    a = np.einsum("ij,ij->i", v, v)
    b = np.einsum("ij,ij->i", r, v)
    disc = b * b - a * c
    with np.errstate(divide="ignore", invalid="ignore"):
        u = (-b - np.sqrt(np.maximum(disc, 0.0))) / a
    ok = (a > 0) & (b < 0) & (disc >= 0) & (u >= 0) & (u <= span)
    out = np.where(ok, u, np.inf)
    earliest: FloatArray = np.where(c <= 0, 0.0, out)
    return earliest


def _simple_times(tracks: dict[str, Track], pairs: list[tuple[str, str]], d: FloatArray) -> FloatArray:
    """First touching times for pairs of straight (or standing) tracks, all at once."""

    def arrays(side: int) -> tuple[FloatArray, FloatArray, FloatArray]:
        p0 = np.array([tracks[p[side]].pts[0] for p in pairs], dtype=float).reshape(-1, 2)
        p1 = np.array([tracks[p[side]].pts[-1] for p in pairs], dtype=float).reshape(-1, 2)
        end = np.array([tracks[p[side]].stop for p in pairs], dtype=float)
        length = np.array([tracks[p[side]].cum[-1] for p in pairs], dtype=float)
        speed = np.array([tracks[p[side]].speed for p in pairs], dtype=float)
        scale = np.where(length > 0, speed / np.where(length > 0, length, 1.0), 0.0)  # walking at full pace
        return p0, (p1 - p0) * scale[:, None], end

    pa, va, ta = arrays(0)
    pb, vb, tb = arrays(1)
    t1, t2 = np.minimum(ta, tb), np.maximum(ta, tb)
    r0 = pa - pb
    first = _earliest(r0, va - vb, t1, d)
    r1 = r0 + (va - vb) * t1[:, None]
    v2 = np.where((ta > tb)[:, None], va, -vb)
    second = t1 + _earliest(r1, v2, t2 - t1, d)
    times: FloatArray = np.where(np.isfinite(first), first, second)
    return times


def resolve_moves(
    state: dict[str, Any], paths: dict[str, list[Any]], speeds: dict[str, Any] | None = None
) -> tuple[dict[str, Any], list[Any]]:
    """Final positions {id: [x, y]} of every figure that moved, and contacts [a, b, t, a_moving, b_moving]."""
    figs = state["figures"]
    tracks: dict[str, Track] = {}
    for fid, pts in paths.items():
        f = figs[fid]
        speed = (
            speeds[fid] if speeds and fid in speeds else pace(state["scenario"], f["arm"] if f["st"] == "ok" else "inf")
        )
        tracks[fid] = Track(pts, speed)
    fighters = [fid for fid, f in figs.items() if fighting(f)]
    for fid in fighters:
        if fid not in tracks:
            tracks[fid] = Track([(figs[fid]["x"], figs[fid]["y"])], 1.0)
    contacts = _contacts(figs, tracks, fighters)
    moved = {}
    for fid in paths:
        x, y = tracks[fid].at(1.0)
        moved[fid] = [round(x, 4), round(y, 4)]
    return moved, contacts


def _swept(tracks: dict[str, Track], ids: list[str]) -> NDArray[np.object_]:
    """Each track as one geometry, built in bulk: a line for a mover, a point for a figure standing still."""
    moving = [k for k, i in enumerate(ids) if len(tracks[i].pts) > 1]
    still = [k for k, i in enumerate(ids) if len(tracks[i].pts) == 1]
    geoms = np.empty(len(ids), dtype=object)
    if moving:
        coords = [p for k in moving for p in tracks[ids[k]].pts]
        index = [j for j, k in enumerate(moving) for _ in tracks[ids[k]].pts]
        geoms[moving] = shapely.linestrings(np.asarray(coords, dtype=float), indices=np.asarray(index))
    if still:
        geoms[still] = shapely.points(np.asarray([tracks[ids[k]].pts[0] for k in still], dtype=float))
    return geoms


def _candidates(figs: dict[str, Any], tracks: dict[str, Track], fighters: list[str]) -> list[tuple[str, str]]:
    movers = [k for k, i in enumerate(fighters) if len(tracks[i].pts) > 1]
    if not movers:
        return []
    geoms = _swept(tracks, fighters)
    tree = STRtree(geoms)
    src, dst = tree.query(geoms[movers], predicate="dwithin", distance=2 * MAX_R + CONTACT_GAP)
    side = np.array([figs[i]["side"] == "red" for i in fighters])
    movers_arr = np.asarray(movers)
    keep = side[movers_arr[src]] != side[dst]
    pairs: set[tuple[str, str]] = set()
    for s, k in zip(movers_arr[src[keep]].tolist(), dst[keep].tolist(), strict=True):
        a, b = fighters[s], fighters[k]
        pairs.add((a, b) if a < b else (b, a))
    return sorted(pairs)


def _contacts(figs: dict[str, Any], tracks: dict[str, Track], fighters: list[str]) -> list[Any]:
    pairs = _candidates(figs, tracks, fighters)
    partners: dict[str, list[str]] = {}
    for a, b in pairs:
        partners.setdefault(a, []).append(b)
        partners.setdefault(b, []).append(a)
    version = dict.fromkeys(partners, 0)
    heap: list[Any] = []

    def push(a: str, b: str) -> None:
        d = radius(figs[a]["arm"]) + radius(figs[b]["arm"]) + CONTACT_GAP
        t = first_touch(tracks[a], tracks[b], d)
        if t is not None:
            heapq.heappush(heap, (t, a, b, version[a], version[b]))

    simple = [p for p in pairs if len(tracks[p[0]].pts) <= 2 and len(tracks[p[1]].pts) <= 2]
    if simple:
        d = np.array([radius(figs[a]["arm"]) + radius(figs[b]["arm"]) + CONTACT_GAP for a, b in simple])
        times = _simple_times(tracks, simple, d)
        for (a, b), t in zip(simple, times.tolist(), strict=True):
            if t <= 1.0:
                heap.append((t, a, b, 0, 0))
        heapq.heapify(heap)
    simple_set = set(simple)
    for a, b in pairs:
        if (a, b) not in simple_set:
            push(a, b)
    done = set()
    contacts = []
    while heap:
        t, a, b, va, vb = heapq.heappop(heap)
        if (a, b) in done:
            continue
        if va != version[a] or vb != version[b]:
            continue  # stale: the pair was re-timed when one of them stopped
        done.add((a, b))
        contacts.append([a, b, round(t, 6), tracks[a].moving(t), tracks[b].moving(t)])
        for fid in (a, b):
            if tracks[fid].stop > t:
                tracks[fid].stop = t
                version[fid] += 1
                for other in partners[fid]:
                    pair = (fid, other) if fid < other else (other, fid)
                    if pair not in done:
                        push(*pair)
    return contacts
