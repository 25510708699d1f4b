"""The turn by mail: validation, one round's adjudication, the organisation phase, victory.

A game turn is three mail rounds: movement, shooting, melee (WW-4, WW-7/8). The organisation
phase (WW-6) needs no orders in the house base, so the engine plays it at the start of every
turn: per-turn markers are cleared, fires burn or go out, morale rolls are made. In each round
both sides send an ordered list of activations; the engine alternates them, the attacker's
first (WW-7), and when one side's list runs out the other's remaining lines follow in order
(ambiguity 4). Each line is checked again when its turn comes; if it can no longer be carried
out its side is told why. Panicked units flee at the start of the movement round (attacker's
first), and heroic units that were given no order in the shooting or melee round attack the
nearest enemy they can (WW-57).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from rules.core.i18n import _, pgettext
from rules.core.protocol import (
    LineError,
    ParsedOrders,
    RuleEvent,
    TurnSpec,
    side_audience,
)

from . import activate as A
from . import deploy
from .battle import Battle, other
from .combat import Strike, crew_attacks, fear_from_strike
from .data import MORALE_NAMES, PROFILES, SIDES, WEAPONS
from .fold import ROUNDS
from .morale import fear_tests, organisation_roll
from .orders import Order, parse_text

ROUND_VERBS = {"movement": ("move", "ram", "hold"), "shooting": ("fire", "hold"), "melee": ("attack", "hold")}
GONE = ("destroyed", "surrendered", "deserted", "wreck", "abandoned")  # "crewing": became a captured machine's crew
WHOLE = 0
# Each round's prompt, a whole sentence for the catalogue.
_ROUND_PROMPTS = {
    "movement": lambda p: _(
        "turn {turn} of {turns}, movement round: list your move orders in the order you want them "
        "({first} activates first)",
        **p,
    ),
    "shooting": lambda p: _(
        "turn {turn} of {turns}, shooting round: list your fire orders in the order you want them "
        "({first} activates first)",
        **p,
    ),
    "melee": lambda p: _(
        "turn {turn} of {turns}, melee round: list your attack orders in the order you want them "
        "({first} activates first)",
        **p,
    ),
}


def next_turn(state: dict[str, Any]) -> TurnSpec:
    if state.get("phase") == "deploy":  # version 3: the sides with hidden units place them first
        return TurnSpec(deploy.deploying_sides(state), "orders", deploy.PROMPT)
    if state.get("result") or state.get("phase") != "play":
        return TurnSpec(())
    params = {
        "turn": state["turn"],
        "turns": state["scenario"]["turns"],
        "first": pgettext("side", state["attacker"]),
    }
    return TurnSpec(SIDES, "orders", _ROUND_PROMPTS[state["round"]](params))


def parse(state: dict[str, Any], side: str, text: str, kind: str = "orders") -> ParsedOrders:
    return parse_text(text)


def default_orders(state: dict[str, Any], side: str, kind: str = "orders") -> str:
    if state.get("phase") == "deploy":  # (shown to everyone: it says nothing of where)
        return "# no deployment orders: the dice place the hidden units in the zone"
    return "# no orders: every unit passes this round"


def validate(state: dict[str, Any], side: str, orders: Sequence[Order], kind: str = "orders") -> tuple[LineError, ...]:
    if state.get("result"):
        return (LineError(WHOLE, "", "the game is over"),)
    if state.get("phase") == "deploy":
        protect = [o for o in orders if o.verb == "protect"]
        b = Battle(state, random.Random(0))
        wrong = [LineError(o.line, o.text, msg) for o in protect if (msg := _check(b, side, "movement", o, {}))]
        return tuple(sorted([*wrong, *deploy.validate(state, side, orders)], key=lambda e: e.line))
    if state.get("phase") != "play":
        return (LineError(WHOLE, "", "the battle has not started"),)
    b = Battle(state, random.Random(0))
    rnd = state["round"]
    errors: list[LineError] = []
    seen: dict[str, Any] = {}
    for o in orders:
        msg = _check(b, side, rnd, o, seen)
        if msg:
            errors.append(LineError(o.line, o.text, msg))
    return tuple(errors)


def _check(b: Battle, side: str, rnd: str, o: Order, seen: dict[str, Any]) -> str | None:
    u = b.state["units"].get(o.unit)
    if u is None or u["side"] != side:
        return f"you have no unit {o.unit}"
    if o.verb == "protect":
        roles = set(u.get("models", []))
        bad = [r for r in o.roles if r not in roles]
        return (
            f"{o.unit} has no {', '.join(bad)} (it has: {', '.join(sorted(roles)) or 'no soldiers'})" if bad else None
        )
    if o.verb not in ROUND_VERBS[rnd]:
        return f"this is the {rnd} round: write {' or '.join(ROUND_VERBS[rnd])} orders"
    if o.unit in seen:
        return f"{o.unit} already has an order on line {seen[o.unit]}"
    seen[o.unit] = o.line
    if o.verb == "hold":
        return None
    if o.verb == "move":
        if not (o.dest and _on_map(b, o.dest)):
            return f"hex {o.dest} is not on the map"
        if o.dest == u.get("hex"):
            return f"{o.unit} already stands at {o.dest}: write 'hold {o.unit}' to keep it there"
        return A.why_not_move(b, u, o)
    if o.verb == "ram":
        return A.why_not_move(b, u, Order(o.line, o.text, "move", o.unit, mode=None, bonus=o.bonus)) or A.why_not_ram(
            b, u, b.state["units"].get(o.targets[0])
        )
    if o.verb == "fire":
        why = A.why_not_shoot(b, u, o)
        if why:
            return why
        if o.weapon and o.weapon not in _weapons(u):
            return f"{o.unit} has no {o.weapon} (it has: {', '.join(sorted(_weapons(u)))})"
        if o.aim and not any("aimed" in WEAPONS[w]["props"] for w in _weapons(u)):
            return f"{o.unit} has no aimed weapon (WW-29): leave out 'aim'"
        t, why = A.pick_target(b, u, o)
        return None if t else why
    t = b.state["units"].get(o.targets[0])
    return A.why_not_fight(b, u, t, o)


def _on_map(b: Battle, label: str) -> bool:
    """Whether ``label`` names a hex of the map (0600 and 0000 name none: rows and columns start at 01)."""
    try:
        return b.h(label) in b.map
    except ValueError:
        return False


def _weapons(u: dict[str, Any]) -> set[str]:
    prof = PROFILES[u["profile"]]
    out = set(u.get("weapons", []))
    if u["kind"] == "squad":
        out |= {prof["models"][r] for r in u["models"]}
    return out


# -- adjudication ------------------------------------------------------------------------------


def adjudicate(
    state: dict[str, Any], orders: Mapping[str, Sequence[Order]], rng: random.Random, kind: str = "orders"
) -> list[RuleEvent]:
    if state.get("phase") == "deploy":
        return deploy.adjudicate(state, orders, rng)
    return run_round(state, orders, rng).events


def run_round(state: dict[str, Any], orders: Mapping[str, Sequence[Order]], rng: random.Random) -> Battle:
    """The round played out; the Battle holds the events and the state they fold to."""
    b = Battle(state, rng)
    rnd = state["round"]
    b.emit("round_started", {"turn": state["turn"], "round": rnd})
    lists = {}
    for side in SIDES:
        mine = list(orders.get(side, ()))
        for o in mine:
            if o.verb == "protect":
                b.emit(
                    "priority_set",
                    {"unit": o.unit, "roles": list(o.roles), "units": {o.unit: {"priority": list(o.roles)}}},
                    audience=side_audience(side),
                )
        lists[side] = [o for o in mine if o.verb in ROUND_VERBS[rnd] and o.verb != "hold"]
    first = state["attacker"]
    if rnd == "movement":
        for side in (first, other(first)):
            for u in sorted(
                (u for u in b.active(side) if u["morale"] == 1 and u["kind"] != "aircraft"), key=lambda u: u["id"]
            ):
                A.flee(b, u["id"])
    else:
        for side in SIDES:
            lists[side] += _heroic(b, side, rnd, {o.unit for o in lists[side]})
    a, d = lists[first], lists[other(first)]
    for i in range(max(len(a), len(d))):
        for given in (a[i] if i < len(a) else None, d[i] if i < len(d) else None):
            if given is not None and b.state["result"] is None:
                {"move": A.move, "ram": A.ram, "fire": A.shoot, "attack": A.fight}[given.verb](b, given)
    if rnd != "melee":
        b.emit("round_opened", {"turn": state["turn"], "round": ROUNDS[ROUNDS.index(rnd) + 1]})
    else:
        end_of_turn(b)
    return b


def _heroic(b: Battle, side: str, rnd: str, ordered: set[str]) -> list[Order]:
    """WW-57: a heroic unit must shoot or fight an enemy it can reach."""
    out = []
    reach = 1 if rnd == "melee" else max(w["range"] for w in WEAPONS.values())
    for u in sorted(b.active(side), key=lambda u: u["id"]):
        if u["morale"] != 5 or u["id"] in ordered or not u["hex"]:
            continue  # (aircraft have no place to reach from until they attack)
        enemies = sorted(
            (d, e["id"])
            for d, e in b.around(u["hex"], reach)
            if e["side"] != side and e["status"] == "active" and not e["hidden"]
        )
        verb = "fire" if rnd == "shooting" else "attack"
        for _score, eid in enemies:
            o = Order(0, f"{verb} {u['id']} at {eid} (heroism, WW-57)", verb, u["id"], targets=(eid,))
            ok = (
                (A.why_not_shoot(b, u) is None and A.pick_target(b, u, o)[0])
                if verb == "fire"
                else A.why_not_fight(b, u, b.unit(eid), o) is None
            )
            if ok:
                out.append(o)
                break
    return out


# -- end of turn, organisation, victory -------------------------------------------------------------


def score(state: dict[str, Any], public: bool = False) -> dict[str, int]:
    """Points of enemy units lost (destroyed, wrecked, abandoned, surrendered, deserted) plus
    the scenario's objectives held at the end (held: active units of one side only).
    ``public``: the running score shown during the game leaves hidden units out, so that it
    tells nobody a hidden unit was lost (the final score counts everything)."""
    pts = dict.fromkeys(SIDES, 0)
    for u in state["units"].values():
        if public and u["hidden"]:
            continue
        if u["status"] in GONE:
            pts[other(u["side"])] += PROFILES[u["profile"]]["points"]
        if u.get("captured_from") and u["status"] not in GONE:  # a captured machine scores for its captor
            pts[u["side"]] += PROFILES[u["profile"]]["points"]
    for hx, value in state["scenario"]["objectives"].items():
        holders = {
            u["side"]
            for u in state["units"].values()
            if u["hex"] == hx and u["status"] == "active" and u["kind"] != "aircraft" and not (public and u["hidden"])
        }
        if len(holders) == 1:
            pts[holders.pop()] += value
    return pts


def end_of_turn(b: Battle) -> None:
    st = b.state
    gone = [s for s in SIDES if not any(u["kind"] != "aircraft" for u in b.active(s))]
    if st["turn"] >= st["scenario"]["turns"] or gone:
        pts = score(st)
        if len(gone) == 1:
            winner: str | None = other(gone[0])
            reason = f"{gone[0]} has no fighting units left"
        else:
            winner = max(SIDES, key=lambda s: pts[s]) if pts["red"] != pts["blue"] else None
            reason = f"after {st['turn']} turns, {pts['red']} to {pts['blue']} points (red to blue)"
            if gone:
                reason = "both sides have no fighting units left; " + reason
        b.emit("game_over", {"winner": winner, "reason": reason, "score": pts})
        return
    reset = {}
    for u in st["units"].values():
        patch = {"acted": [], "moved": 0, "mode": None, "bonus": False, "penalty": False, "shot_from": [], "stunned": 0}
        if u["kind"] != "squad":
            patch["crew_stunned"] = []  # stunned crews come round by the next organisation phase (house)
        if u["kind"] == "aircraft":
            patch["hex"] = None  # aircraft leave the field at the end of the turn (WW-20)
        reset[u["id"]] = patch
    hidden = {uid for uid, u in st["units"].items() if u["hidden"]}
    for side in SIDES:  # hidden units' markers are cleared in events only their side sees
        mine = {uid: reset.pop(uid) for uid in sorted(hidden) if st["units"][uid]["side"] == side}
        if mine:
            b.emit("markers_cleared", {"units": mine}, audience=side_audience(side))
    b.emit(
        "round_opened", {"turn": st["turn"] + 1, "round": "movement", "units": reset, "score": score(st, public=True)}
    )
    organisation(b)


def organisation(b: Battle) -> None:
    """WW-6 and WW-52 (fire): burning machines first, then the morale rolls, units in id order."""

    for uid in sorted(b.state["units"]):
        m = b.unit(uid)
        if m["kind"] != "squad" and m.get("burning") and m["status"] in ("active", "abandoned"):
            roll = b.roll()
            if roll >= 8:
                b.emit("fire_out", {"unit": uid, "roll": roll, "units": {uid: {"burning": False}}}, (uid,))
            else:
                patch = crew_attacks(b, m, b.dice("D3"), stun=False)
                if PROFILES[m["profile"]]["crew"] and not patch["crew"]:
                    patch["status"] = "abandoned"
                b.emit(
                    "fire_burns",
                    {"unit": uid, "roll": roll, "crew_left": len(patch["crew"]), "units": {uid: patch}},
                    (uid,),
                )
                if patch.get("status") == "abandoned":
                    strike = Strike(destroyed=[uid])
                    fear_from_strike(b, strike)
                    fear_tests(b, strike.factors)
    for uid in sorted(b.state["units"]):
        organisation_roll(b, uid)


def morale_label(level: int) -> str:
    return MORALE_NAMES[level]
