"""A closed turn's adjudication: pure given the state and the orders, so the log's verification
can re-run it from the sealed seed and compare."""

from __future__ import annotations

from campaigns.log.eventstore import Draft
from rules.core import dice
from rules.core.protocol import UMPIRE, RuleEvent

from . import lifecycle
from .state import LifecycleState


def adjudication_drafts(state: LifecycleState, orders_text: dict[str, str]) -> list[Draft]:
    """The adjudication of the closed turn from its sealed seed: pure given state and orders."""
    rs = lifecycle.ruleset_of(state)
    turn = state.turn
    orders = {side: rs.parse_orders(state.rules, side, text, turn.kind).orders for side, text in orders_text.items()}
    events = rs.adjudicate(state.rules, orders, dice.rng_for(turn.seed, "turn"), turn.kind)
    head = Draft(
        turn.number,
        RuleEvent(
            "turn.adjudicated", {"turn": turn.number, "orders": orders_text, "count": len(events)}, audience=UMPIRE
        ),
    )
    return [head] + [Draft(turn.number, ev) for ev in events]
