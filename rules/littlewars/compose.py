"""Orders by clicks on the Little Wars table (rules.core.protocol.OrderComposer): a group, figure,
gun or wagon sent to a point in inches; a gun fires at a point. Built from the side's own view."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from rules.core.compose import CompositionError, marks, point
from rules.core.i18n import _

_LINE = re.compile(r"^(move|march|deploy|fire|escort)\s+([\w-]+)\s+(?:to|at)\s+\(?\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)", re.I)


def _own_names(board: Mapping[str, Any], side: str) -> dict[str, str]:
    """{name in orders: kind} of what ``side`` may order, as its view shows it."""
    names = dict.fromkeys((board.get("groups") or {}).get(side, {}), "group")
    names.update(dict.fromkeys((board.get("prisoner_groups") or {}).get(side, {}), "prisoners"))
    names.update(
        {
            f["id"].split(":")[-1]: "figure"
            for f in board.get("figures") or []
            if f["side"] == side and not f.get("captor")
        }
    )
    names.update({g["name"]: "gun" for g in board.get("guns") or [] if g["owner"] == side})
    names.update({w["name"]: "wagon" for w in board.get("wagons") or [] if w["owner"] == side})
    return names


def compose_order(board: Mapping[str, Any], side: str, unit_id: str, target: Mapping[str, Any]) -> str:
    kind = _own_names(board, side).get(unit_id)
    if kind is None:
        raise CompositionError(_("{unit} is not one of your troops", unit=unit_id))
    x, y = point(target)
    verb = target.get("verb") or ""
    phase = board.get("phase")
    if verb == "fire":
        if kind != "gun":
            raise CompositionError(_("{unit} is not a gun: only guns fire", unit=unit_id))
        if phase != "play":
            raise CompositionError(_("guns fire once the battle has begun"))
        return f"fire {unit_id} at {x},{y}"
    if verb == "charge":  # Kriegspiel's cavalry charge at a point (KS-68); Little Wars' own check refuses it
        return f"charge {unit_id} at {x},{y}"
    if verb not in ("", "move"):
        raise CompositionError(_("'{verb}' is not an order for a point on this table", verb=verb))
    if phase == "deploy":
        return f"deploy {unit_id} at {x},{y}"
    if phase != "play":
        raise CompositionError(_("there is nothing to move now"))
    return f"{'escort' if kind == 'prisoners' else 'move'} {unit_id} to {x},{y}"


def order_targets(board: Mapping[str, Any], side: str, unit_id: str) -> dict[str, list[str]]:
    return {}  # any point of the table: the reach and range are drawn, the line is checked


def _mark(line: str) -> dict[str, Any] | None:
    m = _LINE.match(line)
    if not m:
        return None
    verb = m.group(1).lower()
    return {
        "unit": m.group(2),
        "verb": "move" if verb in ("march", "deploy", "escort") else verb,
        "to": {"x": float(m.group(3)), "y": float(m.group(4))},
    }


def pending_marks(board: Mapping[str, Any], side: str, text: str) -> list[dict[str, Any]]:
    return marks(text, _mark)
