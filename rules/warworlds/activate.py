"""Carrying out one activation: a move, a volley or a melee, re-checked when its turn comes."""

from __future__ import annotations

from typing import Any

from rules.hex import coords as C

from .assault import board, can_board, ram_effects, storm
from .battle import Battle, other, rules_version
from .combat import Strike, attack_any, explosive, fear_from_strike, melee_strength
from .data import COVER_BONUS, WEAPONS
from .morale import fear_tests, overwhelmed
from .movement import allowance, flee_target, hidden_at_the_doors, plan, toward_enemy
from .orders import Order


def can_crew(u: dict[str, Any]) -> bool:
    """A machine acts while one crew member is neither lost nor stunned (automatons: not stunned)."""
    if u["kind"] == "squad":
        return True
    if not u["crew"] and u["profile"] == "automaton":
        return not u["stunned"]
    return len(u["crew"]) > len(u["crew_stunned"])


def _unlock(u: dict[str, Any], b: Battle) -> dict[str, Any]:
    """Patches that take ``u`` out of every melee it was locked in."""
    patches: dict[str, dict[str, Any]] = {u["id"]: {"locked": []}}
    for p in u["locked"]:
        patches[p] = {"locked": [x for x in b.unit(p)["locked"] if x != u["id"]]}
    return patches


# -- movement ---------------------------------------------------------------------------------


def why_not_move(b: Battle, u: dict[str, Any], o: Order) -> str | None:
    prof = b.profile(u)
    if u["status"] != "active":
        return f"{u['id']} is {u['status']}"
    if u["kind"] == "aircraft":
        return "aircraft are not moved on the map: they are placed beside their target when they fire (WW-20)"
    if u["morale"] == 1:
        return f"{u['id']} is in panic and flees by itself (WW-59)"
    if u.get("immobile"):
        return f"{u['id']}'s engine is wrecked: it cannot move"
    if not can_crew(u):
        return f"{u['id']} has no crew fit to drive it"
    if "movement" in u["acted"]:
        return f"{u['id']} has already moved this turn"
    mode = o.mode or next(iter(prof["moves"]))
    if mode not in prof["moves"]:
        return f"a {u['profile']} moves by {', '.join(prof['moves'])}, not {mode}"
    if o.bonus and not u["bonus"]:
        return f"{u['id']} has no bonus marker"
    return None


def move(b: Battle, o: Order) -> None:
    u = b.unit(o.unit)
    why = why_not_move(b, u, o)
    if why:
        return b.fail(u["side"], o.text, why)
    mode = o.mode or next(iter(b.profile(u)["moves"]))
    assert o.dest is not None  # the parser gives a move its destination
    if u["penalty"]:
        if toward_enemy(b, u, o.dest):
            return b.fail(
                u["side"], o.text, f"{u['id']} has a penalty marker: it may not move towards the enemy (WW-58)"
            )
        if b.in_cover(u) and not _cover_at(b, o.dest):
            return b.fail(u["side"], o.text, f"{u['id']} has a penalty marker: it may not leave cover (WW-58)")
    route, short = plan(b, u, o.dest, mode, allowance(b, u, mode, o.bonus))
    route, ambush, short = _into_hidden(b, u, route, short)
    while len(route) > 1 and b.refusal(u, route[-1]):
        route = route[:-1]
    _walk(b, u, route, mode, o.bonus, short, o.text)
    if ambush:
        b.reveal(ambush, f"{u['id']} ran into it")
    _spot(b, b.unit(u["id"]))


def ram(b: Battle, o: Order) -> None:
    """A machine drives at an enemy at its fast speed and rams it if it ends next to it."""
    u = b.unit(o.unit)
    why = why_not_move(b, u, o) or why_not_ram(b, u, b.state["units"].get(o.targets[0]))
    if why:
        return b.fail(u["side"], o.text, why)
    t = b.unit(o.targets[0])
    mode = b.profile(u)["fast"][0]
    route, short = plan(b, u, t["hex"], mode, allowance(b, u, mode, o.bonus))
    _walk(b, u, route, mode, o.bonus, short, o.text)
    u = b.unit(u["id"])
    if b.dist(u["hex"], t["hex"]) != 1 or u["moved"] < 1:
        return b.fail(u["side"], o.text, f"{u['id']} did not reach {t['id']} at speed: no ramming")
    strike = Strike()
    ram_effects(b, u, t, u["moved"], strike)
    fear_from_strike(b, strike)
    fear_tests(b, strike.factors)


