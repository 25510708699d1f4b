"""Storming buildings and boarding machines (WW-44..50), capture (WW-32), ramming (WW-51 house).

An infantry ``attack`` on an enemy squad in a building hex is a storm; on an enemy machine
(or an abandoned one) it is boarding. Both go: doors or hatch (one attempt per turn, 8+),
D3 soldiers per entrance get in (the owner's least protected first), assault weapons, then a
melee inside where only those inside fight and can be hit. If the defenders are wiped out the
stormers take the building (the squad moves in) or the boarders become the machine's crew
(it changes sides). Otherwise the attackers must come out again: D3 per entrance make it, the
rest are lost (WW-48). Machines have one entrance; heavy machines an armoured hatch.
"""

from __future__ import annotations

from typing import Any

from .battle import Battle
from .combat import Strike, allocation, attack_squad, damage, melee_strength
from .data import (
    DEFENCE_TARGET,
    DOOR_BREAK,
    MELEE,
    PROFILES,
    WEAPONS,
    attack_target,
    boarding_target,
)

CREW_DEFENCE = 2


def _shift(pool: list[int], removed: list[int]) -> list[int]:
    """Indices of the soldiers still inside after ``removed`` (indices before removal) fell."""
    gone = set(removed)
    return [i - sum(1 for r in removed if r < i) for i in pool if i not in gone]


def _doors(b: Battle, u: dict[str, Any], where: str, reinforced: bool, machine: dict[str, Any] | None) -> bool:
    """WW-46: a reinforced door or armoured hatch must be broken first, one try a turn."""
    if not reinforced:
        return True
    turn = b.state["turn"]
    if machine is not None:
        if machine.get("hatch_open"):
            return True
        tried = machine.get("hatch_tried") or {}
    else:
        state = b.state["doors"].get(where, {})
        if state.get("open"):
            return True
        tried = state.get("tried", {})
    if tried.get(u["side"]) == turn:
        b.fail(u["side"], f"attack {u['id']}", f"{u['side']} has already tried the door at {where} this turn (WW-46)")
        return False
    roll = b.roll()
    opened = roll >= DOOR_BREAK
    tried = {**tried, u["side"]: turn}
    payload = {"unit": u["id"], "at": where, "roll": roll, "open": opened}
    if machine is not None:
        payload["units"] = {machine["id"]: {"hatch_open": opened, "hatch_tried": tried}}
    else:
        payload["doors"] = {**b.state["doors"], where: {"open": opened, "tried": tried}}
    b.emit("door_forced", payload, (u["id"],))
    return opened


def _enter(b: Battle, u: dict[str, Any], entrances: int, where: str) -> list[int]:
    rolls = [b.dice("D3") for _ in range(entrances)]
    k = min(sum(rolls), len(u["models"]))
    inside = sorted(allocation(u, k)) if k else []
    b.emit("entered", {"unit": u["id"], "at": where, "d3": rolls, "soldiers": k}, (u["id"],))
    return inside


def _come_out(b: Battle, u: dict[str, Any], inside: list[int], entrances: int, where: str) -> None:
    """WW-48: D3 per entrance get out; the others inside are killed or captured."""
    if not inside or u["status"] != "active":
        return
    rolls = [b.dice("D3") for _ in range(entrances)]
    stuck = inside[sum(rolls) :]
    left = [r for i, r in enumerate(u["models"]) if i not in set(stuck)]
    patch = {"models": left, **({"status": "destroyed"} if not left else {})}
    b.emit(
        "came_out",
        {
            "unit": u["id"],
            "at": where,
            "d3": rolls,
            "out": len(inside) - len(stuck),
            "lost": [u["models"][i] for i in stuck],
            "units": {u["id"]: patch},
        },
        (u["id"],),
    )


