"""A strategic battle fought as a Kings of War game (rules.core.protocol.Tactical; RULES.md §11).

The conversion, both ways (RULES.md §11 states it for players):
- a strategic unit of strength 1 is one regiment of infantry (kingdom spearmen) named after it; a
  unit of strength s is s regiments, rounded half up, at least 1 (the second and later ones named
  ``<id>-2``, ``<id>-3``...); every started pair of a side's units brings one war engine (a
  ballista), which belongs to no strategic unit; both sides field the same list (kingdom);
- a regiment's strength left is 0 if it routed, else 1 - damage / its rout Nerve (never below 0);
  a unit's is the mean over the regiments it came with, to 3 decimals; a unit left with less than
  half is lost (rules.core.battles.lost_units);
- the winner is Kings of War's own at the end (the objectives victory with the place as the one
  objective, routed points breaking a tie; a side with no unit left loses at once), the turn limit
  included: a draw there means neither side has won, so the defender keeps the place.

Terrain: one template per kind of place (rules.core.battles.PLACE_KINDS), laid between the two
deployment zones so that every unit's starting base stays clear; the attacker comes from the
south (low y) and moves first.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from rules.core.battles import check_battle, lost_units, units_of
from rules.core.protocol import ScenarioError, State

from .profiles import profile

SIDES = ("red", "blue")
ARMY = "kingdom"
REGIMENT = "spearmen"
ENGINE = "ballista"
UNITS_PER_ENGINE = 2
ROUNDS = 6
DEPTH = 48.0
MIN_WIDTH = 72.0
SPACING = 6.0  # inches between the leader points of two regiments abreast (a base is 100 mm, 3.94 in)
FRONT = 10.0  # the regiments' front edges stand this far from their own table edge
ENGINE_FRONT = 4.5  # the war engines' front edges, behind the regiments
DEPLOY_ZONE = 12.0  # every starting base lies within this of its own edge


def regiments_for(strength: float) -> int:
    """Regiments of infantry for a strategic strength: one a point, rounded half up, at least 1."""
    return max(1, math.floor(strength + 0.5))


def unit_id(unit: str) -> str:
    """A Kings of War unit id for a strategic unit id ("R6_7" -> "r6_7"): lower case, any character an
    order line cannot hold as "_" (so never "-", which names a unit's later regiments and the engines)."""
    return re.sub(r"[^a-z0-9_]", "_", unit.lower())


def battle_scenario(battle: Mapping[str, Any]) -> dict[str, Any]:
    """The scenario for ``battle``: a table of its place's kind, each side's units as regiments."""
    b = check_battle(battle, SIDES)
    ids = _regiment_ids(b)
    most = max(len(ids[s]) for s in SIDES)
    width = max(MIN_WIDTH, SPACING * (most + 1) + 12.0)
    south = b["attacker"]
    place = b["place"]
    terrain, objective = TEMPLATES[place["kind"]](width)
    return {
        "name": "battle-" + str(b["id"]).lower(),
        "title": f"Battle {b['id']} at {place.get('name', place['id'])}",
        "table": {"width": width, "depth": DEPTH},
        "terrain": terrain,
        "sides": list(SIDES),
        "armies": dict.fromkeys(SIDES, ARMY),
        "first": south,
        "rounds": ROUNDS,
        "victory": "objectives",
        "objectives": [objective],
        "block_rule": "both",
        "units": [u for s in SIDES for u in _deploy(b, s, ids[s], s == south, width)],
        # read back by battle_result: which regiments are which strategic units (kept by load and setup)
        "battle": {
            "id": b["id"],
            "units": {s: {kid: unit for unit, kids in ids[s].items() for kid in kids} for s in SIDES},
        },
    }


def _regiment_ids(b: Mapping[str, Any]) -> dict[str, dict[str, list[str]]]:
    """{side: {strategic unit: its regiments' ids}}; two units whose ids read alike are refused."""
    out: dict[str, dict[str, list[str]]] = {}
    seen: dict[str, str] = {}
    for side in SIDES:
        out[side] = {}
        for i, u in enumerate(b["forces"][side]):
            base = unit_id(u["unit"])
            if not base or base in seen:
                raise ScenarioError(
                    f"battle.forces.{side}[{i}].unit: {u['unit']!r} reads as the unit id {base!r}"
                    + (f", as {seen[base]!r} does" if base in seen else "")
                )
            seen[base] = u["unit"]
            n = regiments_for(u["strength"])
            out[side][u["unit"]] = [base] + [f"{base}-{k}" for k in range(2, n + 1)]
    return out


def _deploy(
    b: Mapping[str, Any], side: str, ids: Mapping[str, list[str]], south: bool, width: float
) -> list[dict[str, Any]]:
    regiments = [kid for unit in units_of(b, side) for kid in ids[unit]]
    first = width / 2 - SPACING * (len(regiments) - 1) / 2
    y = FRONT if south else DEPTH - FRONT
    engine_y = ENGINE_FRONT if south else DEPTH - ENGINE_FRONT
    facing = 90.0 if south else 270.0
    out = [
        {"id": kid, "side": side, "type": REGIMENT, "x": first + SPACING * i, "y": y, "facing": facing}
        for i, kid in enumerate(regiments)
    ]
    engines = math.ceil(len(b["forces"][side]) / UNITS_PER_ENGINE)
    out += [
        {
            "id": f"{side}-engine{k + 1}",
            "side": side,
            "type": ENGINE,
            "x": first + SPACING * (k * UNITS_PER_ENGINE + 0.5),
            "y": engine_y,
            "facing": facing,
        }
        for k in range(engines)
    ]
    return out


def _box(x0: float, y0: float, x1: float, y1: float) -> list[list[float]]:
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


Template = tuple[list[dict[str, Any]], list[float]]


def _town(w: float) -> Template:
    c = w / 2
    return [
        {"id": "town-hall", "kind": "impassable", "height": 4, "polygon": _box(c - 3, 29, c + 3, 33)},
        {"id": "west-houses", "kind": "impassable", "height": 3, "polygon": _box(c - 14, 27, c - 8, 31)},
        {"id": "east-houses", "kind": "impassable", "height": 3, "polygon": _box(c + 8, 27, c + 14, 31)},
        {"id": "town-wall", "kind": "obstacle", "height": 0.5, "line": [[c - 7, 24], [c + 7, 24]], "width": 0.5},
    ], [c, 26.5]  # the market square, between the wall and the town hall


def _crossing(w: float) -> Template:
    c, f = w / 2, w / 4
    return [
        {"id": "river-west", "kind": "impassable", "polygon": _box(0, 22, f - 3, 26)},
        {"id": "river-middle", "kind": "impassable", "polygon": _box(f + 3, 22, c - 3, 26)},
        {"id": "river-east", "kind": "impassable", "polygon": _box(c + 3, 22, w, 26)},
        {"id": "ford", "kind": "difficult", "polygon": _box(f - 3, 22, f + 3, 26)},
        {"id": "bridge", "kind": "decorative", "polygon": _box(c - 3, 21, c + 3, 27)},
    ], [c, 28.0]  # the defender's end of the bridge


def _open(w: float) -> Template:
    c = w / 2
    return [
        {"id": "copse", "kind": "difficult", "height": 3, "polygon": _box(c + 6, 20, c + 14, 28)},
        {"id": "hedge", "kind": "obstacle", "height": 0.5, "line": [[c - 14, 26], [c - 4, 26]], "width": 0.5},
    ], [c, 24.0]  # the crossroads in the middle of the field


def _hills(w: float) -> Template:
    c = w / 2
    return [
        {"id": "ridge", "kind": "hill", "level": 2, "polygon": _box(c - 12, 27, c + 12, 34)},
        {"id": "knoll", "kind": "hill", "level": 1, "polygon": _box(c - 20, 17, c - 12, 23)},
    ], [c, 30.5]  # the crest of the ridge


TEMPLATES = {"town": _town, "crossing": _crossing, "open": _open, "hills": _hills}


def battle_result(state: State) -> dict[str, Any] | None:
    """None while the game goes on (or was not a battle); then the result read back (module doc)."""
    result = state.get("result")
    battle = (state.get("scenario") or {}).get("battle")
    if not result or not battle:
        return None
    units = state["units"]
    left: dict[str, dict[str, float]] = {}
    for side in SIDES:
        came: dict[str, list[str]] = {}
        for kid, unit in battle["units"][side].items():
            came.setdefault(unit, []).append(kid)
        left[side] = {unit: round(sum(_left(units[k]) for k in kids) / len(kids), 3) for unit, kids in came.items()}
    return {
        "winner": result.get("winner"),
        "reason": str(result.get("reason", "")),
        "lost": lost_units(left),
        "strength_left": left,
        "prisoners": dict.fromkeys(SIDES, 0),  # Kings of War takes no prisoners
        "guns_captured": dict.fromkeys(SIDES, 0),  # nor war engines: a routed one is gone
    }


def _left(u: Mapping[str, Any]) -> float:
    """A regiment's strength left: 0 routed, else the share of its rout Nerve its damage has not used."""
    if u["status"] == "routed":
        return 0.0
    return max(0.0, 1.0 - float(u["damage"]) / float(profile(u["army"], u["type"])["rout"]))
