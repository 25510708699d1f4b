"""Validation of a side's orders and adjudication of one turn into events."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from rules.core.i18n import _, pgettext
from rules.core.protocol import (
    PUBLIC,
    LineError,
    ParsedOrders,
    RuleEvent,
    State,
    TurnSpec,
    side_audience,
)

from . import battles
from .board import other
from .engaged import fought, open_battles
from .fold import PREFIX, fold
from .legality import (
    assault_counts,
    check_operation,
    has_legal_operation,
    resolve_breakthrough,
    retreat_options,
    standing_choice,
)
from .orders import (
    Assault,
    Breakthrough,
    Evacuate,
    Fight,
    Form,
    Move,
    Order,
    Pass,
    Retreat,
    Standing,
    Terror,
    parse_text,
)

DRAW_AFTER_PASSES = 6  # six passed turns in a row (three by each side) end the game as a draw

WHOLE = 0  # LineError.line for problems with the orders as a whole (not one line)


def parse(state: dict[str, Any], side: str, text: str, kind: str = "orders") -> ParsedOrders:
    board = state.get("board")
    points = set(board["kind"]) if board else None
    lines = set(board["lines"]) if board else None
    return parse_text(text, kind, points, lines)


def _whole(message: str) -> tuple[LineError, ...]:
    return (LineError(WHOLE, "", message),)


def validate(state: dict[str, Any], side: str, orders: Sequence[Order], kind: str = "orders") -> tuple[LineError, ...]:
    if state.get("result"):
        return _whole(_("the game is over"))
    if state.get("phase") != "play":
        return _whole(_("the game has not started"))
    pending = state.get("pending")
    if kind == "decision":
        return _validate_decision(state, side, orders, pending)
    if pending and pending.get("awaiting"):
        return _whole(
            _(
                "{defender} must first decide whether the unit at {point} retreats or fights",
                defender=pending["defender"],
                point=pending["point"],
            )
        )
    if side != state["to_move"]:
        return _whole(_("it is not {side}'s turn: {to_move} is to move", side=side, to_move=state["to_move"]))
    errors: list[LineError] = []
    operations = [o for o in orders if o.is_operation]
    if not operations:
        errors.append(
            LineError(
                WHOLE,
                "",
                _("no operation: write exactly one of form, move, assault, breakthrough, terror, evacuate (or pass)"),
            )
        )
    for extra in operations[1:]:
        errors.append(
            LineError(
                extra.line,
                extra.text,
                _(
                    "only one operation per turn (CW-10); line {line} already orders '{to_text}'",
                    line=operations[0].line,
                    to_text=operations[0].to_text(),
                ),
            )
        )
    if operations:
        op = operations[0]
        msg = check_operation(state, side, op)
        if msg:
            errors.append(LineError(op.line, op.text, msg))
    seen: dict[str, int] = {}
    for o in orders:
        if o.is_operation:
            continue
        if not isinstance(o, Standing):  # the only is_standing orders
            errors.append(LineError(o.line, o.text, _("a decision line is only allowed on a decision turn")))
            continue
        key = o.point or "*"
        if key in seen:
            where = _("at {point}", point=o.point) if o.point else _("(general rule)")
            errors.append(
                LineError(
                    o.line,
                    o.text,
                    _("line {value} already gives the instruction {where}", value=seen[key], where=where),
                )
            )
            continue
        seen[key] = o.line
        if o.to is not None:
            if o.point is None:
                errors.append(
                    LineError(
                        o.line,
                        o.text,
                        _(
                            "a general rule cannot name a destination: write 'if attacked at <point> retreat to <point>'"
                        ),
                    )
                )
            elif o.to not in state["board"]["adj"][o.point]:
                errors.append(LineError(o.line, o.text, _("{to} is not adjacent to {point}", to=o.to, point=o.point)))
    return tuple(sorted(errors, key=lambda e: e.line))


def _validate_decision(
    state: State, side: str, orders: Sequence[Order], pending: dict[str, Any] | None
) -> tuple[LineError, ...]:
    if not pending or not pending.get("awaiting"):
        return _whole(_("there is no decision to make"))
    if side != pending["defender"]:
        return _whole(_("the decision belongs to {defender}", defender=pending["defender"]))
    if not orders:
        return _whole(
            _("write one decision: 'retreat to <point>' ({options}) or 'fight'", options=", ".join(pending["options"]))
        )
    errors: list[LineError] = []
    for extra in orders[1:]:
        errors.append(
            LineError(
                extra.line, extra.text, _("a decision turn takes exactly one line: 'retreat to <point>' or 'fight'")
            )
        )
    first = orders[0]
    options = pending["options"]
    if isinstance(first, Retreat):
        if first.to is None and len(options) > 1:
            errors.append(
                LineError(
                    first.line,
                    first.text,
                    _("retreat where? write 'retreat to <point>' with one of: {options}", options=", ".join(options)),
                )
            )
        elif first.to is not None and first.to not in options:
            errors.append(LineError(first.line, first.text, _why_not_retreat(state, pending, first.to)))
    elif not isinstance(first, Fight):
        errors.append(
            LineError(first.line, first.text, _("this is a decision turn: write 'retreat to <point>' or 'fight'"))
        )
    return tuple(errors)


def _why_not_retreat(state: State, pending: dict[str, Any], to: str | None) -> str:
    point = pending["point"]
    options = ", ".join(pending["options"]) or "none"
    if to not in state["board"]["adj"][point]:
        reason = _("{to} is not adjacent to {point}", to=to, point=point)
    elif to in pending["vacated"]:
        reason = _("the attacker just came from {to}; you may not retreat through its lines", to=to)
    elif to in state["units"]:
        reason = _("{to} is occupied", to=to)
    else:
        reason = _("{to} is not available", to=to)
    return _("cannot retreat to {to}: {reason} (you can retreat to: {options})", to=to, reason=reason, options=options)


def default_orders(state: dict[str, Any], side: str, kind: str = "orders") -> str:
    if kind == "decision":
        pending = state.get("pending")
        if pending and pending.get("options"):
            return f"retreat to {pending['options'][0]}"
        return "fight"
    return "pass"


def _coerce(state: State, side: str, kind: str, value: Any) -> tuple[tuple[Order, ...], bool]:
    """Orders as the platform may hand them over -> (orders, had_parse_errors)."""
    if value is None:
        return (), False
    if isinstance(value, str):
        parsed = parse(state, side, value, kind)
        return parsed.orders, bool(parsed.errors)
    if isinstance(value, ParsedOrders):
        return value.orders, bool(value.errors)
    items = tuple(value)
    if items and all(isinstance(i, str) for i in items):
        parsed = parse(state, side, "\n".join(items), kind)
        return parsed.orders, bool(parsed.errors)
    return items, False


class _Run:
    def __init__(self, state: dict[str, Any]) -> None:
        self.state = state
        self.events: list[RuleEvent] = []

    def emit(self, name: str, payload: dict[str, Any], audience: str = PUBLIC) -> None:
        ev = RuleEvent(PREFIX + name, payload, audience)
        self.events.append(ev)
        self.state = fold(self.state, ev.type, payload)


def adjudicate(
    state: dict[str, Any], orders: Mapping[str, Any], rng: random.Random | None = None, kind: str = "orders"
) -> list[RuleEvent]:
    if state.get("result") or state.get("phase") != "play":
        return []
    pending = state.get("pending")
    if kind == "decision":
        if not pending or not pending.get("awaiting"):
            return []
        side = pending["defender"]
    else:
        if pending and pending.get("awaiting"):
            return []
        side = state["to_move"]
    run = _Run(state)
    own, bad_parse = _coerce(state, side, kind, (orders or {}).get(side))  # from here on, this side's
    reason = None
    if not own:
        reason = "invalid orders" if bad_parse else "no orders"
    elif bad_parse or validate(state, side, own, kind):
        reason = "invalid orders"
    defaulted = reason is not None
    if defaulted:
        text = default_orders(state, side, kind)
        run.emit("orders_defaulted", {"side": side, "kind": kind, "reason": reason, "orders": text})
        own = parse(state, side, text, kind).orders
    if kind == "decision":
        _decide(run, own[0], "default" if defaulted else "decision")
    else:
        _standing(run, side, [o for o in own if isinstance(o, Standing)])  # the only is_standing orders
        _operate(run, side, next(o for o in own if o.is_operation))
    return run.events


def _standing(run: _Run, side: str, lines: list[Standing]) -> None:
    if not lines:
        return
    current = dict(run.state["standing"].get(side, {}))
    for o in lines:
        key = o.point or "*"
        if o.action == "ask" and o.point is None:
            current.pop("*", None)
        else:
            current[key] = o.as_json()
    if current != run.state["standing"].get(side, {}):
        run.emit("standing_instructions", {"side": side, "instructions": current}, side_audience(side))


def _operate(run: _Run, side: str, op: Order) -> None:
    state = run.state
    enemy = other(side)
    if isinstance(op, Pass):
        run.emit("turn_passed", {"side": side})
        _complete(run, side, [], passed=True)
    elif isinstance(op, Form):
        run.emit("unit_formed", {"side": side, "city": op.city})
        _complete(run, side, [op.city])
    elif isinstance(op, Move):
        run.emit("unit_relocated", {"side": side, "from": op.unit, "to": op.to})
        _complete(run, side, [op.to])
    elif isinstance(op, Terror):
        run.emit("terror", {"side": side, "city": op.city, "token": state["tokens"][op.city]})
        _complete(run, side, [])
    elif isinstance(op, Evacuate):
        run.emit("evacuation", {"side": side, "from": op.city, "to": op.to})
        _complete(run, side, [])
    elif isinstance(op, Assault) and fought(state):  # version 2: the assault is a battle (battles.py)
        run.emit("battle_joined", battles.joined(state, side, op))
        _complete(run, side, [])
    elif isinstance(op, Assault):
        ours, theirs = assault_counts(state, side, op.target)
        run.emit(
            "assault",
            {
                "side": side,
                "target": op.target,
                "source": op.source,
                "defender": enemy,
                "attackers": ours,
                "defenders": theirs,
            },
        )
        _react(run)
    elif isinstance(op, Breakthrough):
        plan, err = resolve_breakthrough(state, side, op)
        assert plan is not None, err
        run.emit(
            "breakthrough",
            {
                "side": side,
                "target": plan["target"],
                "source": plan["source"],
                "line": plan["line"],
                "moves": plan["moves"],
                "column": plan["column"],
                "defenders": plan["defenders"],
                "defender": enemy,
                "attackers": len(plan["column"]),
                "vacated": plan["vacated"],
            },
        )
        _react(run)
    else:  # pragma: no cover - validate() rejects everything else
        raise AssertionError(f"not an operation: {op!r}")


def _react(run: _Run) -> None:
    """The dislodged defender retreats or dies (CW-18/23/24)."""
    pending = run.state["pending"]
    defender, point = pending["defender"], pending["point"]
    options = retreat_options(run.state, point, pending["vacated"])
    if not options:
        run.emit("unit_destroyed", {"side": defender, "point": point, "reason": "no free point to retreat to"})
        _complete(run, pending["attacker"], pending["entered"])
        return
    choice = standing_choice(run.state, defender, point, options)
    if choice is None:
        run.emit(
            "decision_requested",
            {"side": pending["attacker"], "defender": defender, "point": point, "options": options},
        )
        return
    action, to, _key = choice
    if action == "retreat":
        run.emit("unit_retreated", {"side": defender, "from": point, "to": to, "by": "standing instruction"})
    else:
        run.emit(
            "unit_destroyed", {"side": defender, "point": point, "reason": "fought to the end (standing instruction)"}
        )
    _complete(run, pending["attacker"], pending["entered"])


def _decide(run: _Run, order: Order, by: str) -> None:
    pending = run.state["pending"]
    defender, point = pending["defender"], pending["point"]
    if isinstance(order, Retreat):
        to = order.to or pending["options"][0]
        run.emit("unit_retreated", {"side": defender, "from": point, "to": to, "by": by})
    else:
        run.emit(
            "unit_destroyed",
            {
                "side": defender,
                "point": point,
                "reason": "fought to the end" + (" (default)" if by == "default" else ""),
            },
        )
    _complete(run, pending["attacker"], pending["entered"])


def _complete(run: _Run, side: str, entered: list[str], passed: bool = False) -> None:
    nxt = other(side)
    run.emit(
        "turn_completed",
        {"side": side, "turn": run.state["turn"], "entered": list(entered), "next": nxt, "passed": passed},
    )
    if open_battles(run.state):
        return  # neither the draw nor the loss while a battle is fought: its result may change both
    if run.state["passes"] >= DRAW_AFTER_PASSES:
        run.emit("game_over", {"winner": None, "reason": f"{DRAW_AFTER_PASSES} turns in a row were passed: a draw"})
    elif not has_legal_operation(run.state, nxt):
        run.emit("game_over", {"winner": side, "loser": nxt, "reason": f"{nxt} cannot carry out any operation (CW-11)"})


def next_turn(state: dict[str, Any]) -> TurnSpec:
    if state.get("result") or state.get("phase") != "play":
        return TurnSpec(())
    pending = state.get("pending")
    if pending and pending.get("awaiting"):
        d = pending["defender"]
        return TurnSpec(
            (d,),
            kind="decision",
            prompt=_(
                "Your unit at {point} was driven out by a {attacker} {operation}. Retreat to one of {options} "
                "('retreat to <point>') or fight to the end ('fight').",
                point=pending["point"],
                attacker=pgettext("side", pending["attacker"]),
                operation=_OPERATIONS.get(pending["operation"], pending["operation"]),
                options=", ".join(pending["options"]),
            ),
        )
    return TurnSpec(
        (state["to_move"],),
        kind="orders",
        prompt=_(
            "Turn {turn}: {side} carries out one operation.",
            turn=state["turn"],
            side=pgettext("side", state["to_move"]),
        ),
    )


# The operations a decision prompt names (payload words), as a reader reads them.
_OPERATIONS = {"assault": pgettext("operation", "assault"), "breakthrough": pgettext("operation", "breakthrough")}
