"""Morale (WW-54..62): fear tests with the house reaction table, and the organisation rolls.

House reaction table (WW-62, missing in the seed): roll a D10 against the level's pass number
(heroism 4+, inspired 5+, calm 6+, despondency 7+). Pass: no change. Fail: the unit drops one
level; a natural 1 drops it two. A unit in panic takes no more tests. Iron Alliance automatons
have no morale.
"""

from __future__ import annotations

from typing import Any

from .battle import Battle
from .data import (
    BONUS_ON,
    FEAR_FACTORS,
    FEAR_PASS,
    MORALE_NAMES,
    PENALTY_ON,
    RECOVER_ON,
)


def pinned(dangerous: int, soldiers: int) -> bool:
    """WW-61 #5: dangerous attacks at least twice the soldiers in the squad."""
    return soldiers > 0 and dangerous >= 2 * soldiers


def overwhelmed(enemies: int, soldiers: int) -> bool:
    """WW-61 #6: at least twice as many enemies fighting it in melee."""
    return soldiers > 0 and enemies >= 2 * soldiers


def reaction(level: int, roll: int) -> int:
    """The level after a fear test with ``roll``."""
    if level <= 1 or roll >= FEAR_PASS[level]:
        return level
    return max(1, level - (2 if roll == 1 else 1))


def tests_morale(u: dict[str, Any]) -> bool:
    return bool(u["status"] == "active" and u["profile"] != "automaton" and u["morale"] > 1)


def fear_test(b: Battle, uid: str, factor: int) -> None:
    u = b.unit(uid)
    if not tests_morale(u):
        return
    roll = b.roll()
    level = reaction(u["morale"], roll)
    b.emit(
        "fear_test",
        {
            "unit": uid,
            "factor": factor,
            "why": FEAR_FACTORS[factor],
            "roll": roll,
            "need": FEAR_PASS[u["morale"]],
            "from": MORALE_NAMES[u["morale"]],
            "to": MORALE_NAMES[level],
            "units": {uid: {"morale": level}},
        },
        (uid,),
    )


def fear_tests(b: Battle, factors: dict[str, set[int]]) -> None:
    """One test per factor (WW-62 "each time"), lowest factor first, units in id order."""
    for uid in sorted(factors):
        for f in sorted(factors[uid]):
            fear_test(b, uid, f)


def organisation_roll(b: Battle, uid: str) -> None:
    """WW-56..59: the organisation-phase roll of inspired, heroic, despondent and panicked units."""
    u = b.unit(uid)
    level = u["morale"]
    if u["status"] != "active" or level == 3 or u["profile"] == "automaton":
        return
    roll = b.roll()
    patch: dict[str, Any] = {}
    if level in BONUS_ON:
        patch["bonus"] = roll >= BONUS_ON[level]
    elif level == 2:
        patch["penalty"] = roll >= PENALTY_ON
    elif level == 1 and roll >= RECOVER_ON:
        patch["morale"] = 2
    b.emit(
        "morale_rolled",
        {
            "unit": uid,
            "level": MORALE_NAMES[level],
            "roll": roll,
            "bonus": patch.get("bonus", False),
            "penalty": patch.get("penalty", False),
            "recovered": patch.get("morale") == 2,
            "units": {uid: patch},
        },
        (uid,),
    )