def why_not_ram(b: Battle, u: dict[str, Any], t: dict[str, Any] | None) -> str | None:
    if u["kind"] != "machine" or not b.profile(u)["fast"]:
        return f"{u['id']} is not a machine that can ram"
    if t is None or t["side"] == u["side"] or not b.visible_to(u["side"], t) or t["status"] != "active" or not t["hex"]:
        return "no such enemy unit to ram"
    return None


def _cover_at(b: Battle, hx: str) -> bool:

    return COVER_BONUS.get(b.terrain(hx), 0) > 0


def _walk(
    b: Battle, u: dict[str, Any], route: list[str], mode: str, bonus: bool, short: str | None, order: str
) -> None:
    patches = _unlock(u, b) if len(route) > 1 else {}
    patches[u["id"]] = {
        **patches.get(u["id"], {}),
        "hex": route[-1],
        "moved": len(route) - 1,
        "mode": mode,
        "acted": u["acted"] + ["movement"],
        "bonus": u["bonus"] and not bonus,
    }
    if u["hidden"] and len(route) > 1:
        b.reveal(u, "it moved")
    b.emit(
        "moved",
        {"unit": u["id"], "path": route, "mode": mode, "short": short, "order": order, "units": patches},
        (u["id"],),
    )


def _into_hidden(
    b: Battle, u: dict[str, Any], route: list[str], short: str | None
) -> tuple[list[str], dict[str, Any] | None, str | None]:
    """The route cut before the first hex where a hidden enemy stands (the mover, which planned
    through it unknowing, bumps into it), with that enemy and why it stopped short."""
    for i, hx in enumerate(route[1:], 1):
        hidden = [e for e in b.enemies_in(u, hx) if e["hidden"]]
        if hidden:
            return route[:i], hidden[0], f"ran into {hidden[0]['id']} hidden at {hx}"
    return route, None, short


def _spot(b: Battle, u: dict[str, Any]) -> None:
    """Hidden enemies next to where a unit stops are found (house)."""
    if u["status"] != "active" or not u["hex"]:
        return
    for n in sorted(C.label(h) for h in C.neighbours(C.parse_label(u["hex"])) if h in b.map):
        for e in b.enemies_in(u, n):
            if e["hidden"]:
                b.reveal(e, f"{u['id']} came next to it")


def flee(b: Battle, uid: str) -> None:
    """WW-59: a panicked unit runs as far from the enemy as it can; off the map it deserts;
    with nowhere to run it surrenders. From version 2 it runs into hidden enemies and spots them
    as any move does (version 1 walked through them)."""
    u = b.unit(uid)
    what, route = flee_target(b, u)
    if what == "stay":  # version 2: no enemy in sight to run from
        return
    if what == "surrender":
        if rules_version(b.state) >= 3:
            _found_at_the_doors(b, u)
        patches = _unlock(u, b)
        patches[uid] = {**patches[uid], "status": "surrendered"}
        b.emit("surrendered", {"unit": uid, "at": u["hex"], "units": patches}, (uid,))
        strike = Strike(destroyed=[uid])
        fear_from_strike(b, strike)
        return fear_tests(b, strike.factors)
    mode = max(b.profile(u)["moves"], key=lambda m: b.profile(u)["moves"][m])
    assert route is not None  # only a surrender has no route
    if rules_version(b.state) < 2:
        _walk(b, u, route, mode, False, None, "flee")
        if what == "desert":
            b.emit("deserted", {"unit": uid, "at": route[-1], "units": {uid: {"status": "deserted", "hex": None}}})
        return
    route, ambush, short = _into_hidden(b, u, route, None)
    if ambush:  # stopped short of the edge or the hex it ran for, where it fits
        while len(route) > 1 and b.refusal(u, route[-1]):
            route = route[:-1]
    _walk(b, u, route, mode, False, short, "flee")
    if ambush:
        b.reveal(ambush, f"{uid} ran into it")
    elif what == "desert":
        b.emit("deserted", {"unit": uid, "at": route[-1], "units": {uid: {"status": "deserted", "hex": None}}})
        return
    _spot(b, b.unit(uid))


