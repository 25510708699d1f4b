"""The house base of Napoleon's War (non-canonical, see RULES.md): arms, terrain, costs, dice.

Every number the seed (003) gives is kept; what the base game would give is a house decision
and RULES.md names it. Sides are "red" and "blue" (the platform's seats); a scenario names
the armies (French, Allied...) and each unit's and leader's nationality.
"""

from __future__ import annotations

from typing import Any

SIDES = ("red", "blue")

TERRAINS = ("open", "forest", "town", "fortification")
COVER = ("forest", "town", "fortification")  # NW-4: roads and bridges are not cover
STOPS = COVER  # entering forest, town or fortification ends the move (house; NW-13's forest)
SIDE_FEATURES = ("stream", "bridge")  # a bridge is a stream crossed by a road: no +1 MP (NW-13)

TERRAIN_FILL = {"open": "#e9e4c9", "forest": "#5e8c4a", "town": "#9a8f86", "fortification": "#7a6a5a"}
SIDE_STROKE = {"stream": "#2f74c0", "bridge": "#8a6a3a"}

# Arms. mp: movement points; fire: (normal range, longest range) or None; fire_hit: the lowest
# die that hits; moved_fire: may fire after moving, with -1 die (NW-18, NW-50); melee: infantry
# shock (hits on 5-6, NW-47); cavalry: charges and cavalry melee (NW-25..36); optional: only by
# the players' agreement, a game setting (NW-54).
ARMS: dict[str, dict[str, Any]] = {
    "infantry": {"kind": "infantry", "mp": 1, "fire": (1, 2), "fire_hit": 6, "melee": True},
    "rifles": {"kind": "infantry", "mp": 1, "fire": (1, 2), "fire_hit": 5, "fire_dice": 1, "melee": True},
    "light_infantry": {
        "kind": "infantry",
        "mp": 2,
        "fire": (1, 2),
        "fire_hit": 6,
        "melee": True,
        "moved_fire": True,
        "optional": True,
    },
    "skirmishers": {
        "kind": "infantry",
        "mp": 2,
        "fire": (1, 2),
        "fire_hit": 6,
        "melee": False,
        "moved_fire": True,
        "optional": True,
    },
    "cavalry": {"kind": "cavalry", "mp": 3, "fire": None},
    "heavy_cavalry": {"kind": "cavalry", "mp": 3, "fire": None},
    "light_cavalry": {"kind": "cavalry", "mp": 4, "fire": None, "optional": True},
    "dragoons": {"kind": "cavalry", "mp": 3, "fire": (1, 2), "fire_hit": 6, "moved_fire": True, "optional": True},
    "artillery": {"kind": "artillery", "mp": 1, "fire": (3, 4), "fire_hit": 6},
    "horse_artillery": {
        "kind": "horse_artillery",
        "mp": 2,
        "fire": (2, 3),
        "fire_hit": 6,
        "moved_fire": True,
        "optional": True,
    },
}
OPTIONAL = tuple(sorted([a for a, s in ARMS.items() if s.get("optional")] + ["cavalry_leaders"]))

# Command points per action (house base, before a leader's reduction, NW-37).
COST = {"move": 1, "fire": 1, "melee": 1, "charge": 2, "stream_guns": 2, "road": 0, "extra_die": 1}
LEADER_MP = 3  # NW-38: leaders move free, like cavalry
STACK = 2  # units of one side in a hex (house; NW-16 speaks of two units in one hex)
SCORE_LEADER = 2  # victory points for a leader killed (house)


def extra_caps(die: int) -> int:
    """The extra command points of the roll after the scenario's points are spent (NW-8):
    ceil(d6 / 2), which fits both worked examples (NW-EX-1: 5 -> 3, NW-EX-2: 2 -> 1)."""
    return (die + 1) // 2


def kind(u: dict[str, Any]) -> str:
    arm_kind: str = ARMS[u["arm"]]["kind"]
    return arm_kind
