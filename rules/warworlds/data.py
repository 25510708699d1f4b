"""War of the Worlds as data: the house tables and profiles (non-canonical; see RULES.md).

The seed gives one point of the attack table (strength 4 hits on 7+, WW-21) and no profiles.
Everything here is the *house base*, chosen to agree with every number the seed does give.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

SIDES = ("red", "blue")
D10 = 10

# -- attack and defence (WW-21, WW-22) -------------------------------------------------------
# target = 11 − strength, never better than 2+ and never worse than 10+: strength 4 → 7+.
ATTACK_TARGET = {s: min(10, max(2, 11 - s)) for s in range(13)}
# Defence is rolled "the same way" (WW-22): a defence value d saves on ATTACK_TARGET[d].
DEFENCE_TARGET = ATTACK_TARGET
COVER_BONUS = {"wood": 1, "building": 2, "rough": 1, "very_rough": 1, "wreck": 1}

# -- machine damage (WW-52, WW-53) -----------------------------------------------------------
DAMAGE_BANDS = ((1, 2, "concussion"), (3, 4, "weapon"), (5, 6, "engine"), (7, 8, "fire"), (9, 10, "explosion"))
CREW_ATTACK = 5  # the strength-5 attacks on crews
FRAGMENT_STRENGTH = 3  # explosion fragments against squads in contact
FIRE_OUT = 8  # fire goes out on 8+ at the start of the next turn
DOOR_BREAK = 8  # reinforced doors / armoured hatches open on 8+ (WW-46)
AGILITY_SLOW, AGILITY_FAST = 6, 8  # boarding a moving machine (WW-50)

# -- friendly fire into a melee (WW-41): D10 1..3 or 1..5 strikes your own troops ---------------
FRIENDLY_SMALL, FRIENDLY_HEAVY = 3, 5
HEAVY_SPLASH = ("indirect", "rapid", "incendiary", "fragments")

# -- morale (WW-54..59) --------------------------------------------------------------------------
MORALE_NAMES = {1: "panic", 2: "despondency", 3: "calm", 4: "inspired", 5: "heroism"}
FEAR_PASS = {5: 4, 4: 5, 3: 6, 2: 7}  # a fear test passes on this or more (D10)
BONUS_ON = {4: 8, 5: 6}  # organisation roll for a bonus marker
PENALTY_ON = 7  # despondency: 7+ gives a penalty marker
RECOVER_ON = 6  # panic: 6+ recovers to despondency
FEAR_FACTORS = {
    1: "heavy losses",
    2: "friend destroyed nearby",
    3: "terrifying weapon",
    4: "charge or ramming",
    5: "pinned by fire",
    6: "overwhelmed by numbers",
    7: "surprise attack",
    8: "crossfire",
    9: "flank attack in melee",
}

# -- terrain (WW-9..19, WW-31, WW-35) -------------------------------------------------------------
TERRAINS = ("open", "rough", "very_rough", "wood", "building", "water")
SIDE_FEATURES = ("stream", "wall", "cliff")
OBSTACLE = {"wood": 1, "building": 1}  # height above the ground for line of sight
TERRAIN_FILL = {
    "open": "#e9e4c9",
    "rough": "#d7c79a",
    "very_rough": "#b8a27a",
    "wood": "#5e8c4a",
    "building": "#9a8f86",
    "water": "#8db9e0",
}
SIDE_STROKE = {"stream": "#2f74c0", "wall": "#5a4632", "cliff": "#3a2a1a"}

# -- weapons: strength, range (hexes), attacks per model, properties -----------------------------
# Properties: ap (armour-piercing), indirect, low_accuracy, explosive (+ fragments dice),
# rapid (double attacks), incendiary, aimed, assault (usable in melee), terrifying (fear 3).
WEAPONS: dict[str, dict[str, Any]] = {
    "rifle": {"strength": 3, "range": 4, "attacks": 1, "props": []},
    "carbine": {"strength": 3, "range": 3, "attacks": 1, "props": []},
    "sniper": {"strength": 5, "range": 6, "attacks": 1, "props": ["aimed"]},
    "lmg": {"strength": 3, "range": 4, "attacks": 2, "props": ["rapid", "assault"]},
    "hmg": {"strength": 4, "range": 4, "attacks": 2, "props": ["rapid"]},
    "grenades": {"strength": 4, "range": 1, "attacks": 1, "props": ["assault", "fragments"]},
    "flamethrower": {"strength": 5, "range": 1, "attacks": 1, "props": ["assault", "incendiary", "terrifying"]},
    "field_gun": {
        "strength": 8,
        "range": 8,
        "attacks": 1,
        "props": ["ap", "explosive", "indirect", "low_accuracy", "terrifying"],
        "fragments": "D6",
    },
    "light_gun": {
        "strength": 6,
        "range": 6,
        "attacks": 1,
        "props": ["ap", "explosive", "terrifying"],
        "fragments": "D3",
    },
    "tank_gun": {
        "strength": 7,
        "range": 8,
        "attacks": 1,
        "props": ["ap", "explosive", "terrifying"],
        "fragments": "D3",
    },
    "heat_ray": {"strength": 6, "range": 4, "attacks": 1, "props": ["ap", "incendiary", "terrifying"]},
    "bombs": {"strength": 7, "range": 1, "attacks": 1, "props": ["ap", "explosive", "terrifying"], "fragments": "D6"},
    "aircraft_mg": {"strength": 3, "range": 1, "attacks": 2, "props": ["rapid"]},
}
MELEE = {"bayonet": 3, "sabre": 4, "claws": 5, "crew": 3}
ACCURACY = 6  # low-accuracy weapons hit the aimed hex on 6+ (D10); otherwise they scatter (WW-37)

# -- units ------------------------------------------------------------------------------------------
# kind:   squad (figures), machine (one large model), aircraft (off map, WW-20 option A)
# moves:  {mode: hexes}; the first mode is the ordinary one, "fast" modes are run/gallop/accelerate
# terrain class: foot (WW-17/18), wheels (WW-19), tracks (WW-19), air
PROFILES: dict[str, dict[str, Any]] = {
    "infantry": {
        "kind": "squad",
        "moves": {"walk": 1, "run": 2},
        "fast": ["run"],
        "class": "foot",
        "defence": 2,
        "melee": "bayonet",
        "models": {
            "rifle": "rifle",
            "lmg": "lmg",
            "sniper": "sniper",
            "officer": "rifle",
            "grenadier": "grenades",
            "flamer": "flamethrower",
        },
        "points": 1,
    },
    "cavalry": {
        "kind": "squad",
        "moves": {"trot": 2, "gallop": 4},
        "fast": ["gallop"],
        "class": "foot",
        "defence": 2,
        "melee": "sabre",
        "models": {"trooper": "carbine", "officer": "carbine"},
        "points": 2,
        "mounted": True,
    },
    "tank": {
        "kind": "machine",
        "moves": {"cruise": 1, "accelerate": 2},
        "fast": ["accelerate"],
        "class": "tracks",
        "armour": 5,
        "heavy": True,
        "crew": ["commander", "driver", "gunner", "gunner"],
        "weapons": ["tank_gun", "hmg"],
        "points": 12,
    },
    "light_vehicle": {
        "kind": "machine",
        "moves": {"drive": 2, "accelerate": 4},
        "fast": ["accelerate"],
        "class": "wheels",
        "armour": 3,
        "heavy": False,
        "crew": ["driver", "gunner"],
        "weapons": ["hmg"],
        "points": 5,
    },
    "towed_artillery": {
        "kind": "squad",
        "moves": {"tow": 1},
        "fast": [],
        "class": "wheels",
        "defence": 2,
        "melee": "bayonet",
        "models": {"gunner": "rifle"},
        "gun": "field_gun",
        "points": 6,
        "no_fire_after_move": True,
    },
    "infantry_artillery": {
        "kind": "squad",
        "moves": {"walk": 1},
        "fast": [],
        "class": "foot",
        "defence": 2,
        "melee": "bayonet",
        "models": {"gunner": "rifle"},
        "gun": "light_gun",
        "points": 4,
    },
    "cavalry_artillery": {
        "kind": "squad",
        "moves": {"trot": 2},
        "fast": [],
        "class": "foot",
        "defence": 2,
        "melee": "sabre",
        "models": {"gunner": "carbine"},
        "gun": "light_gun",
        "points": 5,
        "no_fire_after_move": True,
    },
    "walker": {
        "kind": "machine",
        "moves": {"walk": 1, "stride": 2},
        "fast": ["stride"],
        "class": "foot",
        "armour": 4,
        "heavy": True,
        "crew": ["commander", "driver", "gunner"],
        "weapons": ["heat_ray", "hmg"],
        "points": 10,
    },
    "aircraft": {
        "kind": "aircraft",
        "moves": {},
        "fast": [],
        "class": "air",
        "armour": 3,
        "heavy": False,
        "crew": ["pilot", "gunner"],
        "weapons": ["bombs", "aircraft_mg"],
        "points": 8,
    },
    "automaton": {
        "kind": "machine",
        "moves": {"walk": 1, "stride": 2},
        "fast": ["stride"],
        "class": "foot",
        "armour": 4,
        "heavy": True,
        "crew": [],
        "weapons": ["heat_ray"],
        "melee": "claws",
        "points": 8,
    },
}
MACHINE_KINDS = ("machine", "aircraft")


def attack_target(strength: int) -> int:
    return ATTACK_TARGET[max(0, min(12, strength))]


def damage_result(roll: int, weapon_strength: int, armour: int) -> tuple[int, str]:
    """WW-52/53: the modified roll (minimum 1, above 10 counts as 10) and its band."""
    modified = roll + max(0, weapon_strength - 2) - max(0, armour - 2)
    modified = max(1, modified)
    band_roll = min(10, modified)
    for lo, hi, name in DAMAGE_BANDS:
        if lo <= band_roll <= hi:
            return modified, name
    raise AssertionError(band_roll)


def boarding_target(moved: int) -> int | None:
    """WW-50: agility needed to board a machine that moved ``moved`` hexes (None: stationary)."""
    if moved <= 0:
        return None
    return AGILITY_SLOW if moved <= 2 else AGILITY_FAST


def friendly_fire_limit(props: Iterable[str]) -> int:
    """WW-41: the D10 result at or under which an attack into a melee strikes your own troops."""
    return FRIENDLY_HEAVY if any(p in HEAVY_SPLASH for p in props) else FRIENDLY_SMALL
