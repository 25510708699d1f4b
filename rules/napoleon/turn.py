"""Alternating player turns by mail (NW adaptation A): one ordered action list per turn.

The engine carries the actions out in the order written. Each costs command points (a unit
with a leader it obeys pays one less, NW-37); the scenario's points are spent first; when they
run out, or one point is borrowed past them, the die for extra points is rolled (NW-8); the
engine stops at the first action that can no longer be paid for and reports the rest as not
carried out. An action that is not allowed when its turn comes is reported and costs nothing;
the list goes on. Standing instructions (square, counter-charge, leader modifier) are kept
for the choices that arise in the opponent's turn.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from rules.core.i18n import _, gettext_noop, pgettext
from rules.core.protocol import LineError, ParsedOrders, RuleEvent, TurnSpec
from rules.hex import coords as C

from . import combat, movement
from .battle import Battle, other
from .data import COST, SCORE_LEADER, SIDES, kind
from .orders import Order, parse_text

WHOLE = 0


def next_turn(state: dict[str, Any]) -> TurnSpec:
    if state.get("result") or state.get("phase") != "play":
        return TurnSpec(())
    sc = state["scenario"]
    what = (
        gettext_noop("the opening turn with 0 command points: free road moves and leader moves only (NW-55)")
        if state["opening"]
        else _("{points} command points, then the die for more", points=sc["caps"][state["side"]])
    )
    return TurnSpec(
        (state["side"],),
        "orders",
        _(
            "turn {turn} of {turns}, {army} ({side}): list your actions in order; {what}",
            turn=state["turn"],
            turns=sc["turns"],
            army=sc["armies"][state["side"]],
            side=pgettext("side", state["side"]),
            what=what,
        ),
    )


def parse(state: dict[str, Any], side: str, text: str, kind_: str = "orders") -> ParsedOrders:
    return parse_text(text)


def default_orders(state: dict[str, Any], side: str, kind_: str = "orders") -> str:
    return "pass"


def validate(state: dict[str, Any], side: str, orders: Sequence[Order], kind_: str = "orders") -> tuple[LineError, ...]:
    """What can be told before the turn is played: whose turn, whose units, which targets.
    Whether an action is allowed when its turn comes is decided then (and reported)."""
    if state.get("result"):
        return (LineError(WHOLE, "", "the game is over"),)
    if state.get("phase") != "play":
        return (LineError(WHOLE, "", "the battle has not started"),)
    if side != state["side"]:
        return (LineError(WHOLE, "", f"it is {state['side']}'s turn"),)
    errors = []
    for o in orders:
        msg = _check(state, side, o)
        if msg:
            errors.append(LineError(o.line, o.text, msg))
    return tuple(errors)


def _check(state: dict[str, Any], side: str, o: Order) -> str | None:
    if o.verb in ("pass", "standing"):
        return None
    u = state["units"].get(o.unit) or state["leaders"].get(o.unit)
    if u is None or u["side"] != side:
        return f"you have no unit or leader {o.unit}"
    if u["status"] == "reserve" and u["enters"] > state["turn"]:
        return f"{o.unit} enters the field on turn {u['enters']}"
    if u["status"] not in ("active", "reserve"):
        return f"{o.unit} is no longer on the field"
    if o.unit in state["leaders"] and o.verb != "move":
        return f"{o.unit} is a leader: leaders only move (write 'move {o.unit} to 0405')"
    if o.dest:
        b = Battle(state, random.Random(0))
        if not _on_map(b, o.dest):
            return f"hex {o.dest} is not on the map"
    if o.target:
        t = state["units"].get(o.target)
        if t is None or t["side"] == side:
            return f"{o.target} is not an enemy unit"
    if state["opening"] and not (o.verb == "road" or (o.verb == "move" and o.unit in state["leaders"])):
        return "the opening turn allows only free road moves and leader moves (NW-55)"
    return None


# -- adjudication ----------------------------------------------------------------------------------


def adjudicate(
    state: dict[str, Any], orders: Mapping[str, Sequence[Order]], rng: random.Random, kind_: str = "orders"
) -> list[RuleEvent]:
    return play_turn(state, orders.get(state["side"], ()), rng).events


def play_turn(state: dict[str, Any], orders: Sequence[Order], rng: random.Random) -> Battle:
    b = Battle(state, rng)
    side = state["side"]
    b.emit("turn_started", {"turn": state["turn"], "side": side, "points": b.base})
    arrivals(b)
    orders = list(orders)
    for i, o in enumerate(orders):
        if b.state["result"] is not None:
            break
        if o.verb == "standing":
            b.emit("standing_set", {"side": side, "key": o.key, "value": o.value})
            continue
        if o.verb == "pass":
            continue
        if not _carry_out(b, o):
            b.emit(
                "points_exhausted",
                {"order": o.text, "left": b.left(), "not_done": [x.text for x in orders[i:] if x.verb != "standing"]},
            )
            for x in orders[i + 1 :]:
                if x.verb == "standing":
                    b.emit("standing_set", {"side": side, "key": x.key, "value": x.value})
            break
    end_of_turn(b)
    return b


def arrivals(b: Battle) -> None:
    """NW-53: reserves due by this turn enter at their edge hex at the start of their side's turn,
    as if they had moved in from the next hex off the map (they have moved this turn: no
    other move, fire only as troops that fire after moving). A hex held by the enemy or full
    delays them a turn."""
    st = b.state
    for u in sorted(st["units"].values(), key=lambda u: u["id"]):
        if u["status"] != "reserve" or u["side"] != st["side"] or u["enters"] > st["turn"]:
            continue
        why = movement.room(b, u, b.h(u["entry"]))
        if why:
            b.emit("arrival_delayed", {"unit": u["id"], "at": u["entry"], "reason": why})
        else:
            b.emit(
                "arrived",
                {
                    "unit": u["id"],
                    "at": u["entry"],
                    "units": {u["id"]: {"status": "active", "hex": u["entry"], "acted": ["move"]}},
                },
            )


def _carry_out(b: Battle, o: Order) -> bool:
    """Carry out one action; False if it cannot be paid for (the list stops there)."""
    if o.unit in b.state["leaders"]:
        ldr = b.the_leader(o.unit)
        assert o.dest is not None  # the parser gives a leader's move its destination
        route = movement.plan_leader(b, ldr, o.dest) if ldr["status"] == "active" else f"{o.unit} is gone"
        if isinstance(route, str):
            b.emit("order_failed", {"order": o.text, "reason": route})
        else:
            b.emit(
                "leader_moved",
                {
                    "leader": ldr["id"],
                    "path": route.path,
                    "leaders": {ldr["id"]: {"hex": route.path[-1], "moved": True}},
                },
            )
        return True
    u = b.unit(o.unit)
    if u is None or u["status"] != "active":
        b.emit("order_failed", {"order": o.text, "reason": f"{o.unit} is no longer on the field"})
        return True
    if b.state["opening"] and o.verb != "road":
        b.emit("order_failed", {"order": o.text, "reason": "0 command points: only free road moves (NW-55)"})
        return True
    plan = _plan(b, u, o)
    if isinstance(plan, str):
        b.emit("order_failed", {"order": o.text, "reason": plan})
        return True
    full = plan.cost if isinstance(plan, movement.Plan) else _attack_cost(o)
    helper = b.reducer(u, o.verb) if full > 0 else None
    cost = max(0, full - 1) if helper else full
    if not b.affordable(cost):
        return False
    lpatch = {helper["id"]: {"used": u["id"]}} if helper else {}
    if isinstance(plan, movement.Plan):
        _move(b, u, plan, o, cost, lpatch)
    elif o.verb == "charge":
        _charge(b, u, o, plan, cost, lpatch)
    else:
        if helper:
            b.emit("leader_helps", {"leader": helper["id"], "unit": u["id"], "leaders": lpatch})
        assert o.target is not None  # fire and melee name their target
        combat.resolve(b, u, b.the_unit(o.target), plan, o.text, {"cost": cost})
    b.pay(cost)
    return True


def _attack_cost(o: Order) -> int:
    return COST[o.verb] + (o.dice * COST["extra_die"] if o.verb == "melee" else 0)


def _plan(b: Battle, u: dict[str, Any], o: Order) -> movement.Plan | combat.Attack | str:
    if o.verb in ("move", "road"):
        assert o.dest is not None  # the parser gives a move its destination
        if u["done"]:
            return f"{u['id']} moved by road with the extra hex and is done this turn (NW-12)"
        if "move" in u["acted"]:
            return f"{u['id']} has already moved this turn"
        if "attack" in u["acted"]:
            return f"{u['id']} has attacked this turn and may not move after it"
        return (movement.plan_move if o.verb == "move" else movement.plan_road)(b, u, o.dest)
    assert o.target is not None  # the parser gives an attack its target
    t = b.unit(o.target)
    if o.verb in ("fire", "melee"):
        a = combat.plan_fire(b, u, t, o.target) if o.verb == "fire" else combat.plan_melee(b, u, t, o.target, o.dice)
        return combat.no_dice_left(b, u, a) or a
    a = combat.plan_charge(b, u, t, o.target)
    if isinstance(a, str):
        return a
    assert t is not None  # plan_charge refuses a missing target
    p = movement.charge_path(b, u, t, o.dest)
    if isinstance(p, str):
        return p
    a.path = p
    return a


def _move(b: Battle, u: dict[str, Any], plan: movement.Plan, o: Order, cost: int, lpatch: dict[str, Any]) -> None:
    b.emit(
        "moved",
        {
            "unit": u["id"],
            "path": plan.path,
            "cost": cost,
            "road": plan.road,
            "done": plan.done,
            "units": {
                u["id"]: {"hex": plan.path[-1], "acted": u["acted"] + ["move"], "square": False, "done": plan.done}
            },
            "leaders": lpatch,
        },
    )


def _charge(b: Battle, u: dict[str, Any], o: Order, a: combat.Attack, cost: int, lpatch: dict[str, Any]) -> None:
    path = [C.label(h) for h in a.path]
    b.emit(
        "moved",
        {
            "unit": u["id"],
            "path": path,
            "cost": cost,
            "road": False,
            "done": False,
            "charge": True,
            "units": {u["id"]: {"hex": path[-1], "acted": u["acted"] + ["move"], "square": False}},
            "leaders": lpatch,
        },
    )
    assert o.target is not None  # a charge names its target
    u, t = b.the_unit(u["id"]), b.the_unit(o.target)
    std = b.state["standing"][t["side"]]
    countered = None
    if kind(t) == "infantry" and not t["square"] and std["square"] == "yes":
        strength, die, ok = combat.check(b, t, "infantry")
        b.emit(
            "square_check",
            {
                "unit": t["id"],
                "strength": strength,
                "die": die,
                "formed": ok,
                "units": {t["id"]: {"square": True}} if ok else {},
            },
        )
        t = b.the_unit(t["id"])
    elif kind(t) == "cavalry" and std["countercharge"] == "yes":
        strength, die, ok = combat.check(b, t, "cavalry")
        countered = "passed" if ok else "failed"
        b.emit("countercharge_check", {"unit": t["id"], "strength": strength, "die": die, "passed": ok})
    combat.charge_mods(b, a, b.h(u["hex"]), t, countered)
    combat.resolve(b, u, t, a, o.text, {"cost": 0, "countercharge": countered}, recoil_on_ones=countered == "passed")


# -- end of turn and victory -------------------------------------------------------------------------


def score(state: dict[str, Any]) -> dict[str, int]:
    """House victory points: 1 per enemy figure lost, 2 per enemy leader killed, and the
    scenario's objective hexes held (units of one side only there)."""
    pts = dict.fromkeys(SIDES, 0)
    for u in state["units"].values():
        pts[other(u["side"])] += u["start"] - u["figures"]
    for ldr in state["leaders"].values():
        if ldr["status"] == "killed":
            pts[other(ldr["side"])] += SCORE_LEADER
    for hx, value in state["scenario"]["objectives"].items():
        holders = {u["side"] for u in state["units"].values() if u["hex"] == hx and u["status"] == "active"}
        if len(holders) == 1:
            pts[holders.pop()] += value
    return pts


