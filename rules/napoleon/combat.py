"""Fire, infantry melee, cavalry melee and charges: the dice pool with its modifiers (NW-46..51),
flank attacks (NW-21..24), squares and counter-charges (NW-19/20, 25, 31..34), leader death
checks (NW-32, 39).

Every attack is one-sided (the attacker rolls; house base): a die at or above the hit number
removes one figure. The pool is the unit's figures (rifles 1 die, NW-47) plus or minus one die
per condition (NW-51): version 1 rolled at least one die (house); from version 2 an attack left with
0 dice or fewer is not made (the seed's own example, «3 – 3 = 0»).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.core.i18n import gettext_noop
from rules.hex import coords as C

from .battle import Battle, rules_version
from .data import kind

MELEE_DICE = 2  # infantry shock before dice bought with points (house base 11.6)


@dataclass
class Attack:
    kind: str  # fire | melee | cavalry_melee | charge
    dice: int
    hit_on: int
    mods: list[tuple[str, int]] = field(default_factory=list)  # [(reason, +1|-1), ...]
    extended: bool = False
    path: list[C.Hex] = field(default_factory=list)  # a charge's move

    def raw_pool(self) -> int:
        """The dice the unit has with every modifier (NW-51): may be 0 or fewer."""
        return self.dice + sum(v for _, v in self.mods)

    def pool(self, version: int = 1) -> int:
        """The dice rolled: version 1 (0.2.0) rolls at least one; from version 2 none when the
        modifiers leave 0 or fewer (NW-51: «3 – 3 = 0», the gun does not fire)."""
        return max(1 if version < 2 else 0, self.raw_pool())


NO_DICE_LEFT = gettext_noop("{unit} would roll {dice} dice after its modifiers: it does not attack (NW-51)")


def no_dice_left(b: Battle, u: dict[str, Any], a: Attack | str) -> str | None:
    """Version 2: why a fire or melee left with 0 dice or fewer is not made (NW-51), not paid for."""
    if isinstance(a, str) or rules_version(b.state) < 2 or a.raw_pool() > 0:
        return None
    # kept in the log in English; describe.py reads it back into the reader's language
    return str(NO_DICE_LEFT).format(unit=u["id"], dice=a.raw_pool())


def _common(b: Battle, u: dict[str, Any], t: dict[str, Any] | None, tid: str) -> str | None:
    if t is None or t["status"] != "active":
        return f"there is no enemy unit {tid} on the field"
    if t["side"] == u["side"]:
        return f"{tid} is on your side"
    if "attack" in u["acted"]:
        return f"{u['id']} has already attacked this turn"
    if u["done"]:
        return f"{u['id']} moved by road with the extra hex and is done this turn (NW-12)"
    return None


def _target_mods(b: Battle, u_hex: C.Hex, t_hex: C.Hex, mods: list[tuple[str, int]], hill_rule: bool = True) -> None:
    if hill_rule and b.high(t_hex) and not b.high(u_hex):
        mods.append(("target on high ground", -1))
    if b.cover(t_hex):
        mods.append(("target in cover", -1))


def plan_fire(b: Battle, u: dict[str, Any], t: dict[str, Any] | None, tid: str) -> Attack | str:
    why = _common(b, u, t, tid)
    if why:
        return why
    assert t is not None  # _common refuses a missing target
    arm = b.arm(u)
    if not arm["fire"]:
        return f"{u['id']} ({u['arm']}) does not fire (cavalry melee instead, NW-35)"
    if "move" in u["acted"] and not arm.get("moved_fire"):
        return f"{u['id']} has moved this turn and may not fire (only horse artillery, light troops and dragoons may)"
    uh, th = b.h(u["hex"]), b.h(t["hex"])
    d = C.distance(uh, th)
    normal, longest = arm["fire"]
    if d > longest:
        return f"{tid} is {d} hexes away; {u['id']} reaches {normal} (at most {longest} at extended range)"
    guns = kind(u) in ("artillery", "horse_artillery")
    extended = d > normal
    if extended and guns and not (b.high(uh) and b.map.elevation(th) < b.map.elevation(uh)):
        return f"{tid} is at extended range: guns reach it only from a hill, at a lower target (NW-5, NW-6)"
    if not b.sees(uh, th):
        return f"{u['id']} cannot see {tid}: cover or a hill lies between"
    if d > 1 and b.enemy_adjacent(uh, u["side"]) and not _two_unit_exception(b, u, uh):
        return f"{u['id']} has an enemy next to it and may not fire at a distant one (NW-16)"
    a = Attack("fire", arm.get("fire_dice", u["figures"]), arm["fire_hit"], extended=extended)
    if guns:
        a.hit_on = 5 if d <= 2 else 6  # NW-46, NW-47
        if d == 1 and b.open_field(th):
            a.mods.append(("point-blank in the open", +1))  # NW-17
    if t["square"] and u["arm"] != "dragoons":
        a.mods.append(("target in square", +1))  # NW-19
    if extended:
        a.mods.append(("extended range", -1))  # NW-15, NW-7
    if "move" in u["acted"]:
        a.mods.append(("fired after moving", -1))  # NW-18, NW-50
    _target_mods(b, uh, th, a.mods)
    return a


def _two_unit_exception(b: Battle, u: dict[str, Any], uh: C.Hex) -> bool:
    """NW-16: two friends in one hex, one enemy-held hex next to them, and the other unit has
    attacked that hex this turn: this one may fire elsewhere."""
    adj = b.enemy_adjacent(uh, u["side"])
    if len(adj) != 1:
        return False
    mates = [o for o in b.at(uh) if o["side"] == u["side"] and o["id"] != u["id"]]
    return any(o["struck"] == C.label(adj[0]) for o in mates)


def plan_melee(b: Battle, u: dict[str, Any], t: dict[str, Any] | None, tid: str, bought: int = 0) -> Attack | str:
    why = _common(b, u, t, tid)
    if why:
        return why
    assert t is not None  # _common refuses a missing target
    uh, th = b.h(u["hex"]), b.h(t["hex"])
    if C.distance(uh, th) != 1:
        return f"{tid} is not next to {u['id']}"
    k = kind(u)
    if k == "cavalry":
        if bought:
            return "dice can be bought only for infantry melee (NW-40/41)"
        if "move" in u["acted"]:
            return f"{u['id']} has moved this turn: cavalry cannot move and melee in one turn (NW-35)"
        if kind(t) in ("infantry", "artillery") and not b.open_field(th):
            return "cavalry melees infantry and foot artillery only in open field (NW-36)"
        a = Attack("cavalry_melee", u["figures"], 6)
    elif k == "infantry" and b.arm(u).get("melee", False):
        if bought:
            ldr = b.reducer(u)
            if ldr is None or ldr["arm"] != "infantry":
                return f"buying melee dice needs an infantry leader with {u['id']} (NW-41)"
        a = Attack("melee", min(u["figures"], MELEE_DICE + bought), 5)  # NW-40: capped at the figures
        if t["square"]:
            a.mods.append(("target in square", +1))  # NW-49
    else:
        return f"{u['id']} ({u['arm']}) does not melee"
    if b.map.side(uh, th):
        a.mods.append((f"across a {b.map.side(uh, th)}", -1))  # NW-50
    if flank(b, uh, t)[1]:
        a.mods.append(("flank", +1))  # NW-23
    _target_mods(b, uh, th, a.mods)
    return a


def plan_charge(b: Battle, u: dict[str, Any], t: dict[str, Any] | None, tid: str) -> Attack | str:
    why = _common(b, u, t, tid)
    if why:
        return why
    assert t is not None  # _common refuses a missing target
    if kind(u) != "cavalry":
        return f"only cavalry charges; {u['id']} is {u['arm']}"
    if "move" in u["acted"]:
        return f"{u['id']} has already moved this turn"
    th = b.h(t["hex"])
    if b.map.terrain(th) != "open":
        return f"{tid} is in {b.map.terrain(th)}: a charge needs its target in the open or on a hill (NW-26)"
    tk = kind(t)
    hit = {"infantry": 4, "cavalry": 5}.get(tk, 4)  # NW-47, NW-48
    a = Attack("charge", u["figures"], hit)
    return a


def charge_mods(b: Battle, a: Attack, end_hex: C.Hex, t: dict[str, Any], countered: str | None) -> None:
    th = b.h(t["hex"])
    if kind(t) in ("artillery", "horse_artillery"):
        # NW-47/48 "(and artillery in the same hex)": guns stacked with cavalry or a square
        # are charged as those are (5-6, 6); with infantry not in square, 4-6 as guns alone
        mates = [o for o in b.at(th) if o["side"] == t["side"] and kind(o) in ("infantry", "cavalry")]
        if any(kind(o) == "cavalry" for o in mates):
            a.hit_on = 5
        elif any(o["square"] for o in mates):
            a.hit_on = 6
    if kind(t) == "infantry":
        if t["square"]:
            a.hit_on = 6  # NW-46
        else:
            a.mods.append(("infantry not in square", +1))  # NW-25
    if countered == "failed":
        a.mods.append(("the counter-charge check failed", +1))  # NW-33
    if b.high(end_hex) or b.high(th):
        a.mods.append(("charge from or onto high ground", -1))  # NW-27
    if flank(b, end_hex, t)[1]:
        a.mods.append(("flank", +1))  # NW-23


def check(b: Battle, t: dict[str, Any], arm: str) -> tuple[int, int, bool]:
    """The morale check of NW-34 (also the house test to form square): strength 2 + figures
    + the leader's level; passed if the die is not above it; a 6 always fails."""
    strength = 2 + t["figures"] + b.morale_leader(t, arm)
    die = b.d6()
    return strength, die, die != 6 and die <= strength


