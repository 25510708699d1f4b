"""Dice for shooting, melee and nerve (KW-36..53 and the house Nerve test).

Every roll takes a ``random.Random`` (the seeded turn generator of ``rules.core.dice``)
and returns the dice it rolled, so events carry the rolls and a replay rolls the same.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

MULTIPLIER = {"front": 1, "left": 2, "right": 2, "rear": 3}  # KW-47: flank x2, rear x3


@dataclass(frozen=True)
class ToHit:
    """What a hit roll needs after modifiers: the score and how many dice are rolled."""

    needed: int  # 2..6 (a natural 1 always misses, KW-39)
    dice: int

    def as_json(self) -> dict[str, Any]:
        return {"needed": self.needed, "dice": self.dice}


def to_hit(base: int, attacks: int, modifiers: int) -> ToHit:
    """KW-36..40, 48, 51: ``base`` is the Ranged or Melee value (e.g. 4 for 4+), ``modifiers``
    the sum of the penalties as a negative number (-1 moving, -1 cover, -1 hindered ...).
    Each -1 on the die is one more needed; above 6 the unit hits on 6 with half its dice."""
    needed = base - modifiers
    if needed > 6:
        return ToHit(6, attacks // 2)
    return ToHit(max(needed, 2), attacks)


def damage_needed(defence: int, modifiers: int = 0) -> int | None:
    """KW-41/42: the damage roll needs the target's Defence (a 1 always fails); None when
    modifiers push it above 6 (the target cannot be damaged)."""
    needed = defence - modifiers
    if needed > 6:
        return None
    return max(needed, 2)


def roll(rng: random.Random, n: int) -> list[int]:
    return [rng.randint(1, 6) for _ in range(n)]


def successes(rolls: list[int], needed: int | None) -> int:
    if needed is None:
        return 0
    return sum(1 for r in rolls if r != 1 and r >= needed)


def attack(rng: random.Random, hit: ToHit, defence: int, damage_mod: int = 0) -> dict[str, Any]:
    """Roll to hit, re-roll the hits to damage (KW-41); the record goes into the event."""
    hit_rolls = roll(rng, hit.dice)
    hits = successes(hit_rolls, hit.needed)
    need = damage_needed(defence, damage_mod)
    dmg_rolls = roll(rng, hits)
    return {
        **hit.as_json(),
        "hit_rolls": hit_rolls,
        "hits": hits,
        "damage_needed": need,
        "damage_rolls": dmg_rolls,
        "damage": successes(dmg_rolls, need),
    }


def doubtful_cover(rng: random.Random) -> tuple[int, bool]:
    """KW-35 / KW-EX-8: a d6; 4+ not in cover, 3 or less in cover. Returns (die, in cover)."""
    die = rng.randint(1, 6)
    return die, cover_from_die(die)


def cover_from_die(die: int) -> bool:
    return die <= 3


def nerve(rng: random.Random, damage: int, waver: int | None, rout: int, modifier: int = 0) -> dict[str, Any]:
    """House Nerve test: 2d6 + damage (+ modifier). At least ``rout``: the unit routs and is
    removed; else at least ``waver`` (None for Fearless units): it wavers; else it holds.
    A double 1 always holds (house)."""
    dice = roll(rng, 2)
    total = sum(dice) + damage + modifier
    if dice == [1, 1]:
        outcome = "steady"
    elif total >= rout:
        outcome = "routed"
    elif waver is not None and total >= waver:
        outcome = "wavering"
    else:
        outcome = "steady"
    return {"dice": dice, "total": total, "waver": waver, "rout": rout, "outcome": outcome}