def end_of_turn(b: Battle) -> None:
    st = b.state
    units: dict[str, dict[str, Any]] = {
        uid: {"acted": [], "done": False, "from": [], "flanked": False, "struck": None}
        for uid, u in st["units"].items()
        if u["acted"] or u["done"] or u["from"] or u["struck"]
    }
    leaders = {lid: {"moved": False, "used": None} for lid, x in st["leaders"].items() if x["moved"] or x["used"]}
    pts = score(st)
    gone = [
        s
        for s in SIDES
        if not any(u["side"] == s and u["status"] in ("active", "reserve") for u in st["units"].values())
    ]
    first = st["scenario"]["first"]
    side = st["side"]
    last = not st["opening"] and side != first and st["turn"] >= st["scenario"]["turns"]
    if gone or last:
        if len(gone) == 1:
            winner: str | None = other(gone[0])
            reason = f"{gone[0]} has no units left"
        else:
            winner = max(SIDES, key=lambda s: pts[s]) if pts[SIDES[0]] != pts[SIDES[1]] else None
            reason = f"after {st['turn']} turns, {pts['red']} to {pts['blue']} points (red to blue)"
        b.emit("game_over", {"winner": winner, "reason": reason, "score": pts, "units": units, "leaders": leaders})
        return
    if st["opening"]:
        nxt, turn = first, st["turn"]
    elif side == first:
        nxt, turn = other(first), st["turn"]
    else:
        nxt, turn = first, st["turn"] + 1
    b.emit(
        "turn_opened", {"turn": turn, "side": nxt, "opening": False, "score": pts, "units": units, "leaders": leaders}
    )


def _on_map(b: Battle, label: str) -> bool:
    """Whether ``label`` names a hex of the map (0600 and 0000 name none: rows and columns start at 01)."""
    try:
        return b.h(label) in b.map
    except ValueError:
        return False
