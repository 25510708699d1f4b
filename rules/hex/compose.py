"""Orders by clicks on a hex map (rules.core.protocol.OrderComposer), for the rule sets on the hex
engine: a unit sent to a hex moves there; a unit sent at an enemy unit fires at it or fights it,
in the words of the rule set (``HexComposer``). Built from the side's own view."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rules.core.compose import CompositionError, marks
from rules.core.i18n import _

_HEX = re.compile(r"^\d{4}$")


@dataclass(frozen=True)
class HexComposer:
    """``move``: the line for a unit and a hex; ``engage``: the line for a unit, an enemy and the
    verb asked for ("" when none), or a CompositionError."""

    move: Callable[[Mapping[str, Any], dict[str, Any], str], str]
    engage: Callable[[Mapping[str, Any], dict[str, Any], dict[str, Any], str], str]

    def compose_order(self, board: Mapping[str, Any], side: str, unit_id: str, target: Mapping[str, Any]) -> str:
        unit = _find(board, unit_id)
        if unit is None or unit["side"] != side:
            raise CompositionError(_("{unit} is not one of your units", unit=unit_id))
        if target.get("unit"):
            enemy = _find(board, str(target["unit"]))
            if enemy is None or enemy["side"] == side:
                raise CompositionError(_("{unit} is not an enemy unit you can see", unit=target["unit"]))
            return self.engage(board, unit, enemy, str(target.get("verb") or ""))
        hex_id = str(target.get("hex") or "")
        if not _HEX.match(hex_id):
            raise CompositionError(_("choose a hex on the map"))
        return self.move(board, unit, hex_id)

    def order_targets(self, board: Mapping[str, Any], side: str, unit_id: str) -> dict[str, list[str]]:
        return {}  # any hex: the line is checked by the rule set's own validation

    def pending_marks(self, board: Mapping[str, Any], side: str, text: str) -> list[dict[str, Any]]:
        return marks(text, lambda line: _mark(board, line))


def _find(board: Mapping[str, Any], unit_id: str) -> dict[str, Any] | None:
    wanted = unit_id.upper()
    return next((u for u in board.get("units") or [] if str(u["id"]).upper() == wanted), None)


def _mark(board: Mapping[str, Any], line: str) -> dict[str, Any] | None:
    """A move to a hex, or a line naming two units (fire, melee, attack, charge): the first acts on the second."""
    words = line.replace(",", " ").split()
    if len(words) >= 4 and words[0].lower() in ("move", "road") and _HEX.match(words[3]):
        return {"unit": words[1], "verb": "move", "to": {"hex": words[3]}}
    named = [w for w in words[1:] if _find(board, w)]
    if len(named) >= 2:
        return {"unit": named[0], "verb": words[0].lower(), "to": {"unit": named[1]}}
    return None
