"""Orders by clicks on the Kings of War table (rules.core.protocol.OrderComposer): a unit sent to a
point advances straight at it (pivoting first, at most 90 degrees), or charges the enemy clicked;
the verb "shoot" shoots at it instead. Built from the side's own view."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from rules.core.compose import CompositionError, inches, marks, point
from rules.core.i18n import _

MAX_PIVOT = 90
_ENEMY_LINE = re.compile(r"^([\w-]+)\s+(charge|counter-charge|shoot)\s+([\w-]+)$", re.I)


def _unit(board: Mapping[str, Any], unit_id: str) -> dict[str, Any] | None:
    return next((u for u in board.get("units") or [] if u["id"] == unit_id), None)


def _own(board: Mapping[str, Any], side: str, unit_id: str) -> dict[str, Any]:
    unit = _unit(board, unit_id)
    if unit is None or unit["side"] != side:
        raise CompositionError(_("{unit} is not one of your units", unit=unit_id))
    return unit


def _advance(unit: dict[str, Any], x: float, y: float) -> str:
    dx, dy = x - unit["x"], y - unit["y"]
    turn = (math.degrees(math.atan2(dy, dx)) - unit["facing"] + 180) % 360 - 180  # anticlockwise positive
    distance = inches(math.hypot(dx, dy))
    if abs(turn) < 1:
        return f"{unit['id']} advance {distance}"
    if abs(turn) > MAX_PIVOT:
        raise CompositionError(
            _(
                "{unit} would turn {degrees:.0f} degrees: a unit pivots at most {most} before it advances",
                unit=unit["id"],
                degrees=abs(turn),
                most=MAX_PIVOT,
            )
        )
    return f"{unit['id']} advance {distance} pivot {'left' if turn > 0 else 'right'} {round(abs(turn))}"


def compose_order(board: Mapping[str, Any], side: str, unit_id: str, target: Mapping[str, Any]) -> str:
    unit = _own(board, side, unit_id)
    if target.get("unit"):
        enemy = _unit(board, str(target["unit"]))
        if enemy is None or enemy["side"] == side:
            raise CompositionError(_("{unit} is not an enemy unit you can see", unit=target["unit"]))
        return f"{unit_id} {'shoot' if target.get('verb') == 'shoot' else 'charge'} {enemy['id']}"
    x, y = point(target)
    return _advance(unit, float(x), float(y))


def order_targets(board: Mapping[str, Any], side: str, unit_id: str) -> dict[str, list[str]]:
    return {}  # any point ahead: the reach is drawn, the line is checked


def _mark(board: Mapping[str, Any], line: str) -> dict[str, Any] | None:
    m = _ENEMY_LINE.match(line)
    enemy = _unit(board, m.group(3)) if m else None
    if m and enemy:
        return {"unit": m.group(1), "verb": m.group(2).lower(), "to": {"x": enemy["x"], "y": enemy["y"]}}
    words = line.split()
    unit = _unit(board, words[0]) if len(words) >= 3 and words[1].lower() == "advance" else None
    if unit is None:
        return None
    try:
        distance = float(words[2])
        turn = float(words[5]) * (1 if words[4].lower() == "left" else -1) if len(words) >= 6 else 0.0
    except (ValueError, IndexError):
        return None
    heading = math.radians(unit["facing"] + turn)
    return {
        "unit": unit["id"],
        "verb": "move",
        "to": {"x": unit["x"] + distance * math.cos(heading), "y": unit["y"] + distance * math.sin(heading)},
    }


def pending_marks(board: Mapping[str, Any], side: str, text: str) -> list[dict[str, Any]]:
    return marks(text, lambda line: _mark(board, line))
