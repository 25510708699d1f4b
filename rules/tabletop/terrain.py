"""A scenario's terrain items as shapely geometry: an item is a ``polygon`` or a ``line`` with a
``width`` (a road, a river, a wall), drawn as the strip that wide around it."""

from __future__ import annotations

from typing import Any

from shapely.geometry import LineString, Polygon


def terrain_geometry(item: dict[str, Any]) -> Polygon:
    if "polygon" in item:
        return Polygon(item["polygon"])
    line = LineString(item["line"])
    return line.buffer(item.get("width", 0.5) / 2.0, cap_style="flat")


def terrain_of(scenario: dict[str, Any]) -> list[dict[str, Any]]:
    """The scenario's terrain items (none listed: an open table)."""
    terrain: list[dict[str, Any]] = scenario.get("terrain", [])
    return terrain
