"""A hex map: terrain and elevation per hex, features per hexside, as JSON and as a lookup object.

JSON map format (hexes named by CCRR labels, see coords)::

    {"name": "meadow", "cols": 10, "rows": 10,
     "default_terrain": "open",
     "hexes": {"0305": {"terrain": "wood", "elevation": 1, "road": true}, ...},
     "sides": {"0305/0306": "stream", ...}}

The rectangle ``cols`` × ``rows`` (odd-q layout) is the map. A hexes entry may give
``terrain`` (default ``default_terrain``), ``elevation`` (default 0) and ``road``. A sides
key names two adjacent hexes; the feature is stored once under the side's canonical key.
Which terrain and side names exist is the rule set's business: ``load_map`` takes them.

``HexMap`` is built once per map (cached by the map's digest) and shared by every state.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any

from .coords import (
    Hex,
    Side,
    adjacent_side,
    direction_to,
    iter_rect,
    label,
    parse_label,
    side_hexes,
    to_offset,
)
from .schema import fail, field, number

MAX_SIDE = 99


def _hex(text: Any, where: str, on_map: set[Hex] | None = None) -> Hex:
    if not isinstance(text, str):
        fail(where, f"must be a hex number such as '0305', not {text!r}")
    try:
        h = parse_label(text)
    except ValueError as e:
        fail(where, str(e))
    if on_map is not None and h not in on_map:
        fail(where, f"hex {text} is not on the map")
    return h


def load_map(data: Any, terrains: Iterable[str], side_features: Iterable[str], where: str = "map") -> dict[str, Any]:
    """Check a JSON map and return it normalised (with its ``digest``); errors name the field."""
    terrains, side_features = list(terrains), list(side_features)
    if not isinstance(data, dict):
        fail(where, "must be an object")
    name = field(data, "name", str, where)
    cols = number(data, "cols", where, 1, MAX_SIDE)
    rows = number(data, "rows", where, 1, MAX_SIDE)
    default = field(data, "default_terrain", str, where, terrains[0], choices=terrains)
    on_map = set(iter_rect(cols, rows))
    hexes = {}
    for key, spec in sorted(field(data, "hexes", dict, where, {}).items()):
        at = f"{where}.hexes.{key}"
        _hex(key, at, on_map)
        if not isinstance(spec, dict):
            fail(at, "must be an object with terrain, elevation or road")
        unknown = set(spec) - {"terrain", "elevation", "road"}
        if unknown:
            fail(at, f"unknown field(s) {', '.join(sorted(unknown))} (known: terrain, elevation, road)")
        hexes[key] = {
            "terrain": field(spec, "terrain", str, at, default, choices=terrains),
            "elevation": number(spec, "elevation", at, -9, 9, 0),
            "road": field(spec, "road", bool, at, False),
        }
    sides = {}
    for key, feature in sorted(field(data, "sides", dict, where, {}).items()):
        at = f"{where}.sides.{key}"
        parts = key.split("/")
        if len(parts) != 2:
            fail(at, "a hexside is named by its two hexes, e.g. '0305/0306'")
        a, b = _hex(parts[0], at, on_map), _hex(parts[1], at, on_map)
        if direction_to(a, b) is None:
            fail(at, f"{parts[0]} and {parts[1]} are not adjacent")
        if not isinstance(feature, str) or feature not in side_features:
            fail(at, f"{feature!r} is not a hexside feature (known: {', '.join(side_features) or 'none'})")
        canon = "/".join(label(h) for h in side_hexes(adjacent_side(a, b)))
        if canon in sides:
            fail(at, f"the side {canon} is given twice")
        sides[canon] = feature
    out = {
        "name": name,
        "title": field(data, "title", str, where, name),
        "cols": cols,
        "rows": rows,
        "default_terrain": default,
        "hexes": hexes,
        "sides": sides,
    }
    out["digest"] = hashlib.sha256(json.dumps(out, sort_keys=True).encode()).hexdigest()[:16]
    return out


class HexMap:
    """Lookups over a loaded map (see ``load_map``)."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.name = data["name"]
        self.cols, self.rows = data["cols"], data["rows"]
        self.cells: dict[Hex, dict[str, Any]] = {}
        base = {"terrain": data["default_terrain"], "elevation": 0, "road": False}
        for h in iter_rect(self.cols, self.rows):
            self.cells[h] = base
        for key, spec in data["hexes"].items():
            self.cells[parse_label(key)] = spec
        self.sides: dict[Side, str] = {}
        self.crossing: dict[tuple[Hex, Hex], str] = {}  # both directions, for movement's hot loop
        for key, feature in data["sides"].items():
            a, b = (parse_label(p) for p in key.split("/"))
            self.sides[adjacent_side(a, b)] = feature
            self.crossing[(a, b)] = self.crossing[(b, a)] = feature

    def __contains__(self, h: Hex) -> bool:
        return h in self.cells

    def terrain(self, h: Hex) -> str:
        return str(self.cells[h]["terrain"])

    def elevation(self, h: Hex) -> int:
        return int(self.cells[h]["elevation"])

    def road(self, h: Hex) -> bool:
        return bool(self.cells[h]["road"])

    def side(self, a: Hex, b: Hex) -> str | None:
        """The feature on the side between adjacent ``a`` and ``b`` (None: none or not adjacent)."""
        return self.crossing.get((a, b))

    def hexes(self) -> list[Hex]:
        return list(self.cells)

    def on_edge(self, h: Hex) -> bool:
        col, row = to_offset(h)
        return col in (0, self.cols - 1) or row in (0, self.rows - 1)


_CACHE: dict[str, HexMap] = {}


def hexmap(data: dict[str, Any]) -> HexMap:
    """The HexMap of a loaded map, built once per digest."""
    key = data["digest"]
    m = _CACHE.get(key)
    if m is None:
        if len(_CACHE) > 64:
            _CACHE.clear()
        m = _CACHE[key] = HexMap(data)
    return m
