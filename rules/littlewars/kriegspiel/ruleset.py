"""Little Wars as Kriegspiel (the appendix of seed 000): the rule set object the platform talks to.

It is the Little Wars engine (rules/littlewars) with the appendix's rules around it:
the same state plus ``ks`` (state.py), the same orders plus works, boxes and volleys
(orders.py), a turn that adds fire under the blast rule, mines, works, supply and
sighting (turn.py), and a fog-of-war view (view.py). Registered as "kriegspiel".
"""
from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from rules.core.protocol import LineError, ParsedOrders, RuleEvent, TurnSpec, Viewer

from .. import adjudicate as lw_adj
from ..fold import initial_state as lw_initial
from ..invariants import check_invariants as lw_invariants
from ..render import render_svg as lw_render
from . import orders as ks_orders
from .describe import describe_event as _describe
from .desk import HELP as DESK_HELP, desk_events
from .plan import errors as _errors
from .render import extra_svg
from .scenario import load
from .state import fold as _fold, initial_ks
from .turn import adjudicate as _adjudicate
from .view import build_view


class Kriegspiel:
    name = "kriegspiel"
    title = "Little Wars as Kriegspiel (Wells and Sykes)"
    sides = ("red", "blue")
    turn_mode = "simultaneous"
    orders_help = ks_orders.ORDERS_HELP
    umpire_help = DESK_HELP

    def initial_state(self) -> dict:
        return {**lw_initial(), "ks": initial_ks(None)}

    def load_scenario(self, scenario: Any | None) -> dict:
        return load(scenario)

    def setup(self, scenario: Any, rng: random.Random) -> list[RuleEvent]:
        return lw_adj.setup(load(scenario), rng)

    def fold(self, state: Any, event_type: str, payload: Mapping[str, Any]) -> Any:
        return _fold(state, event_type, payload)

    def next_turn(self, state: Any) -> TurnSpec:
        return lw_adj.next_turn(state)

    def parse_orders(self, state: Any, side: str, text: str, kind: str = "orders") -> ParsedOrders:
        return ks_orders.parse_text(text)

    def validate(self, state: Any, side: str, orders: Sequence[Any], kind: str = "orders") -> tuple[LineError, ...]:
        return _errors(state, side, orders)

    def default_orders(self, state: Any, side: str, kind: str = "orders") -> str:
        return "hold"

    def adjudicate(self, state: Any, orders: Mapping[str, Sequence[Any]], rng: random.Random | None = None,
                   kind: str = "orders") -> list[RuleEvent]:
        return _adjudicate(state, orders, rng, kind)

    def result(self, state: Any) -> dict | None:
        res = state.get("result") if isinstance(state, dict) else None
        return dict(res) if res else None

    def view(self, state: Any, viewer: Viewer) -> dict:
        return build_view(state, viewer)

    def render_svg(self, view: Any) -> str:
        base = lw_render(view)
        return base[:-len("</svg>")] + extra_svg(view) + "</svg>" if base.endswith("</svg>") else base

    def describe_event(self, event_type: str, payload: Mapping[str, Any]) -> str:
        return _describe(event_type, payload)

    def umpire_orders(self, state: Any, text: str) -> tuple[list[RuleEvent], list[LineError]]:
        """The umpire's desk (desk.py): notes, reveals, ledger corrections, rulings."""
        return desk_events(state, text)

    def check_invariants(self, state: Any) -> list[str]:
        return lw_invariants(state)


RULESET = Kriegspiel()
