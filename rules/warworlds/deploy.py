"""Version 3: the deployment round before play, in which each side places its own hidden units.

The scenario is public, so it no longer says where hidden units stand: it gives each side that has
hidden units a deployment zone (scenario.py), and in a round of its own before turn 1 that side
places each of them on a hex of its zone (``deploy B2 at 0807``); only the sides with a zone order.
Where they went is the side's own: its orders, their errors and its ``deployed`` event are for it
(and the umpire), and everybody gets the same ``deployment_done``. A unit its side leaves out is put
by the game's dice on a hex of the zone where it can stand and fits, drawn from a stream of its
side's own (one draw per side from the turn's dice, whatever anyone ordered), so one side's orders
never shift the other's placement.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from rules.core.i18n import _, gettext_noop
from rules.core.protocol import LineError, RuleEvent, side_audience
from rules.hex import coords as C

from .battle import Battle, other
from .data import COVER_BONUS, SIDES
from .orders import Order
from .scenario import CAPACITY, can_stand, to_deploy

PROMPT = gettext_noop(
    "Deployment round, before turn 1: place your hidden units on hexes of your deployment zone with "
    "deploy orders; any you leave out are placed in the zone by the dice. The other side does not see where."
)
WHOLE = 0


def deploying_sides(state: Mapping[str, Any]) -> tuple[str, ...]:
    """The sides the scenario gives a deployment zone (public: the scenario is)."""
    zones = state["scenario"].get("deployment") or {}
    return tuple(s for s in SIDES if s in zones)


def zone(state: Mapping[str, Any], side: str) -> list[str]:
    hexes: list[str] = (state["scenario"].get("deployment") or {}).get(side, [])
    return hexes


def waiting(b: Battle, side: str) -> list[dict[str, Any]]:
    """The side's hidden units still to be placed, in id order."""
    return sorted((u for u in b.units() if u["side"] == side and to_deploy(u)), key=lambda u: u["id"])


def where_not(b: Battle, u: dict[str, Any], hx: str, placed: Mapping[str, str]) -> str | None:
    """Why ``u`` may not be put at ``hx`` (a hex of its zone), beside what stands there and what its
    side has placed this round (``placed``: {unit: hex}); None if it may."""
    if hx not in zone(b.state, u["side"]):
        return _("{hex} is not in your deployment zone", hex=hx)
    if not can_stand(u["profile"], b.terrain(hx)):
        return _(
            "{unit} ({profile}) cannot stand in {terrain}", unit=u["id"], profile=u["profile"], terrain=b.terrain(hx)
        )
    present = [b.size(o) for o in b.occupants(hx)]
    present += [b.size(b.unit(p)) for p, at in placed.items() if at == hx and p != u["id"]]
    why = CAPACITY.refusal(present, b.size(u))
    return _("no room for {unit} at {hex}: {why}", unit=u["id"], hex=hx, why=why) if why else None


def _why(b: Battle, side: str, o: Order, placed: Mapping[str, str]) -> str | None:
    """A deploy order's error: the same words for an enemy's unit, hidden or not, as for none."""
    u = b.state["units"].get(o.unit)
    if u is None or u["side"] != side or not to_deploy(u):
        return _("you have no hidden unit {unit} to place", unit=o.unit)
    assert o.dest is not None  # the parser gives a deploy order its hex
    return where_not(b, u, o.dest, placed)


def validate(state: dict[str, Any], side: str, orders: Sequence[Order]) -> tuple[LineError, ...]:
    if side not in deploying_sides(state):
        return (LineError(WHOLE, "", _("your side has no hidden units to place: the other side deploys now")),)
    b = Battle(state, random.Random(0))
    errors: list[LineError] = []
    placed: dict[str, str] = {}
    lines: dict[str, int] = {}
    for o in orders:
        if o.verb == "protect":
            continue  # checked by turn.validate, as in any round
        if o.verb != "deploy":
            why: str | None = _("this is the deployment round: write deploy orders for your hidden units")
        elif o.unit in lines:
            why = _("{unit} already has an order on line {line}", unit=o.unit, line=lines[o.unit])
        else:
            why = _why(b, side, o, placed)
        if why:
            errors.append(LineError(o.line, o.text, why))
        else:
            lines[o.unit], placed[o.unit] = o.line, str(o.dest)
    return tuple(errors)


def adjudicate(state: dict[str, Any], orders: Mapping[str, Sequence[Order]], rng: random.Random) -> list[RuleEvent]:
    b = Battle(state, rng)
    streams = {side: random.Random(rng.getrandbits(64)) for side in SIDES}  # one draw each, always
    for side in deploying_sides(state):
        mine = list(orders.get(side, ()))
        for o in mine:
            if o.verb == "protect":
                b.emit(
                    "priority_set",
                    {"unit": o.unit, "roles": list(o.roles), "units": {o.unit: {"priority": list(o.roles)}}},
                    audience=side_audience(side),
                )
        placed: dict[str, str] = {}
        for o in mine:  # checked again: a line refused here is placed by the dice below
            if o.verb == "deploy" and o.unit not in placed and _why(b, side, o, placed) is None:
                placed[o.unit] = str(o.dest)
        by_dice = []
        for u in waiting(b, side):
            if u["id"] in placed:
                continue
            spots = _spots(b, u, placed)
            if spots:  # (a checked scenario always leaves room: scenario._zones)
                placed[u["id"]] = streams[side].choice(spots)
                by_dice.append(u["id"])
        ids = sorted(placed)
        b.emit(
            "deployed",
            {
                "side": side,
                "placed": {uid: placed[uid] for uid in ids},
                "by_dice": by_dice,
                "units": {uid: {"hex": placed[uid]} for uid in ids},
            },
            audience=side_audience(side),
        )
    b.emit("deployment_done", {"turn": state["turn"]})
    return b.events


def _spots(b: Battle, u: dict[str, Any], placed: Mapping[str, str]) -> list[str]:
    return [hx for hx in zone(b.state, u["side"]) if where_not(b, u, hx, placed) is None]


def open_orders(b: Battle, side: str) -> list[str]:
    """The deploy orders open to ``side``: each unit's first hex, and the others of its zone."""
    lines = []
    for u in waiting(b, side):
        spots = _spots(b, u, {})
        if spots:
            order = f"deploy {u['id']} at {spots[0]}"
            rest = " ".join(spots[1:])
            lines.append(_("{order}   (or to any of: {hexes})", order=order, hexes=rest) if rest else order)
    return lines


def bot_lines(b: Battle, side: str) -> list[str]:
    """A scripted player's deployment: each unit in the best cover nearest the enemy it can see."""
    foes = [C.parse_label(e["hex"]) for e in b.active(other(side)) if e["hex"] and not e["hidden"]]
    placed: dict[str, str] = {}
    for u in waiting(b, side):

        def rank(hx: str) -> tuple[int, int, str]:
            near = min((C.distance(C.parse_label(hx), f) for f in foes), default=0)
            return -COVER_BONUS.get(b.terrain(hx), 0), near, hx

        spots = sorted(_spots(b, u, placed), key=rank)
        if spots:
            placed[u["id"]] = spots[0]
    return [f"deploy {uid} at {hx}" for uid, hx in placed.items()]
