"""Movement rates, slopes, roads, fords and task times of the appendix (KS-15..39, KS-87).

Decisions (RULES.md, "Movement"):
- A move's COST is its horizontal length, plus 1 ft for every level climbed (KS-23)
  and 1/2 ft for every level descended (KS-24); it must not exceed the allowance.
- Roads: infantry and cavalry in column of twos or fours move half as much again
  when the whole path lies on a road (KS-17); transport and the general use their
  road rates only when the whole path is on a road (KS-20, KS-21).
- Steep ground (KS-25): wherever the path climbs or descends 4 levels within one
  horizontal foot it is impassable, unless that part of the path is on a road. The
  seed says this for everyone, the default; the English original limits it to wheels
  (artillery, transport, the general's car), the per-game choice ``steep_slopes: "wheels"``.
  Version 4 (``on_ground``): the slope is steep where the ground is, whatever the angle
  the path takes across it: a path is also barred where it changes level at a point
  whose ground within half a foot (a disc one foot across) spans 4 levels or more; before
  it, only the path's own rise was measured, so a path slanting across a steep slope
  (the contours farther apart along it) climbed it.
- Fording takes a whole turn (KS-26, KS-30): a path that crosses a ford is legal only
  if it does nothing else: it starts and ends within FORD_REACH (2 in) of the ford; artillery, engineers,
  transport and the general's car cannot ford at all (KS-34, KS-37, KS-39).
- Half-turn tasks (forming, limbering) use half the turn and so half the allowance;
  whole-turn tasks (mounting, dismounting) leave no movement (KS-27, KS-31..33).
- Boats move only on water (a river), trains only along a railway (KS-22, KS-87).
- No unit moves and fires in the same turn (KS-35): checked by ``move_and_fire``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from itertools import pairwise
from typing import Any

import numpy as np
import shapely
from shapely.geometry import LineString, Point
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from rules.core.i18n import _
from rules.littlewars.scenario import home_vector
from rules.littlewars.table import path_length, table_of
from rules.littlewars.units import radius
from rules.tabletop.cache import built_per_scenario
from rules.tabletop.points import Coord, Polyline
from rules.tabletop.terrain import terrain_geometry, terrain_of

from .numbers import (
    CANNOT_FORD,
    CLIMB_COST,
    COLUMN_ARMS,
    COLUMN_ROAD_FACTOR,
    DESCENT_COST,
    FOOT,
    HALF,
    MOVE,
    ROAD_MOVE,
    STEEP_LEVELS_PER_FOOT,
)

SAMPLE = 0.25  # the path is sampled every 1/4 in to find level changes
STEEP_REACH = FOOT / 2  # version 4 (KS-25): the ground round a point, one horizontal foot across
FORD_REACH = 2.0  # a fording move starts and ends within 2 in of the ford: the crossing and nothing else


class MoveError(ValueError):
    """A move the appendix forbids; the message says which rule."""


class Ground:
    """Levels, roads, fords, water and rails of one scenario."""

    def __init__(self, terrain: list[dict[str, Any]]) -> None:
        geoms = [(it, terrain_geometry(it)) for it in terrain]
        self.hills = [(int(it.get("level", 1)), g) for it, g in geoms if it["type"] == "hill"]
        self.road = unary_union([g for it, g in geoms if it["type"] in ("road", "bridge")] or [Point()])
        self.ford = unary_union([g for it, g in geoms if it["type"] == "ford"] or [Point()])
        self.water = unary_union([g for it, g in geoms if it["type"] == "river"] or [Point()])
        self.rail = unary_union([g for it, g in geoms if it["type"] == "railway"] or [Point()])
        # slightly grown once, so a path drawn along an edge counts as on it
        self._grown = {id(a): a.buffer(1e-6) for a in (self.road, self.ford, self.water, self.rail) if not a.is_empty}
        for g in self._grown.values():
            shapely.prepare(g)
        self.hill_bounds = unary_union([g for _, g in self.hills]).bounds if self.hills else None
        for _level, g in self.hills:
            shapely.prepare(g)

    @functools.cached_property
    def _reach(self) -> list[tuple[BaseGeometry, BaseGeometry]]:
        """For each level k from 1: the ground within STEEP_REACH of some ground of level k or more, and
        the ground all of whose surroundings within STEEP_REACH are of level k or more."""
        out: list[tuple[BaseGeometry, BaseGeometry]] = []
        for k in range(1, max((lv for lv, _g in self.hills), default=0) + 1):
            high = unary_union([g for lv, g in self.hills if lv >= k])
            near, within = high.buffer(STEEP_REACH), high.buffer(-STEEP_REACH)
            shapely.prepare(near)
            shapely.prepare(within)
            out.append((near, within))
        return out

    def span(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """Version 4 (KS-25): how many levels the ground within STEEP_REACH of each point spans (its
        highest level less its lowest), in bulk."""
        top = np.zeros(len(xs), dtype=int)
        bottom = np.zeros(len(xs), dtype=int)
        for k, (near, within) in enumerate(self._reach, start=1):
            top = np.where(shapely.intersects_xy(near, xs, ys), k, top)
            if not within.is_empty:
                bottom = np.where(shapely.intersects_xy(within, xs, ys), k, bottom)
        return top - bottom

    def level(self, x: float, y: float) -> int:
        return int(self.levels(np.array([x]), np.array([y]))[0])

    def levels(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """The level at each point: the highest hill containing it (0 on the flat), in bulk."""
        out = np.zeros(len(xs), dtype=int)
        for lv, g in self.hills:
            out = np.where(shapely.intersects_xy(g, xs, ys), np.maximum(out, lv), out)
        return out

    def on(self, area: BaseGeometry, path: Polyline) -> bool:
        if area.is_empty:
            return False
        return self._grown[id(area)].covers(LineString(path) if len(path) > 1 else Point(path[0]))


ground_of = built_per_scenario(Ground, terrain_of)  # the Ground of a scenario's terrain, built once


def allowance(arm: str, *, road: bool = False, column: bool = False, half_turns: int = 0) -> float:
    """Inches a figure of ``arm`` may cover this turn (KS-15..22, KS-87), after ``half_turns`` of tasks."""
    if arm not in MOVE:
        raise MoveError(_("unknown kind of unit {arm}", arm=repr(arm)))
    base = ROAD_MOVE.get(arm, MOVE[arm]) if road else MOVE[arm]
    if road and column and arm in COLUMN_ARMS:
        base *= COLUMN_ROAD_FACTOR
    left = max(0, 2 - half_turns)
    return base * left / 2.0


def task_half_turns(task: str) -> int:
    """Half turns a task takes (T-KS-2)."""
    try:
        return HALF[task]
    except KeyError:
        raise MoveError(_("unknown task {task}: tasks are {HALF}", task=repr(task), HALF=", ".join(HALF))) from None


def climb(ground: Ground, path: Polyline, on_ground: bool = False) -> tuple[int, int, bool]:
    """(levels up, levels down, steep off road) along ``path``, sampled every SAMPLE inch; ``on_ground``
    (version 4): the steepness of the ground where the path changes level counts too (KS-25)."""
    if ground.hill_bounds is None or not _near(path, ground.hill_bounds):
        return 0, 0, False  # nowhere near a hill: flat all the way
    pts = _samples(path)
    arr = np.asarray(pts, dtype=float)
    levels = ground.levels(arr[:, 0], arr[:, 1]).tolist()
    up = sum(max(0, b - a) for a, b in pairwise(levels))
    down = sum(max(0, a - b) for a, b in pairwise(levels))
    steep = _steep(ground, pts, levels) or (on_ground and _steep_ground(ground, pts, levels))
    return up, down, steep


def _near(path: Polyline, bounds: tuple[float, float, float, float]) -> bool:
    xs, ys = [p[0] for p in path], [p[1] for p in path]
    return not (max(xs) < bounds[0] or min(xs) > bounds[2] or max(ys) < bounds[1] or min(ys) > bounds[3])


def _samples(path: Polyline) -> list[tuple[float, float]]:
    out = [(path[0][0], path[0][1])]
    for a, b in pairwise(path):
        n = max(1, math.ceil(math.dist(a, b) / SAMPLE))
        out += [(a[0] + (b[0] - a[0]) * k / n, a[1] + (b[1] - a[1]) * k / n) for k in range(1, n + 1)]
    return out


def _steep(ground: Ground, pts: Polyline, levels: Sequence[int]) -> bool:
    """Does the path change 4 levels within one horizontal foot anywhere off the road?"""
    cum = [0.0]
    for a, b in pairwise(pts):
        cum.append(cum[-1] + math.dist(a, b))
    j = 0
    for i in range(len(pts)):
        while cum[i] - cum[j] > FOOT + 1e-9:
            j += 1
        window = levels[j : i + 1]
        if max(window) - min(window) >= STEEP_LEVELS_PER_FOOT:
            seg = pts[j : i + 1] if i > j else [pts[i]]
            if not ground.on(ground.road, seg):
                return True
    return False


def _steep_ground(ground: Ground, pts: Polyline, levels: Sequence[int]) -> bool:
    """Version 4 (KS-25): does the path change level, off the road, where the ground within half a foot
    spans 4 levels or more (a slope of 4 levels to the horizontal foot, at whatever angle it is crossed)?"""
    steps = [i for i in range(len(levels) - 1) if levels[i] != levels[i + 1]]
    if not steps:
        return False
    mid = np.array([((pts[i][0] + pts[i + 1][0]) / 2, (pts[i][1] + pts[i + 1][1]) / 2) for i in steps], dtype=float)
    span = ground.span(mid[:, 0], mid[:, 1])
    return any(
        n >= STEEP_LEVELS_PER_FOOT and not ground.on(ground.road, [pts[i], pts[i + 1]])
        for i, n in zip(steps, span.tolist(), strict=True)
    )


WHEELS = ("art", "transport", "general")  # KS-25 in the English original: wheels only


def steep_bars(scenario: dict[str, Any], arm: str) -> bool:
    """Whether KS-25's steep slopes bar ``arm`` in this game: everyone (the seed, the default) or, with
    the scenario's ``kriegspiel.steep_slopes: "wheels"``, only wheels (the English original)."""
    rule = (scenario.get("kriegspiel") or {}).get("steep_slopes", "everyone")
    return rule == "everyone" or arm in WHEELS