def flank(b: Battle, u_hex: C.Hex, t: dict[str, Any]) -> tuple[list[int], bool]:
    """Record the side an adjacent attacker comes from (NW-22); a melee is a flank attack when
    an earlier attack this turn came from the opposite side (180°) or 120° away, and every later
    one on the same target is too (NW-21, NW-24)."""
    d = C.direction_to(b.h(t["hex"]), u_hex)
    if d is None:
        return list(t["from"]), t["flanked"]
    flanked = t["flanked"] or any((d - e) % 6 in (2, 3, 4) for e in t["from"])
    return list(t["from"]) + [d], flanked


def resolve(
    b: Battle,
    u: dict[str, Any],
    t: dict[str, Any],
    a: Attack,
    order: str,
    extra: dict[str, Any] | None = None,
    recoil_on_ones: bool = False,
) -> None:
    """Roll the pool, take the figures off, check leaders, remove the destroyed."""
    dice = a.pool(rules_version(b.state))
    rolls = sorted((b.d6() for _ in range(dice)), reverse=True)
    hits = sum(1 for r in rolls if r >= a.hit_on)
    ones = rolls.count(1)
    left = max(0, t["figures"] - hits)
    u_at, t_at = u["hex"], t["hex"]
    tpatch = {"figures": left}
    if C.distance(b.h(u_at), b.h(t_at)) == 1:
        tpatch["from"], tpatch["flanked"] = flank(b, b.h(u_at), t)
    if left == 0:
        tpatch.update(status="destroyed", hex=None, square=False)
    upatch = {"acted": u["acted"] + ["attack"], "struck": t_at}
    recoil = ones if recoil_on_ones else 0
    if recoil:
        upatch["figures"] = max(0, u["figures"] - recoil)  # NW-31: a hit on the charger per 1
        if upatch["figures"] == 0:
            upatch.update(status="destroyed", hex=None)
    b.emit(
        "attacked",
        {
            "by": u["id"],
            "target": t["id"],
            "kind": a.kind,
            "order": order,
            "dice": dice,
            "base": a.dice,
            "mods": [[r, v] for r, v in a.mods],
            "hit_on": a.hit_on,
            "rolls": rolls,
            "hits": hits,
            "recoil": recoil,
            "left": left,
            **(extra or {}),
            "units": {t["id"]: tpatch, u["id"]: upatch},
        },
    )
    if ones:  # the usual check when a 1 is rolled: leaders with either unit (NW-32, house)
        for side, lab in ((u["side"], u_at), (t["side"], t_at)):
            death_checks(b, lab, side, "a 1 was rolled")
    for side, lab, p in ((t["side"], t_at, tpatch), (u["side"], u_at, upatch)):
        if p.get("status") == "destroyed":
            orphaned_leaders(b, side, lab)


