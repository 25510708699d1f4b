"""Orders by clicks on the Civil War map (rules.core.protocol.OrderComposer).

Orders name places, so the "unit" selected is a place: one of the side's units (its point), or
one of its cities for "form" and "evacuate". The targets are those of the operations legal now,
as the side's own view lists them; clicking the selected place itself forms a unit there or
carries out terror. A decision turn offers the retreats of its prompt."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core.compose import CompositionError, by_place, marks
from rules.core.i18n import _

from .orders import Assault, Breakthrough, Evacuate, Form, Move, Terror, parse_text


def _source_and_target(order: Any) -> tuple[str | None, str | None]:
    if isinstance(order, Move):
        return order.unit, order.to
    if isinstance(order, (Assault, Breakthrough)):
        return order.source, order.target
    if isinstance(order, Evacuate):
        return order.city, order.to
    if isinstance(order, (Form, Terror)):
        return order.city, order.city
    return None, None


def _read(line: str) -> Any:
    parsed = parse_text(line)
    return parsed.orders[0] if parsed.orders else None


def order_targets(board: Mapping[str, Any], side: str, unit_id: str) -> dict[str, list[str]]:
    pending = board.get("pending")
    if pending and pending.get("defender") == side and pending.get("point", "").upper() == unit_id.upper():
        return {p: [f"retreat to {p}"] for p in pending.get("options", [])}
    lines = [
        line
        for line in board.get("legal_operations") or []
        if (_source_and_target(_read(line))[0] or "").upper() == unit_id.upper()
    ]
    return by_place(lines, lambda line: _source_and_target(_read(line))[1])


def compose_order(board: Mapping[str, Any], side: str, unit_id: str, target: Mapping[str, Any]) -> str:
    place = str(target.get("node") or target.get("unit") or "")
    if not place:
        raise CompositionError(_("choose a place on the map"))
    lines = order_targets(board, side, unit_id).get(place.upper()) or order_targets(board, side, unit_id).get(place)
    if not lines:
        if not board.get("legal_operations") and not board.get("pending"):
            raise CompositionError(_("you have no operation to choose now"))
        raise CompositionError(_("no operation open to you now takes {unit} to {place}", unit=unit_id, place=place))
    verb = target.get("verb")
    chosen = [line for line in lines if line.split()[0] == verb] if verb else lines
    if not chosen:
        raise CompositionError(
            _(
                "{verb} is not open to you from {unit} to {place}: {lines}",
                verb=verb,
                unit=unit_id,
                place=place,
                lines=" / ".join(lines),
            )
        )
    return chosen[0]


def _mark(line: str) -> dict[str, Any] | None:
    source, target = _source_and_target(_read(line))
    return {"unit": source, "verb": line.split()[0].lower(), "to": {"node": target}} if source and target else None


def pending_marks(board: Mapping[str, Any], side: str, text: str) -> list[dict[str, Any]]:
    return marks(text, _mark)