def _found_at_the_doors(b: Battle, u: dict[str, Any]) -> None:
    """WW-49, version 3: hidden enemies that hold a building's last ways out are found there, so the
    garrison's surrender tells nothing the log does not (a hidden garrison shows itself trying them)."""
    found = hidden_at_the_doors(b, u)
    if found and u["hidden"]:
        b.reveal(u, f"it looked for a way out of {u['hex']}")
    for e in found:
        b.reveal(e, f"it held a way out of {u['hex']}")


# -- shooting -----------------------------------------------------------------------------------


def _fast(b: Battle, u: dict[str, Any]) -> bool:
    return u["mode"] in b.profile(u)["fast"] and u["moved"] > 0


def why_not_shoot(b: Battle, u: dict[str, Any], o: Order | None = None) -> str | None:
    if u["status"] != "active":
        return f"{u['id']} is {u['status']}"
    if u["morale"] == 1:
        return f"{u['id']} is in panic: it does not fight (WW-59)"
    if "shooting" in u["acted"]:
        return f"{u['id']} has already fired this turn"
    if _fast(b, u):
        return f"{u['id']} moved at {u['mode']} this turn: it cannot shoot (WW-12)"
    if not can_crew(u):
        return f"{u['id']} has no crew fit to fight"
    if o is not None and o.bonus and not u["bonus"]:
        return f"{u['id']} has no bonus marker"
    return None


def volleys(b: Battle, u: dict[str, Any], t: dict[str, Any], only: str | None = None) -> list[tuple[str, int]]:
    """(weapon, models firing it) that can reach ``t`` now; empty when none can."""
    if not t["hex"] or t["status"] not in ("active", "abandoned"):
        return []
    air = u["kind"] == "aircraft"
    d = 1 if air else b.dist(u["hex"], t["hex"])
    seen = air or b.sees(u["hex"], t["hex"])
    prof = b.profile(u)

    def reaches(w: str) -> bool:
        spec = WEAPONS[w]
        return bool(spec["range"] >= d and (seen or "indirect" in spec["props"]) and (only is None or w == only))

    if u["kind"] != "squad":
        return [(w, 1) for w in u["weapons"] if reaches(w)]
    if (
        u.get("weapons")
        and len(u["models"]) >= 2
        and reaches(u["weapons"][0])
        and not (prof.get("no_fire_after_move") and u["moved"])
    ):
        return [(u["weapons"][0], 1)]  # the crew serve the gun (house: it needs two)
    counts: dict[str, int] = {}
    for role in u["models"]:
        w = prof["models"][role]
        if reaches(w):
            counts[w] = counts.get(w, 0) + 1
    return sorted(counts.items())


def pick_target(b: Battle, u: dict[str, Any], o: Order) -> tuple[dict[str, Any] | None, str]:
    reasons = []
    for tid in o.targets:
        t = b.state["units"].get(tid)
        if t is None or t["side"] == u["side"] or not b.visible_to(u["side"], t):
            reasons.append(f"{tid}: no such enemy unit in sight")
        elif t["status"] != "active" and t["status"] != "abandoned":
            reasons.append(f"{tid} is {t['status']}")
        elif t["kind"] == "aircraft" and not t["hex"]:
            reasons.append(f"{tid} is not over the field now")
        elif u["kind"] == "aircraft" and t["kind"] == "aircraft":
            reasons.append(f"{tid}: aircraft attack ground targets")
        elif not volleys(b, u, t, o.weapon):
            reasons.append(f"{tid} is out of range or out of sight" + (f" of {o.weapon}" if o.weapon else ""))
        else:
            return t, ""
    return None, "; ".join(reasons)


def _place_aircraft(b: Battle, a: dict[str, Any], t: dict[str, Any]) -> None:
    spots = sorted(C.label(h) for h in C.neighbours(C.parse_label(t["hex"])) if h in b.map)
    b.emit(
        "aircraft_placed",
        {"unit": a["id"], "at": spots[0], "target": t["id"], "units": {a["id"]: {"hex": spots[0]}}},
        (a["id"],),
    )


