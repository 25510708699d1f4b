"""One readable line per event: English, marked for the platform to translate (rules.core.i18n)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from rules.core.i18n import _, gettext_noop, joined, pgettext
from rules.core.i18n import side_name as _cap

from .board import natural_sorted
from .fold import PREFIX

# Words the adjudication writes into payloads (kept in English in the log), as readers see them.
_BY = {
    "standing instruction": gettext_noop("standing instruction"),
    "default": gettext_noop("default"),
    "decision": gettext_noop("decision"),
}
_TOKENS = {"red": pgettext("token", "red"), "blue": pgettext("token", "blue")}
_REASONS = {
    "no free point to retreat to": gettext_noop("no free point to retreat to"),
    "fought to the end (standing instruction)": gettext_noop("fought to the end (standing instruction)"),
    "fought to the end": gettext_noop("fought to the end"),
    "fought to the end (default)": gettext_noop("fought to the end (default)"),
}
_CANNOT = re.compile(r"^(\w+) cannot carry out any operation \(CW-11\)$")
_PASSED = re.compile(r"^(\d+) turns in a row were passed: a draw$")


def describe_reason(reason: Any) -> Any:
    """A game-over reason from its payload, marked for translation where it is one of the known ones."""
    cannot, passed = _CANNOT.match(str(reason or "")), _PASSED.match(str(reason or ""))
    if cannot:
        return _("{side} cannot carry out any operation (CW-11)", side=pgettext("side", cannot.group(1)))
    if passed:
        return _("{count} turns in a row were passed: a draw", count=passed.group(1))
    return _REASONS.get(reason, reason)


def standing_lines(instructions: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Standing instructions as order lines (point-specific first, general rule last)."""

    out = []
    for key in natural_sorted(k for k in instructions if k != "*") + (["*"] if "*" in instructions else []):
        rule = instructions[key]
        text = "if attacked" + ("" if key == "*" else f" at {key}") + f" {rule.get('action')}"  # order words
        if rule.get("to"):
            text += f" to {rule['to']}"
        out.append(text)
    return out