def cost(
    ground: Ground,
    arm: str,
    path: Polyline,
    *,
    column: bool = False,
    half_turns: int = 0,
    steep_bars: bool = True,
    on_ground: bool = False,
) -> tuple[float, float]:
    """(cost of ``path`` in inches, allowance) for a figure of ``arm``; raises MoveError if forbidden.
    ``steep_bars``: KS-25 applies to this arm in this game (``steep_bars(scenario, arm)``); ``on_ground``:
    the slope is judged on the ground, whatever the angle (version 4, ``climb``)."""
    length = sum(math.dist(a, b) for a, b in pairwise(path))
    _medium(ground, arm, path)
    up, down, steep = climb(ground, path, on_ground)
    if steep and steep_bars:
        raise MoveError(
            _(
                "the slope is too steep: {STEEP_LEVELS_PER_FOOT} levels in a foot is impassable off the road (KS-25)",
                STEEP_LEVELS_PER_FOOT=STEEP_LEVELS_PER_FOOT,
            )
        )
    if len(path) > 1 and not ground.ford.is_empty and LineString(path).intersects(ground.ford):
        if arm in CANNOT_FORD:
            raise MoveError(_("{name} cannot cross rivers (KS-34, KS-37, KS-39)", name=arm_name(arm)))
        ends = max(ground.ford.distance(Point(path[0])), ground.ford.distance(Point(path[-1])))
        if ends > FORD_REACH + 1e-9 or half_turns:
            raise MoveError(
                _(
                    "fording takes the whole turn (KS-26, KS-30): start and end within {FORD_REACH:g} in of the ford, with no other task",
                    FORD_REACH=FORD_REACH,
                )
            )
    road = len(path) > 1 and ground.on(ground.road, path)
    limit = allowance(arm, road=road, column=column, half_turns=half_turns)
    return length + up * CLIMB_COST + down * DESCENT_COST, limit