def shoot(b: Battle, o: Order) -> None:
    u = b.unit(o.unit)
    why = why_not_shoot(b, u, o)
    if why:
        return b.fail(u["side"], o.text, why)
    t, why = pick_target(b, u, o)
    if t is None:
        return b.fail(u["side"], o.text, why)
    strike = Strike()
    if u["hidden"]:
        b.reveal(u, "it opened fire")
        strike.fear(t["id"], 7)
    if u["kind"] == "aircraft":
        _place_aircraft(b, u, t)
    _crossfire(b, u, t, strike)
    for weapon, models in volleys(b, b.unit(u["id"]), t, o.weapon):
        spec = WEAPONS[weapon]
        target = b.unit(t["id"])
        if target["status"] not in ("active", "abandoned"):
            break
        if "explosive" in spec["props"]:
            explosive(b, u, target, weapon, strike)
            continue
        if "terrifying" in spec["props"]:
            strike.fear(t["id"], 3)
        n = models * spec["attacks"] * (2 if o.bonus else 1)
        attack_any(b, u, target, weapon, n, spec["strength"], spec["props"], strike, aim=o.aim)
    me = b.unit(u["id"])
    b.emit(
        "activated",
        {
            "unit": u["id"],
            "phase": "shooting",
            "units": {u["id"]: {"acted": me["acted"] + ["shooting"], "bonus": me["bonus"] and not o.bonus}},
        },
        (u["id"],),
    )
    fear_from_strike(b, strike)
    fear_tests(b, strike.factors)


def _crossfire(b: Battle, u: dict[str, Any], t: dict[str, Any], strike: Strike) -> None:
    """WW-61 #8: shot at from two or more directions this turn."""
    if not u["hex"] or not t["hex"] or u["hex"] == t["hex"]:
        return
    d = C.bearing(C.parse_label(t["hex"]), C.parse_label(u["hex"]))
    seen = t.get("shot_from", [])
    if d in seen:
        return
    b.emit("shot_from", {"unit": t["id"], "direction": d, "units": {t["id"]: {"shot_from": seen + [d]}}}, (t["id"],))
    if len(seen) == 1:
        strike.fear(t["id"], 8)


# -- melee ----------------------------------------------------------------------------------------


def why_not_fight(b: Battle, u: dict[str, Any], t: dict[str, Any] | None, o: Order | None = None) -> str | None:
    if u["status"] != "active":
        return f"{u['id']} is {u['status']}"
    if u["morale"] == 1:
        return f"{u['id']} is in panic: it does not fight (WW-59)"
    if u["penalty"]:
        return f"{u['id']} has a penalty marker: it may not attack in melee (WW-58)"
    if "melee" in u["acted"]:
        return f"{u['id']} has already fought this turn"
    if u["kind"] == "aircraft" or not can_crew(u):
        return f"{u['id']} cannot fight in melee"
    if u["kind"] == "machine" and b.profile(u).get("melee") is None:
        return f"a {u['profile']} has no melee attack"
    if o is not None and o.bonus and not u["bonus"]:
        return f"{u['id']} has no bonus marker"
    if (
        t is None
        or t["side"] == u["side"]
        or not b.visible_to(u["side"], t)
        or t["status"] not in ("active", "abandoned")
    ):
        return f"{o.targets[0] if o else '?'}: no such enemy unit to fight"
    if not t["hex"] or b.dist(u["hex"], t["hex"]) != 1:
        return f"{t['id']} is not adjacent to {u['id']} (WW-39)"
    if t["kind"] != "squad":
        return can_board(u, t)  # boarding (WW-44..50); heavy armour is otherwise immune (WW-25)
    if t["status"] != "active":
        return f"{t['id']} is {t['status']}"
    if u["kind"] != "squad" and b.terrain(t["hex"]) == "building":
        return f"a {u['profile']} cannot fight its way into a building (WW-31)"
    return None


def _charge(b: Battle, u: dict[str, Any], t: dict[str, Any]) -> tuple[int, int]:
    """WW-42: (+strength, extra attacks per model) for a charging squad."""
    if u["kind"] != "squad" or not _fast(b, u):
        return 0, 0
    if b.profile(u).get("mounted"):
        if "very_rough" in (b.terrain(u["hex"]), b.terrain(t["hex"])):
            return 0, 0  # WW-17: no charge from the gallop in very rough ground
        return 2, 1
    return 1, 0


