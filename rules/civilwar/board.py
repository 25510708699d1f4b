"""The map: cities and roads as points, validated into plain JSON and a graph.

Every city and every road is a point (CW-2). The graph is bipartite: a road
point is adjacent to exactly the two cities it joins, a city point to every
road leaving it. Straight "lines" (for breakthroughs, CW-19) are a drawing
property, so the map lists them explicitly as ordered point sequences.

``load_map`` validates a raw scenario dict and returns a normalised copy
(upper-case ids); ``derive_board`` turns that into the lookup tables the rules
use (adjacency, point kinds, lines, line steps), all plain JSON so they can
live in the state and be shared by reference between states.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from functools import lru_cache
from itertools import pairwise
from pathlib import Path
from typing import Any

import networkx as nx

from rules.core.battles import PLACE_KINDS
from rules.core.protocol import ScenarioError

SIDES = ("red", "blue")
DEFAULT_MAX_UNITS = 30  # CW-5: the box holds 30 counters a side
MAP_DIR = Path(__file__).with_name("maps")
ID_RE = re.compile(r"^[A-Z][A-Z0-9_]*$")
_TOP_KEYS = {"name", "title", "cities", "roads", "lines", "max_units", "description", "battles"}
# The ground a battle at a point is fought on (rules/core/battles.py PLACE_KINDS; version 2): a city is a
# town and a road open ground unless the map says otherwise.
TERRAIN_DEFAULT = {"city": "town", "road": "open"}


def other(side: str) -> str:
    return "blue" if side == "red" else "red"


@lru_cache(maxsize=8192)  # a map's few hundred ids, sorted on every view a player polls
def natural_key(point_id: str) -> tuple[Any, ...]:
    """Sort C2 before C10: digit runs compare as numbers."""
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", point_id))


def natural_sorted(ids: Iterable[str]) -> list[str]:
    return sorted(ids, key=natural_key)


@lru_cache(maxsize=1)
def _default_map_text() -> str:
    return (MAP_DIR / "default.json").read_text(encoding="utf-8")


def default_map() -> dict[str, Any]:
    """A fresh copy of the raw default map (20 cities)."""
    data: dict[str, Any] = json.loads(_default_map_text())
    return data


def _err(msg: str) -> ScenarioError:
    return ScenarioError(msg)


def _norm_id(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _err(f"{what}: id must be a non-empty string, got {value!r}")
    ident = value.strip().upper()
    if not ID_RE.match(ident):
        raise _err(f"{what}: id {value!r} must start with a letter and use only letters, digits and '_'")
    return ident


def _number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _err(f"{what} must be a number, got {value!r}")
    return value


def load_map(raw: Any) -> dict[str, Any]:
    """Validate ``raw`` (a scenario dict, or None for the default map).

    Returns a new normalised dict; raises ScenarioError naming the exact problem.
    """
    if raw is None:
        raw = default_map()
    if not isinstance(raw, dict):
        raise _err(f"scenario must be a JSON object, got {type(raw).__name__}")
    unknown = set(raw) - _TOP_KEYS
    if unknown:
        raise _err(f"unknown scenario key(s): {', '.join(sorted(unknown))} (allowed: {', '.join(sorted(_TOP_KEYS))})")
    name = raw.get("name", "custom map")
    if not isinstance(name, str):
        raise _err("scenario name must be a string")
    max_units = raw.get("max_units", DEFAULT_MAX_UNITS)
    if isinstance(max_units, bool) or not isinstance(max_units, int) or max_units < 1:
        raise _err(f"max_units must be a positive integer, got {max_units!r}")

    seen: dict[str, str] = {}

    def entry(item: Any, i: int, what: str, keys: set[str], needs: str) -> str:
        """The id of the i-th ``what`` after the checks every entry gets: an object, an id no
        other entry has, no keys but ``keys``."""
        if not isinstance(item, dict):
            raise _err(f"{what} #{i} must be an object with {needs}")
        ident = _norm_id(item.get("id"), f"{what} #{i}")
        if ident in seen:
            raise _err(f"duplicate id {ident}: used by {seen[ident]} and by {what} #{i}")
        seen[ident] = f"{what} #{i}"
        extra = set(item) - keys
        if extra:
            raise _err(f"{what} {ident}: unknown key(s) {', '.join(sorted(extra))}")
        return ident

    cities_raw = raw.get("cities")
    if not isinstance(cities_raw, list) or not cities_raw:
        raise _err("scenario needs a non-empty list 'cities'")
    cities = []
    for i, c in enumerate(cities_raw, 1):
        cid = entry(c, i, "city", {"id", "name", "x", "y", "terrain"}, "id, x, y")
        cname = c.get("name", cid)
        if not isinstance(cname, str):
            raise _err(f"city {cid}: name must be a string")
        if "x" not in c or "y" not in c:
            raise _err(f"city {cid}: needs drawing coordinates x and y")
        city = {
            "id": cid,
            "name": cname,
            "x": _number(c["x"], f"city {cid}: x"),
            "y": _number(c["y"], f"city {cid}: y"),
        }
        cities.append(_with_terrain(city, c, f"city {cid}"))
    if len(cities) % 2 or len(cities) < 2:
        raise _err(
            f"the map has {len(cities)} cities; it needs an even number (at least 2) because one sympathy "
            f"token is dealt per city, half red and half blue (the standard game: 20 cities, 20 tokens)"
        )
    city_ids = {c["id"] for c in cities}

    roads_raw = raw.get("roads")
    if not isinstance(roads_raw, list) or not roads_raw:
        raise _err("scenario needs a non-empty list 'roads'")
    roads = []
    for i, r in enumerate(roads_raw, 1):
        rid = entry(r, i, "road", {"id", "joins", "x", "y", "terrain"}, "id and joins")
        joins = r.get("joins")
        if not isinstance(joins, list) or len(joins) != 2:
            raise _err(f"road {rid}: 'joins' must list exactly two cities, got {joins!r}")
        ends = [_norm_id(j, f"road {rid}") for j in joins]
        for e in ends:
            if e not in city_ids:
                raise _err(f"road {rid}: unknown city {e}")
        if ends[0] == ends[1]:
            raise _err(f"road {rid}: must join two different cities, both ends are {ends[0]}")
        road: dict[str, Any] = {"id": rid, "joins": ends}
        if ("x" in r) != ("y" in r):
            raise _err(f"road {rid}: give both x and y or neither")
        if "x" in r:
            road["x"] = _number(r["x"], f"road {rid}: x")
            road["y"] = _number(r["y"], f"road {rid}: y")
        roads.append(_with_terrain(road, r, f"road {rid}"))

    graph = build_graph_from(cities, roads)
    if not nx.is_connected(graph):
        comps = sorted(
            (natural_sorted(n for n in comp if n in city_ids) for comp in nx.connected_components(graph)),
            key=len,
            reverse=True,
        )
        first = comps[0][0] if comps[0] else "?"
        stranded = comps[1][0] if comps[1] else "?"
        raise _err(f"the map is not connected: {stranded} cannot be reached from {first}")

    lines_raw = raw.get("lines", [])
    if not isinstance(lines_raw, list):
        raise _err("'lines' must be a list")
    lines = []
    step_owner: dict[tuple[str, str], str] = {}
    for i, ln in enumerate(lines_raw, 1):
        lid = entry(ln, i, "line", {"id", "points"}, "id and points")
        pts_raw = ln.get("points")
        if not isinstance(pts_raw, list) or len(pts_raw) < 3:
            raise _err(f"line {lid}: 'points' must list at least 3 points (city, road, city)")
        pts = [_norm_id(p, f"line {lid}") for p in pts_raw]
        for p in pts:
            if p not in graph:
                raise _err(f"line {lid}: unknown point {p}")
        if len(set(pts)) != len(pts):
            dup = next(p for p in pts if pts.count(p) > 1)
            raise _err(f"line {lid}: point {dup} appears twice; a straight line cannot revisit a point")
        for a, b in pairwise(pts):
            ka, kb = graph.nodes[a]["kind"], graph.nodes[b]["kind"]
            if ka == kb:
                raise _err(f"line {lid}: {a} and {b} are both {ka}s; a line must alternate city and road")
            if not graph.has_edge(a, b):
                road_id, city_id = (a, b) if ka == "road" else (b, a)
                raise _err(f"line {lid}: road {road_id} does not lead to city {city_id}")
            key = (a, b) if a <= b else (b, a)
            if key in step_owner:
                raise _err(
                    f"line {lid}: the step {a}-{b} is already part of line {step_owner[key]}; "
                    f"straight lines may not overlap (merge them into one line)"
                )
            step_owner[key] = lid
        lines.append({"id": lid, "points": pts})

    out = {"name": name, "cities": cities, "roads": roads, "lines": lines, "max_units": max_units}
    if isinstance(raw.get("title"), str):
        out["title"] = raw["title"]
    if "battles" in raw:
        if not isinstance(raw["battles"], bool):
            raise _err(f"battles must be true or false, got {raw['battles']!r}")
        if raw["battles"]:  # only a game that fights them records it (version 2's flag)
            out["battles"] = True
    return out


def _with_terrain(point: dict[str, Any], raw: dict[str, Any], what: str) -> dict[str, Any]:
    """``point`` with the map's ``terrain`` for it, when given and one of PLACE_KINDS."""
    if "terrain" not in raw:
        return point
    if raw["terrain"] not in PLACE_KINDS:
        raise _err(f"{what}: terrain must be one of {', '.join(PLACE_KINDS)}, got {raw['terrain']!r}")
    return {**point, "terrain": raw["terrain"]}


