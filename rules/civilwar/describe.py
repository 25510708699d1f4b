"""One readable English line per event."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .board import natural_sorted
from .fold import PREFIX


def _cap(side: Any) -> str:
    return str(side).capitalize() if side else "Nobody"


def standing_lines(instructions: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Standing instructions as order lines (point-specific first, general rule last)."""

    out = []
    for key in natural_sorted(k for k in instructions if k != "*") + (["*"] if "*" in instructions else []):
        rule = instructions[key]
        text = "if attacked" + ("" if key == "*" else f" at {key}") + f" {rule.get('action')}"
        if rule.get("to"):
            text += f" to {rule['to']}"
        out.append(text)
    return out


def describe_event(event_type: str, payload: Mapping[str, Any]) -> str:
    if not event_type.startswith(PREFIX):
        return event_type
    kind = event_type[len(PREFIX):]
    p = payload
    side = _cap(p.get("side"))
    if kind == "map_loaded":
        m = p.get("map", {})
        return (f"The map '{m.get('name', '?')}' was laid out: {len(m.get('cities', []))} cities, "
                f"{len(m.get('roads', []))} roads, {len(m.get('lines', []))} straight lines.")
    if kind == "tokens_revealed":
        toks = p.get("tokens", {})
        red = sum(1 for v in toks.values() if v == "red")
        blue = sum(1 for v in toks.values() if v == "blue")
        return f"The sympathy tokens were shuffled, dealt one per city and turned face up: {red} red, {blue} blue."
    if kind == "standing_instructions":
        lines = standing_lines(p.get("instructions", {}))
        return f"{side} set its standing instructions: " + ("; ".join(lines) if lines else "none") + "."
    if kind == "orders_defaulted":
        why = "were missing" if p.get("reason") == "no orders" else "were invalid"
        return f"{side}'s {'decision' if p.get('kind') == 'decision' else 'orders'} {why}; the default '{p.get('orders')}' was applied."
    if kind == "unit_formed":
        return f"{side} formed a unit in {p.get('city')}."
    if kind == "unit_relocated":
        return f"{side} moved a unit from {p.get('from')} to {p.get('to')}."
    if kind == "assault":
        return (f"{side} assaulted {p.get('target')} from {p.get('source')} "
                f"({p.get('attackers')} units against {p.get('defenders')}).")
    if kind == "breakthrough":
        return (f"{side} broke through at {p.get('target')} along line {p.get('line')} with "
                f"{p.get('attackers')} units against {len(p.get('defenders', []))}; {p.get('vacated')} was vacated.")
    if kind == "decision_requested":
        return (f"{_cap(p.get('defender'))}'s unit driven from {p.get('point')} may retreat to "
                f"{' or '.join(p.get('options', []))} or fight to the end; {_cap(p.get('defender'))} decides.")
    if kind == "unit_retreated":
        return f"{side}'s unit retreated from {p.get('from')} to {p.get('to')} ({p.get('by')})."
    if kind == "unit_destroyed":
        return f"{side}'s unit at {p.get('point')} was destroyed: {p.get('reason')}."
    if kind == "terror":
        return (f"{side} carried out terror in {p.get('city')}: the {p.get('token')} sympathy token was removed "
                f"and the city is neutral.")
    if kind == "evacuation":
        return f"{side} evacuated its sympathisers from {p.get('from')} to {p.get('to')}."
    if kind == "turn_passed":
        return f"{side} passed."
    if kind == "turn_completed":
        return f"{side}'s turn {p.get('turn')} is over; {_cap(p.get('next'))} to move."
    if kind == "game_over":
        if p.get("winner"):
            return f"Game over: {_cap(p.get('winner'))} wins; {p.get('reason')}."
        return f"Game over: a draw; {p.get('reason')}."
    return f"{event_type}: {dict(p)}"
