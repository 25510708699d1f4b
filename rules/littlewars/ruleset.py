"""The Little Wars rule set object the platform talks to (rules.core.protocol.RuleSet)."""
from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from rules.core.protocol import LineError, ParsedOrders, RuleEvent, TurnSpec, Viewer

from . import adjudicate as _adj
from . import plan as _plan
from .describe import describe_event as _describe
from .fold import fold as _fold, initial_state as _initial
from .invariants import check_invariants
from .orders import ORDERS_HELP, parse_text
from .render import render_svg as _render
from .scenario import load
from .view import build_view


class LittleWars:
    name = "littlewars"
    title = "Little Wars (H. G. Wells)"
    sides = ("red", "blue")
    turn_mode = "simultaneous"
    orders_help = ORDERS_HELP

    def initial_state(self) -> dict:
        return _initial()

    def load_scenario(self, scenario: Any | None) -> dict:
        return load(scenario)

    def setup(self, scenario: Any, rng: random.Random) -> list[RuleEvent]:
        return _adj.setup(scenario, rng)

    def fold(self, state: Any, event_type: str, payload: Mapping[str, Any]) -> Any:
        return _fold(state, event_type, payload)

    def next_turn(self, state: Any) -> TurnSpec:
        return _adj.next_turn(state)

    def parse_orders(self, state: Any, side: str, text: str, kind: str = "orders") -> ParsedOrders:
        return parse_text(text)

    def validate(self, state: Any, side: str, orders: Sequence[Any], kind: str = "orders") -> tuple[LineError, ...]:
        return _plan.errors(state, side, orders)

    def default_orders(self, state: Any, side: str, kind: str = "orders") -> str:
        return _adj.default_orders(state, side, kind)

    def adjudicate(self, state: Any, orders: Mapping[str, Sequence[Any]], rng: random.Random | None = None,
                   kind: str = "orders") -> list[RuleEvent]:
        return _adj.adjudicate(state, orders, rng, kind)

    def result(self, state: Any) -> dict | None:
        res = state.get("result") if isinstance(state, dict) else None
        return dict(res) if res else None

    def view(self, state: Any, viewer: Viewer) -> dict:
        return build_view(state, viewer)

    def render_svg(self, view: Any) -> str:
        return _render(view)

    def describe_event(self, event_type: str, payload: Mapping[str, Any]) -> str:
        return _describe(event_type, payload)

    def check_invariants(self, state: Any) -> list[str]:
        return check_invariants(state)


RULESET = LittleWars()
