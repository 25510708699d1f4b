"""Attacks (WW-21..29, WW-37/38, WW-41, WW-52/53): rolls, wound allocation, machine damage.

An attack is a D10 against ``attack_target(strength)``; a hit is saved by a defence roll
against the target's defence (squads: profile defence + cover; machines: armour), except
that armour-piercing attacks get no save from light armour (WW-24) and heavy armour cannot be
hurt by anything else (WW-25). An unsaved hit removes a soldier, or makes a machine roll on
the damage table. ``Strike`` gathers what one activation did to each unit, for fear tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.hex import coords as C

from .battle import Battle
from .data import (
    ACCURACY,
    CREW_ATTACK,
    DEFENCE_TARGET,
    FRAGMENT_STRENGTH,
    MELEE,
    WEAPONS,
    attack_target,
    damage_result,
    friendly_fire_limit,
)
from .morale import pinned

CREW_DEFENCE = 2


@dataclass
class Strike:
    """Bookkeeping of one activation: dangerous attacks per unit and fear factors per unit."""

    dangerous: dict[str, Any] = field(default_factory=dict)
    soldiers: dict[str, Any] = field(default_factory=dict)  # squad sizes when first attacked in the activation
    factors: dict[str, Any] = field(default_factory=dict)
    destroyed: list[Any] = field(default_factory=list)

    def fear(self, uid: str, factor: int) -> None:
        self.factors.setdefault(uid, set()).add(factor)


def allocation(u: dict[str, Any], n: int, aim: str | None = None, pool: list[int] | None = None) -> list[int]:
    """WW-27..29: which soldier receives each of ``n`` attacks. The owner's priority roles
    are hit last (the first named last of all); aimed attacks go first to the ``aim`` role.
    Attacks are spread as evenly as possible: attack i goes to the i-th soldier in that order,
    cycling. ``pool``: only these soldiers can be reached (those inside a building or machine)."""
    roles = u["models"]
    prio = u.get("priority") or []

    def protection(i: int) -> tuple[int, int, int]:
        r = roles[i]
        first = 0 if aim and r == aim else 1
        return (first, len(prio) - prio.index(r) if r in prio else 0, i)

    order = sorted(range(len(roles)) if pool is None else pool, key=protection)
    return [order[i % len(order)] for i in range(n)] if order else []


def _hit(b: Battle, strength: int, rolls: list[int], pre_hit: bool) -> bool:
    """One attack roll (WW-21), kept in ``rolls``; a hit made elsewhere (redirected) counts as 10."""
    r = 10 if pre_hit else b.roll()
    rolls.append(r)
    return r >= attack_target(strength)


def _squad_defence(b: Battle, u: dict[str, Any], melee: bool, props: Sequence[str]) -> int:
    cover = b.in_cover(u)
    if melee and b.terrain(u["hex"]) != "building":
        cover = 0
    if "incendiary" in props:
        cover = 0
    return int(b.profile(u)["defence"]) + cover


def attack_squad(
    b: Battle,
    by: dict[str, Any],
    target: dict[str, Any],
    weapon: str,
    n: int,
    strength: int,
    props: Sequence[str],
    strike: Strike,
    aim: str | None = None,
    melee: bool = False,
    pre_hit: bool = False,
    pool: list[int] | None = None,
) -> list[int]:
    """``n`` attacks (or ``n`` hits already made, ``pre_hit``) on a squad; returns the indices
    (in the squad before the attack) of the soldiers it lost."""
    if n <= 0 or target["status"] != "active" or pool == []:
        return []
    strike.soldiers.setdefault(target["id"], len(target["models"]))
    order = allocation(target, n, aim if "aimed" in props else None, pool)
    friends = [i for i in target["locked"] if b.unit(i)["side"] == by["side"] and b.unit(i)["status"] == "active"]
    ap = "ap" in props
    need_def = DEFENCE_TARGET[_squad_defence(b, target, melee, props)]
    hits = saved = stray = 0
    removed: set[int] = set()
    rolls: list[int] = []
    for i in range(n):
        if not _hit(b, strength, rolls, pre_hit):
            continue
        hits += 1
        if friends and not melee and b.roll() <= friendly_fire_limit(props):
            stray += 1  # WW-41: the hit lands among your own troops in the melee
            continue
        if order[i] in removed:
            continue  # allocated before rolling (WW-27): a second attack on a fallen soldier is lost
        if not ap and b.roll() >= need_def:
            saved += 1
            continue
        removed.add(order[i])
    strike.dangerous[target["id"]] = strike.dangerous.get(target["id"], 0) + hits
    left = [r for i, r in enumerate(target["models"]) if i not in removed]
    patch: dict[str, Any] = {"models": left}
    if not left:
        patch["status"] = "destroyed"
        strike.destroyed.append(target["id"])
    lost = sorted(target["models"][i] for i in removed)
    b.emit(
        "attacked",
        {
            "by": by["id"],
            "target": target["id"],
            "weapon": weapon,
            "strength": strength,
            "attacks": n,
            "rolls": rolls,
            "hits": hits,
            "saved": saved,
            "stray": stray,
            "lost": lost,
            "left": len(left),
            "units": {target["id"]: patch},
        },
        (by["id"], target["id"]),
    )
    _heavy_losses(b, target["id"], strike)
    if stray:
        attack_any(b, by, b.unit(friends[0]), weapon, stray, strength, props, strike, pre_hit=True)
    return sorted(removed)


def _heavy_losses(b: Battle, uid: str, strike: Strike) -> None:
    u = b.unit(uid)
    if u["status"] == "active" and not u.get("halved") and 2 * len(u["models"]) <= u["start"]:
        b.emit("halved", {"unit": uid, "units": {uid: {"halved": True}}}, (uid,))
        strike.fear(uid, 1)


def attack_machine(
    b: Battle,
    by: dict[str, Any],
    target: dict[str, Any],
    weapon: str,
    n: int,
    strength: int,
    props: Sequence[str],
    strike: Strike,
    pre_hit: bool = False,
) -> None:
    prof = b.profile(target)
    ap = "ap" in props
    if prof["heavy"] and not ap:
        b.emit(
            "no_effect",
            {
                "by": by["id"],
                "target": target["id"],
                "weapon": weapon,
                "why": "heavy armour is immune to weapons that are not armour-piercing (WW-25)",
            },
            (by["id"], target["id"]),
        )
        return
    need = DEFENCE_TARGET[prof["armour"]]
    friends = [i for i in target["locked"] if b.unit(i)["side"] == by["side"] and b.unit(i)["status"] == "active"]
    rolls: list[int] = []
    hits, saved, stray = 0, 0, 0
    for _ in range(n):
        if not _hit(b, strength, rolls, pre_hit):
            continue
        hits += 1
        if friends and not pre_hit and b.roll() <= friendly_fire_limit(props):
            stray += 1  # WW-41, as for squads: the machine is locked in melee with your own troops
            continue
        if (prof["heavy"] or not ap) and b.roll() >= need:
            saved += 1
    b.emit(
        "machine_attacked",
        {
            "by": by["id"],
            "target": target["id"],
            "weapon": weapon,
            "strength": strength,
            "attacks": n,
            "rolls": rolls,
            "hits": hits,
            "saved": saved,
            "stray": stray,
        },
        (by["id"], target["id"]),
    )
    if stray:
        attack_any(b, by, b.unit(friends[0]), weapon, stray, strength, props, strike, pre_hit=True)
    for _ in range(hits - saved - stray):  # each unsaved hit rolls on the damage table, until the machine is a wreck
        if b.unit(target["id"])["status"] not in ("active", "abandoned"):
            break
        damage(b, by, b.unit(target["id"]), strength, strike)


def attack_any(
    b: Battle,
    by: dict[str, Any],
    target: dict[str, Any],
    weapon: str,
    n: int,
    strength: int,
    props: Sequence[str],
    strike: Strike,
    aim: str | None = None,
    melee: bool = False,
    pre_hit: bool = False,
) -> None:
    if target["kind"] == "squad":
        attack_squad(b, by, target, weapon, n, strength, props, strike, aim, melee, pre_hit)
    else:
        attack_machine(b, by, target, weapon, n, strength, props, strike, pre_hit)


# -- machine damage (WW-52/53) ------------------------------------------------------------------


def crew_attacks(b: Battle, m: dict[str, Any], n: int, stun: bool, roles: list[str] | None = None) -> dict[str, Any]:
    """``n`` strength-5 attacks on the crew (one each, cycling; ``roles`` first). Returns the patch."""
    crew = list(m["crew"])
    stunned = list(m["crew_stunned"])
    order = sorted(range(len(crew)), key=lambda i: (0 if roles and crew[i] in roles else 1, i))
    hit_idx = []
    for k in range(min(n, len(order)) if order else 0):
        if b.roll() >= attack_target(CREW_ATTACK) and b.roll() < DEFENCE_TARGET[CREW_DEFENCE]:
            hit_idx.append(order[k])
    if stun:
        stunned += [crew[i] for i in hit_idx]
        return {"crew_stunned": stunned}
    for i in sorted(hit_idx, reverse=True):
        role = crew.pop(i)
        if role in stunned:
            stunned.remove(role)
    return {"crew": crew, "crew_stunned": stunned}


def damage(
    b: Battle, by: dict[str, Any], m: dict[str, Any], strength: int, strike: Strike, roll: int | None = None
) -> str:
    """Roll on the damage table and apply the result; returns its name."""
    roll = roll or b.roll()
    modified, result = damage_result(roll, strength, b.profile(m)["armour"])
    patch: dict[str, Any] = {}
    if result == "concussion":
        patch = crew_attacks(b, m, b.dice("D3"), stun=True)
        if not m["crew"] and m["profile"] == "automaton":
            patch["stunned"] = 1  # no crew to stun: the automaton misses its next activation
    elif result == "weapon":
        if m["weapons"]:
            patch["weapons"] = m["weapons"][1:]  # the main (first) weapon goes first
        patch.update(crew_attacks(b, m, 1, stun=False, roles=["gunner"]))
    elif result == "engine":
        patch["immobile"] = True
        patch.update(crew_attacks(b, m, 1, stun=False, roles=["pilot", "driver"]))
    elif result == "fire":
        patch["burning"] = True
        patch.update(crew_attacks(b, m, b.dice("D3"), stun=False))
    else:
        patch.update(crew_attacks(b, m, b.dice("D3"), stun=False))
        patch["status"] = "wreck"
    crew = patch.get("crew", m["crew"])
    if result != "explosion" and b.profile(m)["crew"] and not crew:
        patch["status"] = "abandoned"  # WW-32: the machine stops; it may be captured
    b.emit(
        "damaged",
        {
            "target": m["id"],
            "by": by["id"],
            "roll": roll,
            "modified": modified,
            "result": result,
            "crew_left": len(crew),
            "units": {m["id"]: patch},
        },
        (m["id"],),
    )
    if patch.get("status") in ("wreck", "abandoned"):
        strike.destroyed.append(m["id"])
    if result == "explosion":
        _explosion(b, b.unit(m["id"]), strike)
    if result == "engine" and m["kind"] == "aircraft":
        air_crash(b, b.unit(m["id"]), strike)
    return result


def _explosion(b: Battle, m: dict[str, Any], strike: Strike) -> None:
    """WW-52 9-10: squads in contact take D3 fragment attacks of strength 3; the surviving crew
    bail out as a squad beside the wreck if there is room, else they are lost (house)."""
    for uid in sorted(set(m["locked"]) | {o["id"] for o in b.occupants(m["hex"] or "") if o["kind"] == "squad"}):
        s = b.unit(uid)
        if s["kind"] == "squad" and s["status"] == "active":
            attack_squad(b, m, s, "fragments", b.dice("D3"), FRAGMENT_STRENGTH, ["fragments"], strike)
    crew = m["crew"]
    if not crew or not m["hex"]:
        return
    for n in sorted(C.label(h) for h in C.neighbours(C.parse_label(m["hex"])) if h in b.map):
        bailed = {
            "id": f"{m['id']}C",
            "side": m["side"],
            "profile": "infantry",
            "name": f"crew of {m['name']}",
            "kind": "squad",
            "hex": n,
            "morale": 2,
            "hidden": False,
            "status": "active",
            "bonus": False,
            "penalty": False,
            "acted": ["movement", "shooting", "melee"],
            "moved": 0,
            "mode": None,
            "locked": [],
            "priority": [],
            "stunned": 0,
            "charged": False,
            "surprise_seen": [],
            "models": ["rifle"] * len(crew),
            "start": len(crew),
            "shot_from": [],
        }
        if b.terrain(n) != "water" and not b.enemies_in(m, n) and not b.refusal(bailed, n):
            b.emit("bailed_out", {"unit": bailed["id"], "from": m["id"], "at": n, "units": {bailed["id"]: bailed}})
            return


def air_crash(b: Battle, a: dict[str, Any], strike: Strike) -> None:
    """House (WW-51 "air crashes"): the aircraft falls D6 from where it flew (direction as for
    scatter, 1 = north, clockwise) and is lost with its crew; every unit in that hex takes D3
    attacks of strength 5 and a fear test (a falling aircraft, WW-61 #4)."""
    roll = b.roll(6)
    land = C.neighbour(C.parse_label(a["hex"]), roll - 1) if a["hex"] else None
    where = C.label(land) if land is not None and land in b.map else None
    b.emit(
        "air_crash",
        {"unit": a["id"], "d6": roll, "at": where, "units": {a["id"]: {"status": "wreck", "hex": None, "crew": []}}},
    )
    if where:
        for u in b.occupants(where):
            if u["status"] == "active":
                attack_any(b, a, u, "crash", b.dice("D3"), CREW_ATTACK, [], strike)
                strike.fear(u["id"], 4)


# -- scatter (WW-37) ---------------------------------------------------------------------------------


def scatter(b: Battle, aimed: str) -> tuple[int, int, str | None]:
    """Aiming roll; on a miss a D6 gives the direction to the adjacent hex the shell falls in.
    Convention: 1 = north (12 o'clock) and on clockwise (2 = NE … 6 = NW), the same for both
    players. Returns (aim roll, d6 or 0, landing hex or None when off the map)."""
    aim = b.roll()
    if aim >= ACCURACY:
        return aim, 0, aimed
    d6 = b.roll(6)
    land = C.neighbour(C.parse_label(aimed), d6 - 1)
    return aim, d6, (C.label(land) if land in b.map else None)


def explosive(b: Battle, by: dict[str, Any], target: dict[str, Any], weapon: str, strike: Strike) -> None:
    """WW-37/38: (aim and scatter for low accuracy, then) the direct hit and the fragments.
    House: a direct hit that hits a squad kills one soldier outright (no save); fragments are
    D3 or D6 strength-3 attacks on squads only. On a scatter everything in the landing hex,
    friend or foe, takes the shell."""
    w = WEAPONS[weapon]
    victims = [target]
    if "low_accuracy" in w["props"]:
        aim, d6, land = scatter(b, target["hex"])
        b.emit(
            "aimed",
            {"by": by["id"], "weapon": weapon, "at": target["hex"], "roll": aim, "d6": d6, "lands": land},
            (by["id"],),
        )
        if land != target["hex"]:
            victims = list(b.occupants(land)) if land else []
    for v in victims:
        if v["status"] not in ("active", "abandoned"):
            continue
        if "terrifying" in w["props"]:
            strike.fear(v["id"], 3)
        if v["kind"] == "squad":
            strike.soldiers.setdefault(v["id"], len(v["models"]))
            direct = b.roll()
            killed = direct >= attack_target(w["strength"])
            if killed:
                strike.dangerous[v["id"]] = strike.dangerous.get(v["id"], 0) + 1
                idx = allocation(v, 1)[0]
                left = v["models"][:idx] + v["models"][idx + 1 :]
                patch = {"models": left, **({"status": "destroyed"} if not left else {})}
                if not left:
                    strike.destroyed.append(v["id"])
                b.emit(
                    "direct_hit",
                    {
                        "by": by["id"],
                        "target": v["id"],
                        "weapon": weapon,
                        "roll": direct,
                        "lost": [v["models"][idx]],
                        "units": {v["id"]: patch},
                    },
                    (by["id"], v["id"]),
                )
                _heavy_losses(b, v["id"], strike)
            else:
                b.emit(
                    "direct_hit",
                    {"by": by["id"], "target": v["id"], "weapon": weapon, "roll": direct, "lost": []},
                    (by["id"], v["id"]),
                )
            v = b.unit(v["id"])
            if v["status"] == "active":
                attack_squad(
                    b, by, v, "fragments", b.dice(w.get("fragments", "D3")), FRAGMENT_STRENGTH, ["fragments"], strike
                )
        else:
            attack_machine(b, by, v, weapon, 1, w["strength"], w["props"], strike)


def melee_strength(b: Battle, u: dict[str, Any]) -> int:
    return MELEE[b.profile(u).get("melee", "crew")]


def fear_from_strike(b: Battle, strike: Strike) -> None:
    """Turn what an activation did into fear factors: pinned (#5), friends destroyed (#2)."""
    for uid, n in strike.dangerous.items():
        u = b.unit(uid)
        if u["kind"] == "squad" and u["status"] == "active" and pinned(n, strike.soldiers.get(uid, len(u["models"]))):
            strike.fear(uid, 5)
    for dead in strike.destroyed:
        d = b.unit(dead)
        where = d["hex"]
        if not where:
            continue
        for _, f in b.around(where, 2):
            if f["id"] != dead and f["side"] == d["side"] and f["status"] == "active":
                strike.fear(f["id"], 2)
