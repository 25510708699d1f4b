"""The tabletop: terrain as shapely geometry, legal spots and path lengths around obstacles.

A ``Table`` is derived from a validated scenario and cached by the scenario's
canonical JSON, so the (pure JSON) game state never holds geometry objects and a
replay rebuilds exactly the same table.

Impassable: buildings, walls, rivers (except where a ford or bridge crosses them) and
the trees of a wood (its ``trees``, trunks drawn as octagons). A wood's ground and roads
are open. Figures keep 1/16" from impassable scenery (LW-27), so each arm moves in
the free space left after buffering the obstacles by its footprint radius + 1/16"; a
gap between two obstacles narrower than a footprint is closed ("not wedged into gaps").
Hills are levels (``level``; ``level_at`` gives the ground's level, which the Kriegspiel
appendix uses for sight and slopes). Figures cross a hill's edge freely, but stand either
on the hill or 1/16" clear of its edge, never leaning against its side (LW-27).
Path lengths come from a visibility graph over the vertices of those buffered
obstacles (networkx shortest path), built once per table and arm.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import networkx as nx
from shapely.geometry import LineString, Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union
from shapely.prepared import prep
from shapely.strtree import STRtree

from rules.tabletop.cache import built_per_scenario
from rules.tabletop.points import XY, Coord, Polyline
from rules.tabletop.terrain import terrain_geometry

from .units import EDGE_BAND, SCENERY_GAP, radius

EPS = 0.02  # graph vertices sit this far outside the forbidden zone so paths along them stay legal

BLOCKING = ("building", "wall")  # stop shots and shield from blast (KS-7)


class Table:
    def __init__(self, scenario: dict[str, Any]) -> None:
        t = scenario["table"]
        self.width = float(t["width"])
        self.depth = float(t["depth"])
        self.edges = dict(scenario["edges"])
        self.bounds = box(0, 0, self.width, self.depth)
        self.terrain = [(item, terrain_geometry(item)) for item in scenario.get("terrain", [])]
        crossings = unary_union([g for it, g in self.terrain if it["type"] in ("ford", "bridge")] or [Polygon()])
        blocks: list[BaseGeometry] = []
        water: list[BaseGeometry] = []
        for it, g in self.terrain:
            if it["type"] in BLOCKING:
                blocks.append(g)
            elif it["type"] == "river":
                water.append(g.difference(crossings))
        blocks += water
        self.water = unary_union(water) if water else Polygon()  # rivers away from every ford and bridge
        trees = [
            (it, _trunk(xy, it["trunk"]))
            for it in scenario.get("terrain", [])
            if it["type"] == "wood"
            for xy in it.get("trees", [])
        ]
        self.trees = trees
        blocks += [g for _, g in trees]
        self.obstacles = unary_union(blocks) if blocks else Polygon()
        # trees stop a shot like a wall and shield from blast (KS-7: "walls and other obstacles")
        self.fire_blockers = [g for it, g in self.terrain if it["type"] in BLOCKING] + [g for _, g in trees]
        self.fire_tree = STRtree(self.fire_blockers) if self.fire_blockers else None
        self.hills = [(int(it["level"]), g) for it, g in self.terrain if it["type"] == "hill"]
        self.hill_tree = STRtree([g for _, g in self.hills]) if self.hills else None
        self._free: dict[str, _FreeSpace] = {}
        self._hill_sides: dict[str, tuple[Any, ...]] = {}

    # -- places --------------------------------------------------------------
    def free(self, arm: str) -> _FreeSpace:
        if arm not in self._free:
            r = radius(arm)
            self._free[arm] = _FreeSpace(self.obstacles, r + SCENERY_GAP, box(r, r, self.width - r, self.depth - r))
        return self._free[arm]

    def spot_error(self, arm: str, x: float, y: float, hill_sides: bool = True) -> str | None:
        """Why a figure of ``arm`` cannot be placed at (x, y), or None. ``hill_sides=False`` checks only
        impassable scenery: a figure stopped by contact (LW-33) may stand where it touched."""
        r = radius(arm)
        if not (r <= x <= self.width - r and r <= y <= self.depth - r):
            return f"({x:g}, {y:g}) is off the {self.width:g}x{self.depth:g} in table"
        blocked = self.free(arm).blocking_item(Point(x, y), self.terrain, self.trees)
        if blocked:
            return f"({x:g}, {y:g}) is inside or within 1/16 in of {blocked}"
        hill = self._hill_side(arm, Point(x, y)) if hill_sides else None
        if hill:
            return (
                f"({x:g}, {y:g}) is against the side of hill '{hill}': a figure stands on the hill "
                f"or 1/16 in clear of its edge (LW-27)"
            )
        return None

    def _hill_side(self, arm: str, pt: Point) -> str | None:
        """The id of a hill whose edge the footprint touches or comes within 1/16 in of."""
        if not self.hills:
            return None
        if arm not in self._hill_sides:
            reach = radius(arm) + SCENERY_GAP
            items = [(it["id"], g.exterior) for it, g in self.terrain if it["type"] == "hill"]
            near = prep(unary_union([e for _, e in items]).buffer(reach + 0.01))  # a coarse filter
            self._hill_sides[arm] = (items, near, reach)
        items, near, reach = self._hill_sides[arm]
        if not near.intersects(pt):
            return None
        # "a gap of at least 1/16 in": exactly 1/16 in clear is allowed
        return next((hid for hid, edge in items if edge.distance(pt) < reach - 1e-9), None)

    def level_at(self, x: float, y: float) -> int:
        """The ground's level at (x, y): the highest hill there (0 off the hills)."""
        if self.hill_tree is None:
            return 0
        pt = Point(x, y)
        return max([self.hills[int(i)][0] for i in self.hill_tree.query(pt, predicate="intersects")], default=0)

    def path(self, arm: str, a: Coord, b: Coord) -> list[tuple[float, float]]:
        return self.free(arm).path(a, b)

    # -- edges ---------------------------------------------------------------
    def edge_distance(self, edge: str, x: float, y: float) -> float:
        return {"south": y, "north": self.depth - y, "west": x, "east": self.width - x}[edge]

    def at_edge(self, edge: str, x: float, y: float, arm: str = "inf") -> bool:
        return self.edge_distance(edge, x, y) <= radius(arm) + EDGE_BAND

    def home(self, side: str) -> str:
        result: str = self.edges[side]
        return result

    def shot_blocker(self, a: Coord, b: Coord) -> tuple[float, float] | None:
        """Where a flat shot from a to b first meets a building or wall, or None."""
        if self.fire_tree is None:
            return None
        seg = LineString([a, b])
        hits = self.fire_tree.query(seg, predicate="intersects")
        best = None
        for i in hits:
            inter = seg.intersection(self.fire_blockers[int(i)].boundary)
            for p in _points_of(inter):
                d = math.dist(a, p)
                if d > 1e-9 and (best is None or d < best[0]):
                    best = (d, p)
        return best[1] if best else None

    def shielded(self, a: Coord, b: Coord) -> bool:
        return self.shot_blocker(a, b) is not None


