"""Terrain, heights, line of sight and cover (KW-10..22, KW-29..35).

Terrain pieces are scenario data (KW-10, KW-17): ``{"id", "kind", "polygon" | "line"+"width",
"height"}`` with kind one of ``KINDS`` and height in inches (a hill gives ``level``). Their
shapes come from Little Wars' ``terrain_geometry`` (the same polygon / buffered-line format),
and a built ``Battlefield`` is cached per scenario with Little Wars' ``built_per_scenario``.

Line of sight and cover follow the digest's model A: lines from the shooter's leader point
to ``SAMPLES`` points spread along the side of the target that faces the shooter. Each
terrain piece or unit a line crosses either blocks it, obscures it (gives cover) or is
ignored, by the height rules written out in ``_effect``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.strtree import STRtree

from rules.tabletop.cache import built_per_scenario
from rules.tabletop.terrain import terrain_geometry

from . import geom
from .version import RULES_VERSION, scenario_version

KINDS = ("impassable", "difficult", "obstacle", "decorative", "hill")
SAMPLES = 21  # sight lines per target side; 1/21 of the side each
DOUBT_BAND = (0.45, 0.55)  # obscured fraction settled by the KW-35 roll (4+ = not in cover)
LARGE_GAP = 3  # KW-34: things at least 3 levels lower than the target give it no cover
OBSTACLE_IMPASSABLE = 1.0  # KW-15: obstacles 1 in or taller are impassable (ambiguity 2: the text, >=)


def level_of(item: dict[str, Any]) -> int:
    """KW-17 / KW-EX-4: one inch of height is one level (rounded half up); a hill gives its level."""
    if item["kind"] == "hill":
        return int(item["level"])
    return int(math.floor(float(item.get("height", 0)) + 0.5))


@dataclass(frozen=True)
class Piece:
    id: str
    kind: str
    level: int
    shape: Polygon
    impassable: bool  # to movement: impassable pieces and obstacles 1 in or taller (KW-15)

    @property
    def hinders(self) -> bool:
        """KW-49: difficult terrain and obstacles hinder a charge (and stop At the Double, KW-13/14)."""
        return self.kind in ("difficult", "obstacle")


def piece_of(item: dict[str, Any]) -> Piece:
    """A terrain piece. An obstacle 1 in or taller stops movement (KW-15) but stays an obstacle
    for sight and cover: it never blocks sight and is height 1 for cover (KW-18)."""
    kind = item["kind"]
    tall = kind == "obstacle" and float(item.get("height", 0)) >= OBSTACLE_IMPASSABLE
    level = 1 if kind == "obstacle" else level_of(item)
    return Piece(str(item["id"]), kind, level, terrain_geometry(item), kind == "impassable" or tall)


class Battlefield:
    """The table of a scenario: its bounds and terrain pieces, with spatial indexes."""

    def __init__(self, part: dict[str, Any]) -> None:
        self.width = float(part["table"]["width"])
        self.depth = float(part["table"]["depth"])
        self.bounds = box(0, 0, self.width, self.depth)
        self.pieces = [piece_of(it) for it in part.get("terrain", [])]
        self.tree = STRtree([p.shape for p in self.pieces]) if self.pieces else None
        for p in self.pieces:
            shapely.prepare(p.shape)

    def blocking(self, shape: BaseGeometry) -> list[Piece]:
        """Pieces no unit may stand on or move through that overlap ``shape``."""
        return [p for p in self.touching(shape) if p.impassable and p.shape.intersection(shape).area > 1e-6]

    def touching(self, shape: BaseGeometry, kinds: Iterable[str] | None = None) -> list[Piece]:
        if self.tree is None:
            return []
        hit = [self.pieces[int(i)] for i in self.tree.query(shape, predicate="intersects")]
        return [p for p in sorted(hit, key=lambda p: p.id) if kinds is None or p.kind in kinds]

    def ground_level(self, shape: BaseGeometry) -> int:
        """KW-22: the level of the hill under most of ``shape`` (0 if none)."""
        area = shape.area
        return max(
            [p.level for p in self.touching(shape, ("hill",)) if p.shape.intersection(shape).area > area / 2], default=0
        )

    def height(self, u: dict[str, Any]) -> int:
        """A unit's height plus the hill it stands on (KW-22, KW-EX-2)."""
        return int(u["h"]) + self.ground_level(geom.base(u))

    def off_table(self, shape: BaseGeometry) -> bool:
        """KW-12: the table edge counts as impassable."""
        x0, y0, x1, y1 = shape.bounds
        t = geom.TIE
        return bool(x0 < -t or y0 < -t or x1 > self.width + t or y1 > self.depth + t)

    def in_cover_ground(self, shape: BaseGeometry) -> bool:
        """KW-33, first case: at least half the base is in difficult terrain."""
        inside = sum(p.shape.intersection(shape).area for p in self.touching(shape, ("difficult",)))
        return bool(inside >= shape.area / 2 - 1e-9)


def _part(scenario: dict[str, Any]) -> dict[str, Any]:
    return {k: scenario[k] for k in ("table", "terrain") if k in scenario}


battlefield_of = built_per_scenario(Battlefield, _part, maxsize=16)


@dataclass(frozen=True)
class Sight:
    los: bool
    side: str  # the side of the target the shooter sees (KW-30)
    obscured: float  # fraction of that side's sight lines blocked or passing through cover
    ground_cover: bool  # KW-33 first case
    doubtful: bool  # KW-35 applies

    @property
    def cover(self) -> bool | None:
        """True / False, or None when only the KW-35 roll can tell."""
        if self.ground_cover:
            return True
        if self.doubtful:
            return None
        return self.obscured >= 0.5


