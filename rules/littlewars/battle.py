"""A strategic battle fought as a Little Wars game (rules.core.protocol.Tactical; RULES.md §14).

The conversion, both ways (RULES.md §14 states it for players):
- a strategic unit of strength 1 is a group of FIGURES_PER_STRENGTH infantry named after it (a
  fraction of a strength point is that fraction of the figures, rounded half up, at least 1), and
  every started pair of units of a side brings one gun;
- a unit's strength left is the share of its figures still fighting at the end (neither dead nor
  prisoner; a figure that changed group still counts for the unit it came with), and a unit left
  with less than half is lost (rules.core.battles.lost_units);
- the winner is Little Wars' own at the end (LW-48..51), the turn limit included: there the 100 is
  split and neither side has won, so the defender keeps the place.

Terrain: one template per kind of place (rules.core.battles.PLACE_KINDS), laid between the two
deployment zones so that every default position stays clear; the attacker comes from the south.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from rules.core.battles import check_battle, lost_units, units_of
from rules.core.protocol import State

from .fold import figure_id
from .units import SIDES

FIGURES_PER_STRENGTH = 10
UNITS_PER_GUN = 2
TURN_LIMIT = 12
DEPTH = 48.0
DEPLOY_DEPTH = 10.0
SPACING = 9.0  # inches between the centres of two groups abreast
FRONTAGE = 5  # figures in a group's front rank: a strength point stands two ranks deep


def group_name(unit: str) -> str:
    """A Little Wars group name for a strategic unit id ("R6_7" -> "u-r6_7": never a figure's id)."""
    return "u-" + unit.lower()


def figures_for(strength: float) -> int:
    return max(1, math.floor(strength * FIGURES_PER_STRENGTH + 0.5))


def battle_scenario(battle: Mapping[str, Any]) -> dict[str, Any]:
    """The scenario for ``battle``: a table of its place's kind, each side's units as groups."""
    b = check_battle(battle, SIDES)
    most = max(len(b["forces"][s]) for s in SIDES)
    width = max(48.0, SPACING * (most + 1) + 12.0)
    edges = {b["attacker"]: "south", b["defender"]: "north"}
    forces = {side: _force(b, side, edges[side], width) for side in SIDES}
    points = max(_points(f) for f in forces.values())
    place = b["place"]
    return {
        "name": "battle-" + str(b["id"]).lower(),
        "title": f"Battle {b['id']} at {place.get('name', place['id'])}",
        "table": {"width": width, "depth": DEPTH},
        "edges": edges,
        "kind": "bitter_end",
        "settings": {"max_turns": TURN_LIMIT, "deploy_depth": DEPLOY_DEPTH, "points": max(150, points)},
        "terrain": TEMPLATES[place["kind"]](width),
        "forces": forces,
        # read back by battle_result: which groups are which strategic units (Little Wars ignores it)
        "battle": {"id": b["id"], "units": {s: {group_name(u): u for u in units_of(b, s)} for s in SIDES}},
    }


def _force(b: Mapping[str, Any], side: str, edge: str, width: float) -> dict[str, Any]:
    units = b["forces"][side]
    y = 4.0 if edge == "south" else DEPTH - 4.0
    gun_y = 1.5 if edge == "south" else DEPTH - 1.5
    first = width / 2 - SPACING * (len(units) - 1) / 2
    groups = [
        {
            "name": group_name(u["unit"]),
            "arm": "inf",
            "count": figures_for(u["strength"]),
            "at": [first + SPACING * i, y],
            "frontage": FRONTAGE,
        }
        for i, u in enumerate(units)
    ]
    guns = [
        {"name": f"gun{k + 1}", "at": [first + SPACING * (k * UNITS_PER_GUN + 0.5), gun_y]}
        for k in range(math.ceil(len(units) / UNITS_PER_GUN))
    ]
    return {"groups": groups, "guns": guns}


def _points(force: Mapping[str, Any]) -> int:
    return int(sum(g["count"] for g in force["groups"]) + 10 * len(force["guns"]))  # LW-59


def _box(x0: float, y0: float, x1: float, y1: float) -> list[list[float]]:
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


def _town(w: float) -> list[dict[str, Any]]:
    c = w / 2
    return [
        {"id": "town-hall", "type": "building", "polygon": _box(c - 3, 29, c + 3, 33)},
        {"id": "west-houses", "type": "building", "polygon": _box(c - 14, 27, c - 8, 31)},
        {"id": "east-houses", "type": "building", "polygon": _box(c + 8, 27, c + 14, 31)},
        {"id": "town-wall", "type": "wall", "line": [[c - 7, 25], [c + 7, 25]]},
    ]


def _crossing(w: float) -> list[dict[str, Any]]:
    c = w / 2
    return [
        {"id": "river", "type": "river", "polygon": _box(0, 22, w, 26)},
        {"id": "bridge", "type": "bridge", "polygon": _box(c - 2, 21, c + 2, 27)},
        {"id": "ford", "type": "ford", "polygon": _box(w / 4 - 3, 21, w / 4 + 3, 27)},
    ]


def _open(w: float) -> list[dict[str, Any]]:
    c = w / 2
    return [
        {"id": "copse", "type": "wood", "polygon": _box(c + 6, 20, c + 14, 28)},
        {"id": "hedge", "type": "wall", "line": [[c - 14, 26], [c - 4, 26]]},
    ]


def _hills(w: float) -> list[dict[str, Any]]:
    c = w / 2
    return [
        {"id": "ridge", "type": "hill", "level": 2, "polygon": _box(c - 12, 27, c + 12, 34)},
        {"id": "knoll", "type": "hill", "level": 1, "polygon": _box(c - 20, 17, c - 12, 23)},
    ]


TEMPLATES = {"town": _town, "crossing": _crossing, "open": _open, "hills": _hills}


def battle_result(state: State) -> dict[str, Any] | None:
    """None while the game goes on (or was not a battle); then the result read back (module doc)."""
    result = state.get("result")
    battle = (state.get("scenario") or {}).get("battle")
    if not result or not battle:
        return None
    figures = state["figures"]
    left = {
        side: {unit: _share_left(figures, members) for unit, members in _members(state, side).items()} for side in SIDES
    }
    return {
        "winner": result.get("winner"),
        "reason": str(result.get("reason", "")),
        "lost": lost_units(left),
        "strength_left": left,
        "prisoners": {s: sum(1 for f in figures.values() if f["st"] == "pow" and f["pow"][0] == s) for s in SIDES},
        "guns_captured": {
            s: sum(1 for g in state["guns"].values() if g["owner"] == s and g["side"] != s) for s in SIDES
        },
    }


def _members(state: State, side: str) -> dict[str, list[str]]:
    """{strategic unit: the ids of the figures it came with}, numbered as table_laid numbers them."""
    sc = state["scenario"]
    units = sc["battle"]["units"][side]
    numbers = {"inf": 0, "cav": 0}
    out: dict[str, list[str]] = {}
    for g in sc["forces"][side]["groups"]:
        ids = []
        for _ in range(g["count"]):
            numbers[g["arm"]] += 1
            ids.append(figure_id(side, g["arm"], numbers[g["arm"]]))
        if g["name"] in units:
            out[units[g["name"]]] = ids
    return out


def _share_left(figures: Mapping[str, Any], members: list[str]) -> float:
    fighting = sum(1 for fid in members if figures[fid]["st"] == "ok")
    return round(fighting / len(members), 3)
