"""The Civil War rule set object the platform talks to (rules.core.protocol.RuleSet)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules.core.base import RuleSetBase
from rules.core.i18n import gettext_noop
from rules.core.protocol import PUBLIC, GameOption, RuleEvent

from . import adjudicate as _adj
from . import battles as _battles
from . import compose as _compose
from .board import load_map, natural_sorted
from .describe import describe_event as _describe
from .describe import describe_reason as _describe_reason
from .engaged import open_battles
from .fold import PREFIX, build_state, check_invariants
from .fold import fold as _fold
from .fold import initial_state as _initial
from .legality import has_legal_operation, legal_operations
from .orders import ORDER_WORDS, ORDERS_HELP
from .render import render_svg as _render
from .view import build_view


class CivilWar(RuleSetBase):
    name = "civilwar"
    title = "Civil War (Гражданская война)"
    sides: tuple[str, ...] = ("red", "blue")
    turn_mode = "alternating"
    orders_help: str = ORDERS_HELP
    order_words: tuple[str, ...] = ORDER_WORDS
    version = 2  # rules/README.md "Versions"
    versions = {
        1: "0.1.0: as first shipped",
        2: "0.4.0: ground on the map's points (town, crossing, open, hills) and, where a campaign game's "
        "map says battles: true, assaults fought as battles (RULES.md §9)",
    }
    # version 1's games have neither: their map has no battles flag, so this object plays them alike
    by_flags = (1,)
    game_options: tuple[GameOption, ...] = (
        GameOption(
            "battles",
            gettext_noop("Assaults are fought as battles on the table (a campaign of linked battles)"),
        ),
    )

    # -- lifecycle ---------------------------------------------------------
    initial_state = staticmethod(_initial)

    def load_scenario(self, scenario: Any | None) -> dict[str, Any]:
        return load_map(scenario)

    def with_options(self, scenario: Any, options: Mapping[str, Any]) -> Any:
        self.check_options(options)
        if not options.get("battles"):
            return scenario
        return {**load_map(scenario), "battles": True}

    # -- battles (rules.core.protocol.Strategic; battles.py) ----------------
    def battles(self, state: Any) -> list[Any]:
        return open_battles(state)

    def resolve_by_rules(self, state: Any, battle_id: str) -> Any:
        return _battles.by_rules(state, battle_id)

    def resolve_battle(self, state: Any, battle_id: str, result: Mapping[str, Any], by: str) -> list[RuleEvent]:
        return _battles.resolve(state, battle_id, result, by)

    def setup(self, scenario: Any, rng: random.Random) -> list[RuleEvent]:
        """Public events: the map, then the shuffled and revealed tokens (CW-6..9)."""
        scenario = load_map(scenario)
        cities = natural_sorted(c["id"] for c in scenario["cities"])
        half = len(cities) // 2
        faces = ["red"] * half + ["blue"] * half
        rng.shuffle(faces)
        events = [
            RuleEvent(PREFIX + "map_loaded", {"map": scenario}, PUBLIC),
            RuleEvent(
                PREFIX + "tokens_revealed", {"tokens": dict(zip(cities, faces, strict=True)), "to_move": "red"}, PUBLIC
            ),
        ]
        state = self.initial_state()
        for ev in events:
            state = self.fold(state, ev.type, ev.payload)
        if not has_legal_operation(state, "red"):  # cannot happen with an even deal, kept for custom maps
            events.append(
                RuleEvent(
                    PREFIX + "game_over",
                    {"winner": "blue", "loser": "red", "reason": "red cannot carry out any operation (CW-11)"},
                )
            )
        return events

    fold = staticmethod(_fold)
    next_turn = staticmethod(_adj.next_turn)

    # -- orders ------------------------------------------------------------
    parse_orders = staticmethod(_adj.parse)
    validate = staticmethod(_adj.validate)
    default_orders = staticmethod(_adj.default_orders)
    adjudicate = staticmethod(_adj.adjudicate)

    # -- presentation ------------------------------------------------------
    view = staticmethod(build_view)
    render_svg = staticmethod(_render)
    describe_event = staticmethod(_describe)
    describe_reason = staticmethod(_describe_reason)

    # -- helpers for tests, bots and the platform --------------------------
    legal_operations = staticmethod(legal_operations)
    has_legal_operation = staticmethod(has_legal_operation)
    check_invariants = staticmethod(check_invariants)
    build_state = staticmethod(build_state)

    # clicks on the map (rules.core.protocol.OrderComposer)
    compose_order = staticmethod(_compose.compose_order)
    order_targets = staticmethod(_compose.order_targets)
    pending_marks = staticmethod(_compose.pending_marks)


RULESET = CivilWar()