def place_of(board: dict[str, Any], point: str) -> dict[str, str]:
    """The battle place at ``point``: its id, the name shown and the ground (rules/core/battles.py)."""
    sc = board["scenario"]
    entry = next(e for e in [*sc["cities"], *sc["roads"]] if e["id"] == point)
    kind = entry.get("terrain", TERRAIN_DEFAULT[board["kind"][point]])
    return {"id": point, "name": entry.get("name", point), "kind": kind}


def build_graph_from(cities: list[dict[str, Any]], roads: list[dict[str, Any]]) -> nx.Graph[str]:
    graph: nx.Graph[str] = nx.Graph()
    for c in cities:
        graph.add_node(c["id"], kind="city")
    for r in roads:
        graph.add_node(r["id"], kind="road")
        for end in r["joins"]:
            graph.add_edge(r["id"], end)
    return graph


def build_graph(scenario: dict[str, Any]) -> nx.Graph[str]:
    """The bipartite city–road graph of a validated scenario (node attr ``kind``)."""
    return build_graph_from(scenario["cities"], scenario["roads"])


def derive_board(scenario: dict[str, Any]) -> dict[str, Any]:
    """Plain-JSON lookup tables for a validated scenario.

    adj: point -> naturally sorted neighbour ids; kind: point -> "city"|"road";
    lines: id -> points; steps: "A>B" -> [line id, +1|-1] for every pair of
    consecutive line points in either direction (B follows A along the line
    read in that direction); cities: naturally sorted city ids.
    """
    graph = build_graph(scenario)
    adj = {p: natural_sorted(graph.neighbors(p)) for p in graph.nodes}
    kind = {p: graph.nodes[p]["kind"] for p in graph.nodes}
    lines = {ln["id"]: list(ln["points"]) for ln in scenario["lines"]}
    steps: dict[str, list[Any]] = {}
    for lid, pts in lines.items():
        for a, b in pairwise(pts):
            steps[f"{a}>{b}"] = [lid, 1]
            steps[f"{b}>{a}"] = [lid, -1]
    return {
        "scenario": scenario,
        "adj": adj,
        "kind": kind,
        "lines": lines,
        "steps": steps,
        "cities": natural_sorted(c["id"] for c in scenario["cities"]),
        "points": natural_sorted(graph.nodes),
        "max_units": scenario["max_units"],
    }


def point_xy(scenario: dict[str, Any]) -> dict[str, list[float]]:
    """Drawing coordinates: cities as given, roads at their midpoint unless set."""
    xy = {c["id"]: [c["x"], c["y"]] for c in scenario["cities"]}
    for r in scenario["roads"]:
        if "x" in r:
            xy[r["id"]] = [r["x"], r["y"]]
        else:
            (ax, ay), (bx, by) = xy[r["joins"][0]], xy[r["joins"][1]]
            xy[r["id"]] = [(ax + bx) / 2, (ay + by) / 2]
    return xy