def _assault_weapons(b: Battle, u: dict[str, Any], t: dict[str, Any], inside: list[int], strike: Strike) -> None:
    prof = b.profile(u)
    for role in sorted({u["models"][i] for i in inside}):
        w = prof["models"][role]
        spec = WEAPONS[w]
        if "assault" in spec["props"] and b.unit(t["id"])["status"] == "active" and t["kind"] == "squad":
            if "terrifying" in spec["props"]:
                strike.fear(t["id"], 3)
            n = sum(1 for i in inside if u["models"][i] == role) * spec["attacks"]
            attack_squad(b, u, b.unit(t["id"]), w, n, spec["strength"], spec["props"], strike)


def storm(b: Battle, u: dict[str, Any], t: dict[str, Any], strike: Strike) -> None:
    where = t["hex"]
    spec = b.state["scenario"]["buildings"].get(where, {"entrances": 1, "reinforced": False})
    if not _doors(b, u, where, spec["reinforced"], None):
        return
    inside = _enter(b, u, spec["entrances"], where)
    _assault_weapons(b, u, t, inside, strike)
    if b.unit(t["id"])["status"] == "active":
        attack_squad(b, u, b.unit(t["id"]), "melee", len(inside), melee_strength(b, u), [], strike, melee=True)
    t = b.unit(t["id"])
    if t["status"] == "active" and t["morale"] > 1:
        lost = attack_squad(
            b, t, b.unit(u["id"]), "melee", len(t["models"]), melee_strength(b, t), [], strike, melee=True, pool=inside
        )
        inside = _shift(inside, lost)
    u, t = b.unit(u["id"]), b.unit(t["id"])
    if u["status"] != "active":
        return
    if t["status"] != "active" and not b.enemies_in(u, where):
        b.emit(
            "moved",
            {
                "unit": u["id"],
                "path": [u["hex"], where],
                "mode": "storm",
                "short": None,
                "order": f"storm {where}",
                "units": {u["id"]: {"hex": where, "locked": []}},
            },
            (u["id"],),
        )
    else:
        _come_out(b, u, inside, spec["entrances"], where)


def _crew_fight(b: Battle, u: dict[str, Any], m: dict[str, Any], inside: list[int], strike: Strike) -> list[int]:
    """Boarders and crew fight inside: returns who of the boarders is still inside."""
    crew = list(m["crew"])
    stunned = list(m["crew_stunned"])
    order = sorted(range(len(crew)), key=lambda i: (crew[i] in stunned, i))  # the fit ones face them first
    need = attack_target(melee_strength(b, u))
    killed: set[int] = set()
    rolls: list[int] = []
    for _k in range(len(inside)):
        if len(killed) == len(crew):
            break
        r = b.roll()
        rolls.append(r)
        victim = next(i for i in order if i not in killed)
        if r >= need and b.roll() < DEFENCE_TARGET[CREW_DEFENCE]:
            killed.add(victim)
    left = [c for i, c in enumerate(crew) if i not in killed]
    for i in killed:
        if crew[i] in stunned:
            stunned.remove(crew[i])
    b.emit(
        "crew_fight",
        {
            "unit": u["id"],
            "machine": m["id"],
            "rolls": rolls,
            "crew_lost": len(killed),
            "crew_left": len(left),
            "units": {m["id"]: {"crew": left, "crew_stunned": stunned}},
        },
        (u["id"], m["id"]),
    )
    fit = len(left) - len(stunned)  # stunned crew cannot fight back
    if fit > 0:
        lost = attack_squad(b, m, b.unit(u["id"]), "melee", fit, MELEE["crew"], [], strike, melee=True, pool=inside)
        inside = _shift(inside, lost)
    return inside


