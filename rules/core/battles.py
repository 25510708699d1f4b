"""Battles that link a strategic game to tactical ones: the two JSON shapes they pass.

A *strategic* rule set (``protocol.Strategic``; Civil War) reports an engagement as a **battle**:

    {"id": "B1",                                   the strategic game's own name for it
     "place": {"id": "C7", "name": "Riverton",    where it is fought
               "kind": "town"},                    one of PLACE_KINDS: the terrain template
     "attacker": "red", "defender": "blue",
     "forces": {"red":  [{"unit": "R6_7", "strength": 1}, ...],
                "blue": [{"unit": "C7", "strength": 1}, ...]},
     "turn": 12}                                   the strategic turn it was joined in

A *tactical* rule set (``protocol.Tactical``) builds a scenario from it (its RULES.md says how
many figures or units a strength point is) and, once that game is over, reads back a **result**:

    {"winner": "red" | "blue" | None,             None: neither won (the defender keeps the place)
     "reason": "...",                              why, in the tactical rule set's words (English)
     "lost": {"red": ["R6_7"], "blue": []},        the strategic units each side lost
     "strength_left": {"red": {"R6_7": 0.3, ...}, "blue": {...}},   each unit's fraction left
     "prisoners": {"red": 3, "blue": 0},           enemy men each side took prisoner
     "guns_captured": {"red": 0, "blue": 1}}       enemy guns each side took

The strategic rule set folds a result back (``resolve_battle``), deciding who holds the place and
where the loser's units go by its own rules. Both sides of the link are pure and deterministic;
the platform (campaigns/campaign/) spawns the battle games and carries results across.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .protocol import ScenarioError

PLACE_KINDS = ("town", "crossing", "open", "hills")


def check_battle(battle: Any, sides: tuple[str, ...]) -> dict[str, Any]:
    """A validated copy of a battle; ScenarioError naming the field that is wrong."""
    if not isinstance(battle, Mapping):
        raise ScenarioError("battle: must be an object")
    b = dict(battle)
    for key in ("id", "place", "attacker", "defender", "forces"):
        if key not in b:
            raise ScenarioError(f"battle.{key}: missing")
    place = b["place"]
    if not isinstance(place, Mapping) or not isinstance(place.get("id"), str):
        raise ScenarioError("battle.place: must be an object with an id")
    if place.get("kind") not in PLACE_KINDS:
        raise ScenarioError(f"battle.place.kind: must be one of {', '.join(PLACE_KINDS)}")
    if {b["attacker"], b["defender"]} != set(sides):
        raise ScenarioError(f"battle: attacker and defender must be {' and '.join(sides)}")
    forces = b["forces"]
    for side in sides:
        units = forces.get(side) if isinstance(forces, Mapping) else None
        if not isinstance(units, list) or not units:
            raise ScenarioError(f"battle.forces.{side}: must list at least one unit")
        for i, u in enumerate(units):
            strength = u.get("strength") if isinstance(u, Mapping) else None
            if not isinstance(u, Mapping) or not isinstance(u.get("unit"), str):
                raise ScenarioError(f"battle.forces.{side}[{i}].unit: must be the unit's id")
            if isinstance(strength, bool) or not isinstance(strength, (int, float)) or not 0 < strength <= 10:
                raise ScenarioError(f"battle.forces.{side}[{i}].strength: must be a number above 0, at most 10")
    return {**b, "place": dict(place), "forces": {s: [dict(u) for u in forces[s]] for s in sides}}


def units_of(battle: Mapping[str, Any], side: str) -> list[str]:
    """The strategic units ``side`` brings to the battle, in the battle's order."""
    return [u["unit"] for u in battle["forces"][side]]


def lost_units(strength_left: Mapping[str, Mapping[str, float]]) -> dict[str, list[str]]:
    """The units lost: those left with less than half their strength (LOST_BELOW), in id order.

    One threshold for every tactical rule set, so the same battle read back from different tables
    costs the strategic game alike: a unit that kept half its men is still a unit."""
    return {side: sorted(u for u, left in units.items() if left < LOST_BELOW) for side, units in strength_left.items()}


LOST_BELOW = 0.5