def sighter_for(state: dict[str, Any], units: dict[str, Any]) -> Sighter:
    """A Sighter over ``units`` with the scenario's sight and arc options and the game's rules version."""
    sc = state["scenario"]
    return Sighter(
        battlefield_of(sc), units, sc.get("block_rule", "both"), sc.get("arcs", "corner45"), scenario_version(sc)
    )


class Sighter:
    """Sight queries over one position of all units (an STRtree of their bases), by the rules of
    ``version`` (KW-19 changed in version 2: ``_height_effect``)."""

    def __init__(
        self,
        field: Battlefield,
        units: dict[str, Any],
        block_rule: str = "both",
        arcs: str = "corner45",
        version: int = RULES_VERSION,
    ):
        if block_rule not in ("both", "either"):
            raise ValueError("block_rule is 'both' (a blocker must be higher than both ends) or 'either'")
        self.field, self.units, self.block_rule, self.arcs = field, units, block_rule, arcs
        self.version = version
        self.ids = sorted(units)
        self.index = {uid: k for k, uid in enumerate(self.ids)}
        self.bases = [geom.base(units[i]) for i in self.ids]
        self.tree = STRtree(self.bases) if self.bases else None
        self._height: dict[str, int] = {}

    def height(self, uid: str) -> int:
        if uid not in self._height:
            self._height[uid] = self.field.height(self.units[uid])
        return self._height[uid]

    def sight(self, sid: str, tid: str) -> Sight:
        s, t = self.units[sid], self.units[tid]
        sbase, tbase = self.bases[self.index[sid]], self.bases[self.index[tid]]
        side = geom.arc_of(t, (s["x"], s["y"]), self.arcs)
        a, b = geom.side_segment(t, side)
        frac = (np.arange(SAMPLES) + 0.5) / SAMPLES
        ends = np.array(a) + np.outer(frac, np.subtract(b, a))
        lines = shapely.linestrings([[(s["x"], s["y"]), tuple(e)] for e in ends.tolist()])
        fan = box(*shapely.bounds(shapely.multipoints([(s["x"], s["y"]), a, b])))  # a superset: lines test exactly
        hs, ht = self.height(sid), self.height(tid)
        hill = self.field.ground_level(sbase)
        blocked = np.zeros(SAMPLES, bool)
        obscured = np.zeros(SAMPLES, bool)
        for shape, effect in self._crossing(fan, sid, tid, sbase, tbase, hs, ht, hill):
            hit = shapely.intersects(lines, shape)
            (blocked if effect == "block" else obscured)[hit] = True
        los = not blocked.all()
        share = float((blocked | obscured).sum()) / SAMPLES
        ground = self.field.in_cover_ground(tbase)
        doubtful = not ground and DOUBT_BAND[0] <= share <= DOUBT_BAND[1]
        return Sight(los, side, share, ground, doubtful)

    def _crossing(
        self, fan: BaseGeometry, sid: str, tid: str, sbase: Polygon, tbase: Polygon, hs: int, ht: int, hill: int
    ) -> Iterator[tuple[BaseGeometry, str]]:
        """(shape, "block" | "cover") for everything between shooter and target."""
        for p in self.field.touching(fan):
            effect = _terrain_effect(p, sbase, tbase, hs, ht, hill, self.block_rule, self.version)
            if effect:
                yield p.shape, effect
        if self.tree is None:
            return
        for k in sorted(int(i) for i in self.tree.query(fan, predicate="intersects")):
            uid = self.ids[k]
            if uid in (sid, tid):
                continue
            effect = _height_effect(self.height(uid), hs, ht, hill, self.block_rule, self.version)
            if effect:
                yield self.bases[k], effect


def _terrain_effect(
    p: Piece, sbase: Polygon, tbase: Polygon, hs: int, ht: int, hill: int, rule: str, version: int
) -> str | None:
    if p.kind == "decorative":
        return None  # KW-16
    s_in, t_in = p.shape.intersects(sbase), p.shape.intersects(tbase)
    if p.kind == "hill" and (s_in or t_in):
        return None  # a hill does not hide what stands on it (house)
    if s_in and not t_in:
        return None  # KW-31 (and KW-21: a unit partly in a wood sees out of it)
    if p.kind == "difficult" and t_in:
        return None  # KW-21: a wood hides nothing inside it; its cover is KW-33's half-base rule
    if p.kind == "obstacle":
        # KW-18: never blocks sight; height 1 for cover (KW-32 hill, KW-34 large targets)
        return None if (hill and p.level <= hill) or ht - p.level >= LARGE_GAP else "cover"
    return _height_effect(p.level, hs, ht, hill, rule, version)


def _height_effect(h: int, hs: int, ht: int, hill: int, rule: str, version: int) -> str | None:
    """KW-19/32/33/34 for a thing of height ``h`` (terrain or a unit: KW-19, terrain blocks "as a
    unit of the same height would") between a shooter ``hs`` and a target ``ht``.

    Blocks when higher than both ends (``rule='both'``, ambiguity 3) or than either end: KW-EX-3,
    a wall of 2 or more blocks sight between two height-1 units, so a wall (or unit) of 1 does
    not. Version 1 (0.2.0) blocked when at least as high. Otherwise it gives cover (KW-33,
    ambiguity 4; from version 2 also a thing as high as the ends), except to a target at least 3
    levels higher (KW-34, ambiguity 5) or when the shooter on a hill looks over it (KW-32: height
    equal to or lower than the hill)."""
    if hill and h <= hill:
        return None
    end = max(hs, ht) if rule == "both" else min(hs, ht)
    if (h >= end) if version < 2 else (h > end):
        return "block"
    if ht - h >= LARGE_GAP:
        return None
    return "cover"


def point_of(u: dict[str, Any]) -> Point:
    return Point(u["x"], u["y"])