def death_checks(b: Battle, lab: str, side: str, why: str) -> None:
    """House death check: a d6 for each leader in the hex; he falls on a 1."""
    for ldr in sorted(b.leaders_at(lab, side), key=lambda x: x["id"]):
        die = b.d6()
        dead = die == 1
        b.emit(
            "leader_check",
            {
                "leader": ldr["id"],
                "die": die,
                "killed": dead,
                "why": why,
                "leaders": {ldr["id"]: {"status": "killed", "hex": None}} if dead else {},
            },
        )


def orphaned_leaders(b: Battle, side: str, lab: str) -> None:
    """NW-39: when the unit a leader is with is destroyed (and no friend is left in the hex), the
    leader checks first; a survivor goes to the nearest hex holding a friend (house), or leaves
    the field if there is none."""
    if any(o["side"] == side for o in b.at(b.h(lab))):
        return
    death_checks(b, lab, side, f"the unit at {lab} was destroyed (NW-39)")
    for ldr in sorted(b.leaders_at(lab, side), key=lambda x: x["id"]):
        friends = sorted((C.distance(b.h(lab), b.h(o["hex"])), o["hex"]) for o in b.active(side))
        to = friends[0][1] if friends else None
        b.emit(
            "leader_retreats",
            {
                "leader": ldr["id"],
                "from": lab,
                "to": to,
                "leaders": {ldr["id"]: {"hex": to, "status": "active" if to else "left"}},
            },
        )
