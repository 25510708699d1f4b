"""A strategic battle fought as a Kriegspiel (rules.core.protocol.Tactical; RULES.md "A strategic
battle on this table").

The table, the troops and the reading back are Little Wars' (rules/littlewars/battle.py, its RULES.md
§14): the same scenario, which the appendix plays behind the curtain with the blast rule, plus what
the appendix adds: each side's supply train (KS-40..53), one depot at the middle of its own edge
holding RATIONS_PER_MEN's food and ammunition, enough for the turn limit. A Kriegspiel game's state
keeps Little Wars' figures, guns, scenario and result, so Little Wars' ``battle_result`` reads it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from rules.littlewars import battle as lw_battle
from rules.littlewars.units import SIDES

MEN_PER_RATION = 5  # a ration of food and one of ammunition for every 5 men, rounded up
DEPOT_INSET = 1.0  # inches in from the side's own edge
TRAIN = "train"

battle_result = lw_battle.battle_result


def rations_for(men: int) -> int:
    return math.ceil(men / MEN_PER_RATION)


def battle_scenario(battle: Mapping[str, Any]) -> dict[str, Any]:
    """Little Wars' scenario for ``battle`` (it checks the battle) with a supply train a side."""
    sc = lw_battle.battle_scenario(battle)
    width, depth = sc["table"]["width"], sc["table"]["depth"]
    supply = {}
    for side in SIDES:
        men = sum(g["count"] for g in sc["forces"][side]["groups"])
        y = DEPOT_INSET if sc["edges"][side] == "south" else depth - DEPOT_INSET
        n = rations_for(men)
        supply[side] = [{"name": TRAIN, "at": [width / 2, y], "food": n, "forage": 0, "ammo": n}]
    return {**sc, "title": "Kriegspiel: " + sc["title"], "kriegspiel": {"supply": supply}}