def _agility(b: Battle, u: dict[str, Any], m: dict[str, Any], inside: list[int]) -> list[int]:
    """WW-50: boarding a machine that moved: 6+ (≤ 2 hexes) or 8+; a failure is an ordinary
    wound that the soldier's defence may save, and that soldier does not get in."""
    need = boarding_target(m["moved"]) if m["status"] == "active" else None
    if need is None:
        return inside
    save = DEFENCE_TARGET[PROFILES[u["profile"]]["defence"]]
    rolls, failed, dead = [], [], []
    for i in inside:
        r = b.roll()
        rolls.append(r)
        if r < need:
            failed.append(i)
            if b.roll() < save:
                dead.append(i)
    left = [r for i, r in enumerate(u["models"]) if i not in set(dead)]
    b.emit(
        "agility",
        {
            "unit": u["id"],
            "machine": m["id"],
            "need": need,
            "rolls": rolls,
            "failed": len(failed),
            "lost": len(dead),
            "units": {u["id"]: {"models": left, **({"status": "destroyed"} if not left else {})}},
        },
        (u["id"],),
    )
    return _shift([i for i in inside if i not in set(failed)], dead)


def board(b: Battle, u: dict[str, Any], m: dict[str, Any], strike: Strike) -> None:
    prof = b.profile(m)
    if not _doors(b, u, m["hex"], prof["heavy"], m):
        return
    inside = _enter(b, u, 1, m["hex"])
    inside = _agility(b, u, b.unit(m["id"]), inside)
    if inside and b.unit(m["id"])["crew"]:
        inside = _crew_fight(b, b.unit(u["id"]), b.unit(m["id"]), inside, strike)
    u, m = b.unit(u["id"]), b.unit(m["id"])
    if u["status"] != "active":
        return
    if m["crew"]:
        return _come_out(b, u, inside, 1, m["hex"])
    if not inside:
        return
    # WW-32: the machine is taken; those inside become its crew
    new_crew = list(prof["crew"])[: len(inside)]
    left = [r for i, r in enumerate(u["models"]) if i not in set(inside[: len(new_crew)])]
    patches = {
        m["id"]: {
            "side": u["side"],
            "captured_from": m["side"],
            "crew": new_crew,
            "crew_stunned": [],
            "status": "active",
            "locked": [],
            "acted": ["movement", "shooting", "melee"],
            "hidden": False,
            "burning": m["burning"],
        },
        u["id"]: {"models": left, **({"status": "crewing"} if not left else {})},
    }
    b.emit(
        "captured", {"unit": u["id"], "machine": m["id"], "crew": len(new_crew), "units": patches}, (u["id"], m["id"])
    )


def can_board(u: dict[str, Any], m: dict[str, Any]) -> str | None:
    if u["profile"] != "infantry":
        return "only infantry storm buildings and board machines (WW-44)"
    if m["kind"] != "machine" or m["profile"] == "automaton":
        return f"{m['id']} cannot be boarded (an automaton has no crew to fight or replace)"
    return None


# -- ramming (WW-51, house) ------------------------------------------------------------------------

RAM_ATTACKS_PER_HEX = 2
RAM_STRENGTH = 5


def ram_effects(b: Battle, r: dict[str, Any], t: dict[str, Any], moved: int, strike: Strike) -> None:
    """A machine that moved ``moved`` hexes at speed drives into an adjacent enemy: a squad takes
    2 attacks per hex moved at strength 5 and a fear test (WW-61 #4); a machine rolls on the damage
    table as if hit by a weapon of strength 2 + hexes moved (+2 if the rammer is heavy), and the
    rammer rolls as if hit with 2 + hexes moved (+2 if the target is heavy)."""

    b.emit("rammed", {"unit": r["id"], "target": t["id"], "moved": moved}, (r["id"], t["id"]))
    if t["kind"] == "squad":
        strike.fear(t["id"], 4)
        attack_squad(b, r, t, "ram", RAM_ATTACKS_PER_HEX * moved, RAM_STRENGTH, [], strike)
        return
    heavy = PROFILES[r["profile"]].get("heavy"), PROFILES[t["profile"]].get("heavy")
    damage(b, r, t, 2 + moved + (2 if heavy[0] else 0), strike)
    if b.unit(r["id"])["status"] == "active":
        damage(b, t, b.unit(r["id"]), 2 + moved + (2 if heavy[1] else 0), strike)