def _medium(ground: Ground, arm: str, path: Polyline) -> None:
    if arm == "boat" and not ground.on(ground.water, path):
        raise MoveError(_("boats move on water only (KS-22)"))
    if arm == "train" and not ground.on(ground.rail, path):
        raise MoveError(_("trains move along the railway only (KS-87)"))


def check(ground: Ground, arm: str, path: Polyline, **kw: Any) -> float:
    """The cost of a legal move; MoveError naming the rule otherwise."""
    c, limit = cost(ground, arm, path, **kw)
    if c > limit + 1e-9:
        raise MoveError(
            _(
                "out of range: the move costs {value:.2f} ft (climbing 1 ft a level, descending 1/2 ft; KS-23/24) "
                "and {name} may cover {value2:.2f} ft this turn",
                value=c / FOOT,
                name=arm_name(arm),
                value2=limit / FOOT,
            )
        )
    return c


def way_home(state: dict[str, Any], side: str, xy: Coord, step: float, arm: str) -> list[Any]:
    """The way ``step`` inches straight towards ``side``'s own edge from ``xy`` (kept on the table), round
    the scenery; [] where no way that short exists (falling back, withdrawing, pursued: KS-73/80/84/86)."""
    table = table_of(state["scenario"])
    vx, vy = home_vector(state["scenario"], side)
    dest = (min(max(xy[0] + vx * step, 0.5), table.width - 0.5), min(max(xy[1] + vy * step, 0.5), table.depth - 0.5))
    pts = table.path(arm, tuple(xy), dest)
    return pts if pts and path_length(pts) <= step + 1e-6 else []