def fight(b: Battle, o: Order) -> None:
    u = b.unit(o.unit)
    t = b.state["units"].get(o.targets[0])
    why = why_not_fight(b, u, t, o)
    if why:
        return b.fail(u["side"], o.text, why)
    strike = Strike()
    if u["hidden"]:
        b.reveal(u, "it attacked")
        strike.fear(t["id"], 7)
    if t["kind"] != "squad" or (u["kind"] == "squad" and b.terrain(t["hex"]) == "building"):
        b.emit(
            "melee",
            {
                "unit": u["id"],
                "target": t["id"],
                "charge": 0,
                "extra": 0,
                "storm": t["kind"] == "squad",
                "board": t["kind"] != "squad",
            },
            (u["id"], t["id"]),
        )
        (board if t["kind"] != "squad" else storm)(b, u, t, strike)
        me = b.unit(u["id"])
        if me["status"] == "active":
            b.emit(
                "activated",
                {"unit": u["id"], "phase": "melee", "units": {u["id"]: {"acted": me["acted"] + ["melee"]}}},
                (u["id"],),
            )
        fear_from_strike(b, strike)
        return fear_tests(b, strike.factors)
    if any(
        b.unit(p)["status"] == "active" and b.unit(p)["hex"] != u["hex"]
        for p in t["locked"]
        if b.unit(p)["side"] == u["side"] and p != u["id"]
    ):
        strike.fear(t["id"], 9)  # already locked in melee, now attacked from another direction
    bonus_str, extra = _charge(b, u, t)
    if bonus_str and b.profile(u).get("mounted"):
        strike.fear(t["id"], 4)
    if u["kind"] == "squad":  # WW-43: assault weapons just before the attack
        prof = b.profile(u)
        for role in sorted(set(u["models"])):
            w = prof["models"][role]
            spec = WEAPONS[w]
            if "assault" in spec["props"] and b.unit(t["id"])["status"] == "active":
                if "terrifying" in spec["props"]:
                    strike.fear(t["id"], 3)
                n = u["models"].count(role) * spec["attacks"]
                attack_any(b, u, b.unit(t["id"]), w, n, spec["strength"], spec["props"], strike)
    mult = 2 if o.bonus else 1
    n = (len(u["models"]) if u["kind"] == "squad" else 2) * mult
    b.emit("melee", {"unit": u["id"], "target": t["id"], "charge": bonus_str, "extra": extra}, (u["id"], t["id"]))
    attack_any(b, u, b.unit(t["id"]), "melee", n, melee_strength(b, u) + bonus_str, [], strike, melee=True)
    if extra:
        attack_any(
            b, u, b.unit(t["id"]), "horses", len(u["models"]) * extra, melee_strength(b, u), [], strike, melee=True
        )
    t = b.unit(t["id"])
    if t["status"] == "active" and t["morale"] > 1:  # the defender strikes back; a panicked one does not
        attack_any(b, t, b.unit(u["id"]), "melee", len(t["models"]), melee_strength(b, t), [], strike, melee=True)
    u, t = b.unit(u["id"]), b.unit(t["id"])
    patches = {u["id"]: {"acted": u["acted"] + ["melee"], "bonus": u["bonus"] and not o.bonus}}
    if u["status"] == "active" and t["status"] == "active":
        patches[u["id"]]["locked"] = sorted(set(u["locked"]) | {t["id"]})
        patches[t["id"]] = {"locked": sorted(set(t["locked"]) | {u["id"]})}
    b.emit("activated", {"unit": u["id"], "phase": "melee", "units": patches}, (u["id"],))
    for x in (u["id"], t["id"]):
        _overwhelmed(b, x, strike)
    fear_from_strike(b, strike)
    fear_tests(b, strike.factors)


def _overwhelmed(b: Battle, uid: str, strike: Strike) -> None:
    u = b.unit(uid)
    if u["status"] != "active" or u["kind"] != "squad":
        return
    enemies = sum(
        len(b.unit(p).get("models", [])) or 1
        for p in u["locked"]
        if b.unit(p)["status"] == "active" and b.unit(p)["side"] == other(u["side"])
    )
    if overwhelmed(enemies, len(u["models"])):
        strike.fear(uid, 6)
