"""Unit types and the numbers of the rules, as data (the Kriegspiel appendix adds more types).

Every distance is in inches. A figure is a disc (its footprint); distances "to a
figure" are measured to the nearest part of that disc (LW-34: "to any part of the
figure, weapon or horse").
"""

from __future__ import annotations

from typing import Any

SIDES = ("red", "blue")

# arm -> numbers. "move" is the allowance per turn (LW-17, LW-18), "radius" the footprint.
ARMS: dict[str, dict[str, float]] = {
    "inf": {"move": 12.0, "radius": 0.25, "points": 1.0, "score": 1.0},
    "cav": {"move": 24.0, "radius": 0.5, "points": 1.5, "score": 1.5},
}
ARM_NAMES = {"inf": "infantry", "cav": "cavalry"}

GUN_POINTS = 10.0  # LW-59
GUN_SCORE = 10.0  # LW-48
CREW_MIN = 4  # LW-19: at least 4 figures of the side ...
CREW_RANGE = 6.0  # ... within 6 inches of the gun
GUN_MOVE_SLOW = 12.0  # LW-26: 1 ft ...
GUN_MOVE_FAST = 24.0  # ... 2 ft when at least 4 of its team are cavalry
SHOTS_PER_TURN = 4  # LW-21
GUN_SPOT = "inf"  # a gun's place is checked like an infantry footprint (deploy, destination, invariants)
FIRST_FIRE_TURN = 2  # LW-14 / LW-EX-2: no gun fires in turn 1 of the simultaneous game

CONTACT_GAP = 0.125  # LW-33: closer than 1/8 inch to an enemy
MELEE_JOIN = 6.0  # LW-34
SCENERY_GAP = 1.0 / 16.0  # LW-27: a figure keeps 1/16 inch from buildings, trees and the sides of hills
TRUNK = 0.5  # a tree's trunk radius (a wood's "trunk" overrides it)
GUARD_RATIO = 7  # LW-41: one guard per 7 prisoners, rounded up
GUARD_RANGE = 6.0
EDGE_BAND = 1.0  # a figure within 1 inch of an edge has "reached" it
VICTORY = 100.0  # LW-48
PRISONER_SCORE = 0.5
DRAW_BELOW = 15  # LW-49
DRAW_BELOW_SMALL = 10  # ... when each side began with no more than 50 figures
SMALL_ARMY = 50
BREAKTHROUGH_FIGURES = 3  # LW-50
WITHDRAW_MOVES = 6  # LW-50: the fleeing army keeps what can leave within 6 moves
DEFENCE_RATIO = 2.0 / 3.0  # LW-52
DEFAULT_POINTS = 150.0  # LW-59, LW-EX-5
RESERVE = 12  # LW-57: 12 figures set aside, 2d6 of them join


def radius(arm: str) -> float:
    return ARMS[arm]["radius"]


def move_allowance(arm: str) -> float:
    return ARMS[arm]["move"]


SCALES = (1, 2, 3)  # LW-62: on a large field distances may be doubled or trebled


def scale(scenario: dict[str, Any] | None) -> int:
    """LW-62: the game's distance scale (settings.scale; 1 when absent, as in games made before it)."""
    return int(((scenario or {}).get("settings") or {}).get("scale", 1))


def pace(scenario: dict[str, Any] | None, arm: str) -> float:
    """How far a figure of ``arm`` goes in a turn in this game: LW-17/18 times the scale (LW-62)."""
    return move_allowance(arm) * scale(scenario)


def gun_pace(scenario: dict[str, Any] | None, cavalry: int) -> float:
    """LW-26: 1 ft, or 2 ft with at least 4 cavalry in the team, times the scale (LW-62)."""
    return (GUN_MOVE_FAST if cavalry >= CREW_MIN else GUN_MOVE_SLOW) * scale(scenario)


def gun_range(scenario: dict[str, Any] | None) -> float:
    """How far a gun reaches (the fire model's 12 ft), times the scale (LW-62)."""
    return MAX_RANGE * scale(scenario)


def other(side: str) -> str:
    return SIDES[1] if side == SIDES[0] else SIDES[0]


# The fire model (RULES.md, "Fire"): it replaces the spring cannon.
MAX_RANGE = 144.0  # 12 ft
SCATTER_BASE = 0.5  # spread (standard deviation, inches) of the impact at point blank ...
SCATTER_PER_INCH = 0.03  # ... growing by this much per inch of range
STRIKE_REACH = 0.3  # the ball strikes a figure whose footprint lies within this of the impact
KNOCK_REACH = 1.0  # a second figure this close would have been knocked over (LW-29/30)
BLAST_RADIUS = 3.0  # KS-3: half (rounded up) of the figures within 3 in die