def leaves_table(state: dict[str, Any], side: str, xy: Coord, step: float, arm: str) -> bool:
    """Version 3 (KS-81): ``step`` inches straight towards ``side``'s own edge from ``xy`` would take the
    figure's footprint off the table (as a charge's push tells it, charge.push): it is destroyed."""
    table = table_of(state["scenario"])
    vx, vy = home_vector(state["scenario"], side)
    x, y, r = xy[0] + vx * step, xy[1] + vy * step, radius(arm)
    return not (r <= x <= table.width - r and r <= y <= table.depth - r)


def river_behind(state: dict[str, Any], side: str, xy: Coord, step: float) -> bool:
    """Version 4 (KS-81): the way ``step`` inches straight towards ``side``'s own edge from ``xy`` crosses
    a river away from every ford and bridge (all the table's crossings together, as a charge's push
    tells it, charge.push). A pursued figure with no way round it within its pace (``way_home``) could
    withdraw only across the river: it is destroyed."""
    table = table_of(state["scenario"])
    if table.water.is_empty:
        return False
    vx, vy = home_vector(state["scenario"], side)
    return bool(LineString([tuple(xy), (xy[0] + vx * step, xy[1] + vy * step)]).intersects(table.water))


def move_and_fire(moved: set[str], fired: set[str]) -> list[str]:
    """KS-35: units ordered both to move and to fire this turn."""
    return sorted(moved & fired)


def arm_name(arm: str) -> str:
    return {
        "inf": "infantry",
        "cav": "cavalry",
        "eng": "Royal Engineers",
        "art": "artillery",
        "transport": "transport",
        "general": "the general's car",
        "boat": "a boat",
        "train": "a train",
    }.get(arm, arm)