def _trunk(xy: Coord, r: float) -> Polygon:
    # an octagon: round enough for a tree, and few corners for the visibility graph
    return Point(xy).buffer(r, quad_segs=2)


def _points_of(geom: BaseGeometry) -> list[tuple[float, float]]:
    if geom.is_empty:
        return []
    if isinstance(geom, Point):
        return [(geom.x, geom.y)]
    out: list[XY] = []
    for g in getattr(geom, "geoms", [geom]):
        out.extend((float(x), float(y)) for x, y in g.coords)
    return out


class _FreeSpace:
    """Free space for one footprint size: point legality and shortest paths."""

    def __init__(self, obstacles: BaseGeometry, clearance: float, area: BaseGeometry) -> None:
        self.core = obstacles.buffer(clearance) if not obstacles.is_empty else Polygon()
        self.prepared = prep(self.core) if not self.core.is_empty else None
        self.nodes: list[tuple[float, float]] = []
        self.graph: nx.Graph[int | str] = nx.Graph()  # nodes: corner indexes, and "A"/"B" while a path is sought
        if not self.core.is_empty:
            self._build_graph(
                obstacles.buffer(clearance + EPS, join_style="mitre"), area
            )  # mitred: edges stay clear of the round core

    def _build_graph(self, ring_source: BaseGeometry, area: BaseGeometry) -> None:
        polys = getattr(ring_source, "geoms", [ring_source])
        for poly in polys:  # corners off the table are no use: paths stay on it
            self.nodes.extend(
                (float(x), float(y)) for x, y in list(poly.exterior.coords)[:-1] if area.covers(Point(x, y))
            )
        for i, a in enumerate(self.nodes):
            self.graph.add_node(i)
            for j in range(i):
                if self.clear(a, self.nodes[j]):
                    self.graph.add_edge(i, j, weight=math.dist(a, self.nodes[j]))

    def clear(self, a: XY, b: XY) -> bool:
        if self.prepared is None:
            return True
        seg = LineString([a, b]) if a != b else Point(a)
        return not self.prepared.intersects(seg)

    def blocking_item(
        self,
        pt: Point,
        terrain: Iterable[tuple[dict[str, Any], BaseGeometry]],
        trees: Iterable[tuple[dict[str, Any], BaseGeometry]] = (),
    ) -> str | None:
        if self.prepared is None or not self.prepared.intersects(pt):
            return None
        for it, g in terrain:
            if it["type"] in ("building", "wall", "river") and g.distance(pt) <= self.core.distance(pt) + 1.0:
                return f"{it['type']} '{it.get('id', '?')}'"
        for it, g in trees:
            if g.distance(pt) <= self.core.distance(pt) + 1.0:
                return f"a tree of wood '{it.get('id', '?')}'"
        return "impassable scenery"

    def path(self, a: Coord, b: Coord) -> list[tuple[float, float]]:
        """Shortest polyline from a to b in free space ([a, b] when the straight line is clear)."""
        a, b = (float(a[0]), float(a[1])), (float(b[0]), float(b[1]))
        if self.clear(a, b):
            return [a, b]
        g = self.graph
        ends = {"A": a, "B": b}
        for key, p in ends.items():
            g.add_node(key)
            for i, q in enumerate(self.nodes):
                if self.clear(p, q):
                    g.add_edge(key, i, weight=math.dist(p, q))
        try:
            route = nx.shortest_path(g, "A", "B", weight="weight")
        except nx.NetworkXNoPath:
            route = None
        finally:
            g.remove_nodes_from(["A", "B"])
        if route is None:
            return []
        return [a] + [self.nodes[int(n)] for n in route[1:-1]] + [b]  # inner nodes are corner indexes


def path_length(points: Polyline) -> float:
    return sum(math.dist(points[i], points[i + 1]) for i in range(len(points) - 1)) if points else math.inf


def _table_part(scenario: dict[str, Any]) -> dict[str, Any]:
    return {k: scenario[k] for k in ("table", "edges", "terrain") if k in scenario}


table_of = built_per_scenario(Table, _table_part, maxsize=32)  # the Table of a validated scenario
