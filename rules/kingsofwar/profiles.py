"""House unit profiles (non-canonical, see RULES.md): two armies of nine unit types each.

The excerpt names the statistics (attacks, melee, ranged, defence) but gives none
(ambiguity 1). These are house numbers in the published notation: Sp speed in inches,
Me/Ra/De the score needed ("4" means 4+; Ra None for no ranged attack), Att attacks,
Ne (waver, rout) for the Nerve test (waver None: Fearless, never wavers), base frontage
and depth in mm, height in levels, a ranged weapon from ``WEAPONS`` and a points cost.
"""

from __future__ import annotations

from typing import Any

# KW-28 ranges in inches; "thrown" weapons take no -1 for moving (KW-37)
WEAPONS = {
    "heavy crossbow": {"range": 36, "thrown": False},
    "long rifle": {"range": 36, "thrown": False},
    "bow": {"range": 24, "thrown": False},
    "crossbow": {"range": 24, "thrown": False},
    "rifle": {"range": 24, "thrown": False},
    "carbine": {"range": 18, "thrown": False},
    "harpoon gun": {"range": 18, "thrown": False},
    "pistol": {"range": 12, "thrown": True},
    "javelin": {"range": 12, "thrown": True},
    "thrown": {"range": 12, "thrown": True},
}

KIND_HEIGHT = {"infantry": 1, "war engine": 1, "cavalry": 2, "large infantry": 2, "large cavalry": 3, "monster": 4}

_FIELDS = ("kind", "sp", "me", "ra", "de", "att", "waver", "rout", "w_mm", "d_mm", "weapon", "points")


def _p(*values: Any) -> dict[str, Any]:
    prof = dict(zip(_FIELDS, values, strict=True))
    prof["h"] = KIND_HEIGHT[prof["kind"]]
    return prof


ARMIES: dict[str, dict[str, dict[str, Any]]] = {
    "kingdom": {
        "spearmen": _p("infantry", 5, 4, None, 4, 10, 13, 15, 100, 80, None, 100),
        "foot guard": _p("infantry", 5, 3, None, 5, 12, 14, 16, 100, 80, None, 150),
        "archers": _p("infantry", 5, 5, 5, 3, 8, 12, 14, 100, 80, "bow", 100),
        "crossbowmen": _p("infantry", 5, 5, 5, 4, 8, 12, 14, 100, 80, "heavy crossbow", 115),
        "skirmishers": _p("infantry", 6, 5, 5, 3, 6, 10, 12, 100, 40, "javelin", 60),
        "knights": _p("cavalry", 8, 3, None, 5, 8, 14, 16, 100, 100, None, 170),
        "outriders": _p("cavalry", 9, 4, 5, 4, 8, 13, 15, 100, 100, "pistol", 130),
        "ogre guard": _p("large infantry", 6, 3, None, 5, 18, 15, 17, 100, 80, None, 190),
        "ballista": _p("war engine", 5, 6, 4, 4, 2, 10, 12, 50, 100, "heavy crossbow", 80),
    },
    "horde": {
        "axe band": _p("infantry", 5, 4, None, 4, 12, 14, 16, 100, 80, None, 110),
        "great axes": _p("infantry", 5, 3, None, 4, 12, 14, 16, 100, 80, None, 130),
        "bowmen": _p("infantry", 5, 5, 5, 3, 8, 12, 14, 100, 80, "bow", 95),
        "spear throwers": _p("infantry", 6, 4, 5, 3, 8, 12, 14, 100, 40, "thrown", 70),
        "boar riders": _p("cavalry", 8, 3, None, 4, 9, 13, 15, 100, 100, None, 140),
        "wolf riders": _p("cavalry", 9, 4, 5, 3, 7, 12, 14, 100, 100, "javelin", 110),
        "trolls": _p("large infantry", 6, 3, None, 5, 18, 15, 17, 100, 80, None, 180),
        "giant": _p("monster", 7, 4, None, 5, 12, None, 17, 75, 75, None, 200),
        "bolt thrower": _p("war engine", 5, 6, 4, 4, 2, 10, 12, 50, 100, "heavy crossbow", 75),
    },
}


def profile(army: str, utype: str) -> dict[str, Any]:
    return ARMIES[army][utype]


def weapon(prof: dict[str, Any]) -> dict[str, Any] | None:
    return WEAPONS[prof["weapon"]] if prof.get("weapon") else None