def describe_event(event_type: str, payload: Mapping[str, Any]) -> str:
    if not event_type.startswith(PREFIX):
        return event_type
    kind = event_type[len(PREFIX) :]
    p = payload
    side = _cap(p.get("side"))
    if kind == "map_loaded":
        m = p.get("map", {})
        return _(
            "The map '{name}' was laid out: {cities} cities, {roads} roads, {lines} straight lines.",
            name=m.get("name", "?"),
            cities=len(m.get("cities", [])),
            roads=len(m.get("roads", [])),
            lines=len(m.get("lines", [])),
        )
    if kind == "tokens_revealed":
        toks = p.get("tokens", {})
        red = sum(1 for v in toks.values() if v == "red")
        blue = sum(1 for v in toks.values() if v == "blue")
        return _(
            "The sympathy tokens were shuffled, dealt one per city and turned face up: {red} red, {blue} blue.",
            red=red,
            blue=blue,
        )
    if kind == "standing_instructions":
        lines = standing_lines(p.get("instructions", {}))
        return _(
            "{side} set its standing instructions: {lines}.", side=side, lines="; ".join(lines) if lines else _("none")
        )
    if kind == "orders_defaulted":
        missing, orders = p.get("reason") == "no orders", p.get("orders")
        if p.get("kind") == "decision":
            return (
                _("{side}'s decision was missing; the default '{orders}' was applied.", side=side, orders=orders)
                if missing
                else _("{side}'s decision was invalid; the default '{orders}' was applied.", side=side, orders=orders)
            )
        return (
            _("{side}'s orders were missing; the default '{orders}' was applied.", side=side, orders=orders)
            if missing
            else _("{side}'s orders were invalid; the default '{orders}' was applied.", side=side, orders=orders)
        )
    if kind == "unit_formed":
        return _("{side} formed a unit in {city}.", side=side, city=p.get("city"))
    if kind == "unit_relocated":
        return _("{side} moved a unit from {origin} to {to}.", side=side, origin=p.get("from"), to=p.get("to"))
    if kind == "assault":
        return _(
            "{side} assaulted {target} from {source} ({attackers} units against {defenders}).",
            side=side,
            target=p.get("target"),
            source=p.get("source"),
            attackers=p.get("attackers"),
            defenders=p.get("defenders"),
        )
    if kind == "breakthrough":
        return _(
            "{side} broke through at {target} along line {line} with {attackers} units against {defenders}; "
            "{vacated} was vacated.",
            side=side,
            target=p.get("target"),
            line=p.get("line"),
            attackers=p.get("attackers"),
            defenders=len(p.get("defenders", [])),
            vacated=p.get("vacated"),
        )
    if kind == "decision_requested":
        return _(
            "{defender}'s unit driven from {point} may retreat to {options} or fight to the end; {defender} decides.",
            defender=_cap(p.get("defender")),
            point=p.get("point"),
            options=" / ".join(p.get("options", [])),
        )
    if kind == "unit_retreated":
        return _(
            "{side}'s unit retreated from {origin} to {to} ({by}).",
            side=side,
            origin=p.get("from"),
            to=p.get("to"),
            by=_BY.get(str(p.get("by")), p.get("by")),
        )
    if kind == "unit_destroyed":
        return _(
            "{side}'s unit at {point} was destroyed: {reason}.",
            side=side,
            point=p.get("point"),
            reason=_REASONS.get(str(p.get("reason")), p.get("reason")),
        )
    if kind == "terror":
        return _(
            "{side} carried out terror in {city}: the {token} sympathy token was removed and the city is neutral.",
            side=side,
            city=p.get("city"),
            token=_TOKENS.get(str(p.get("token")), p.get("token")),
        )
    if kind == "evacuation":
        return _(
            "{side} evacuated its sympathisers from {origin} to {to}.", side=side, origin=p.get("from"), to=p.get("to")
        )
    if kind == "turn_passed":
        return _("{side} passed.", side=side)
    if kind == "turn_completed":
        return _(
            "{side}'s turn {turn} is over; {next} to move.", side=side, turn=p.get("turn"), next=_cap(p.get("next"))
        )
    if kind == "battle_joined":
        forces = p.get("forces", {})
        return _(
            "{side} assaulted {target} from {source}: battle {battle} is joined at {name}, {attackers} units "
            "against {defenders}; they take no part in other operations until it is decided.",
            side=side,
            target=p.get("target"),
            source=p.get("source"),
            battle=p.get("battle"),
            name=p.get("place", {}).get("name"),
            attackers=len(forces.get(p.get("attacker"), [])),
            defenders=len(forces.get(p.get("defender"), [])),
        )
    if kind == "battle_resolved":
        return _battle_resolved(p)
    if kind == "game_over":
        if p.get("winner"):
            return _(
                "Game over: {winner} wins; {reason}.",
                winner=_cap(p.get("winner")),
                reason=describe_reason(p.get("reason")),
            )
        return _("Game over: a draw; {reason}.", reason=describe_reason(p.get("reason")))
    return f"{event_type}: {dict(p)}"


_BATTLE_BY = {
    "table": gettext_noop("fought on the table"),
    "rules": gettext_noop("decided by the Civil War's rules"),
    "umpire": gettext_noop("decided by the umpire"),
}


def _battle_resolved(p: Mapping[str, Any]) -> str:
    winner = p.get("winner")
    head = (
        _("Battle {battle} ({by}): {winner} won; {holder} holds {place}.", winner=_cap(winner), **_battle_words(p))
        if winner
        else _("Battle {battle} ({by}): neither side won; {holder} holds {place}.", **_battle_words(p))
    )
    lost = p.get("lost", {})
    losses = [_("{side} lost {units}.", side=_cap(s), units=", ".join(u)) for s, u in sorted(lost.items()) if u]
    parts = [head, *(losses or [_("No unit was lost.")])]
    retreat = p.get("retreat")
    if retreat and retreat.get("to"):
        parts.append(_("The garrison of {origin} retreated to {to}.", origin=retreat["from"], to=retreat["to"]))
    elif retreat:
        reason = _REASONS.get(str(retreat.get("reason")), retreat.get("reason"))
        parts.append(_("The garrison of {origin} was destroyed: {reason}.", origin=retreat["from"], reason=reason))
    return joined(parts, " ")


def _battle_words(p: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "battle": p.get("battle"),
        "by": _BATTLE_BY.get(str(p.get("by")), p.get("by")),
        "holder": _cap(p.get("holds")),
        "place": p.get("place", {}).get("name"),
    }
