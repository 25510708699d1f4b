"""The points held by battles being fought (version 2, battles.py): no operation may use them."""

from __future__ import annotations

from typing import Any

from rules.core.battles import units_of
from rules.core.i18n import _
from rules.core.protocol import State

from .board import SIDES
from .orders import Assault, Breakthrough, Evacuate, Form, Move, Order, Terror


def fought(state: State) -> bool:
    """Whether this game fights its assaults as battles (the map's flag, version 2)."""
    board = state.get("board")
    return bool(board and board["scenario"].get("battles"))


def open_battles(state: State) -> list[dict[str, Any]]:
    """The battles joined and not yet resolved, oldest first."""
    return [b for b in state.get("battles", {}).values() if b["status"] == "joined"]


def engaged_points(state: State) -> set[str]:
    """The points whose units are fighting a battle: no operation may use them."""
    return {u for b in open_battles(state) for side in SIDES for u in units_of(b, side)}


def engaged_error(state: State, order: Order) -> str | None:
    """Why ``order`` may not be carried out while battles hold its points, or None."""
    engaged = engaged_points(state)
    if not engaged:
        return None
    points: list[str] = []
    if isinstance(order, Form):
        points = [order.city]
    elif isinstance(order, Move):
        points = [order.unit]
    elif isinstance(order, (Assault, Breakthrough)):
        points = [order.target] + ([order.source] if order.source else [])
    elif isinstance(order, Terror):
        points = [order.city]
    elif isinstance(order, Evacuate):
        points = [order.city, order.to]
    busy = [p for p in points if p in engaged]
    if not busy:
        return None
    battle = next(b for b in open_battles(state) if busy[0] in {u for s in SIDES for u in units_of(b, s)})
    return _(
        "{point} is fighting battle {battle} at {place}: it can take no part in another operation until "
        "the battle is decided",
        point=busy[0],
        battle=battle["battle"],
        place=battle["place"]["id"],
    )


def column_engaged(state: State, moves: list[list[str]]) -> str | None:
    """A breakthrough column with a unit that is fighting a battle: that unit, else None."""
    engaged = engaged_points(state)
    return next((src for src, _dst in moves if src in engaged), None)
