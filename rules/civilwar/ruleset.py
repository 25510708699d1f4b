"""The Civil War rule set object the platform talks to (rules.core.protocol.RuleSet)."""
from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from rules.core.protocol import PUBLIC, LineError, ParsedOrders, RuleEvent, TurnSpec, Viewer

from . import adjudicate as _adj
from .board import load_map, natural_sorted
from .describe import describe_event as _describe
from .fold import PREFIX, build_state, check_invariants, fold as _fold, initial_state as _initial
from .legality import has_legal_operation, legal_operations
from .orders import ORDERS_HELP
from .render import render_svg as _render
from .view import build_view


class CivilWar:
    name = "civilwar"
    title = "Civil War (Гражданская война)"
    sides = ("red", "blue")
    turn_mode = "alternating"
    orders_help = ORDERS_HELP

    # -- lifecycle ---------------------------------------------------------
    def initial_state(self) -> dict:
        return _initial()

    def load_scenario(self, scenario: Any | None) -> dict:
        return load_map(scenario)

    def setup(self, scenario: Any, rng: random.Random) -> list[RuleEvent]:
        """Public events: the map, then the shuffled and revealed tokens (CW-6..9)."""
        scenario = load_map(scenario)
        cities = natural_sorted(c["id"] for c in scenario["cities"])
        half = len(cities) // 2
        faces = ["red"] * half + ["blue"] * half
        rng.shuffle(faces)
        events = [
            RuleEvent(PREFIX + "map_loaded", {"map": scenario}, PUBLIC),
            RuleEvent(PREFIX + "tokens_revealed", {"tokens": dict(zip(cities, faces)), "to_move": "red"}, PUBLIC),
        ]
        state = self.initial_state()
        for ev in events:
            state = self.fold(state, ev.type, ev.payload)
        if not has_legal_operation(state, "red"):  # cannot happen with an even deal, kept for custom maps
            events.append(RuleEvent(PREFIX + "game_over", {"winner": "blue", "loser": "red",
                                                           "reason": "red cannot carry out any operation (CW-11)"}))
        return events

    def fold(self, state: Any, event_type: str, payload: Mapping[str, Any]) -> Any:
        return _fold(state, event_type, payload)

    def next_turn(self, state: Any) -> TurnSpec:
        return _adj.next_turn(state)

    # -- orders ------------------------------------------------------------
    def parse_orders(self, state: Any, side: str, text: str, kind: str = "orders") -> ParsedOrders:
        return _adj.parse(state, side, text, kind)

    def validate(self, state: Any, side: str, orders: Sequence[Any], kind: str = "orders") -> tuple[LineError, ...]:
        return _adj.validate(state, side, orders, kind)

    def default_orders(self, state: Any, side: str, kind: str = "orders") -> str:
        return _adj.default_orders(state, side, kind)

    def adjudicate(self, state: Any, orders: Mapping[str, Sequence[Any]], rng: random.Random | None = None,
                   kind: str = "orders") -> list[RuleEvent]:
        return _adj.adjudicate(state, orders, rng, kind)

    def result(self, state: Any) -> dict | None:
        res = state.get("result") if isinstance(state, dict) else None
        return dict(res) if res else None

    # -- presentation ------------------------------------------------------
    def view(self, state: Any, viewer: Viewer) -> dict:
        return build_view(state, viewer)

    def render_svg(self, view: Any) -> str:
        return _render(view)

    def describe_event(self, event_type: str, payload: Mapping[str, Any]) -> str:
        return _describe(event_type, payload)

    # -- helpers for tests, bots and the platform --------------------------
    def legal_operations(self, state: Any, side: str) -> list[str]:
        return legal_operations(state, side)

    def has_legal_operation(self, state: Any, side: str) -> bool:
        return has_legal_operation(state, side)

    def check_invariants(self, state: Any) -> list[str]:
        return check_invariants(state)

    def build_state(self, *args, **kwargs) -> dict:
        return build_state(*args, **kwargs)


RULESET = CivilWar()
