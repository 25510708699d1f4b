"""The Little Wars rule set object the platform talks to (rules.core.protocol.RuleSet)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.core.base import RuleSetBase, titled
from rules.core.protocol import LineError, ParsedOrders

from . import adjudicate as _adj
from . import battle as _battle
from . import compose as _compose
from . import plan as _plan
from .commands import Teams
from .describe import describe_event as _describe
from .describe import describe_reason as _describe_reason
from .fold import fold as _fold
from .fold import initial_state as _initial
from .fold import refuse_carrying_version_1
from .invariants import check_invariants
from .orders import ORDER_WORDS, ORDERS_HELP, parse_text
from .render import render_svg as _render
from .scenario import DEFAULT_SCENARIO, builtin_names, builtin_scenario, load
from .version import LW_VERSION, lw_version
from .view import build_view


class LittleWars(Teams, RuleSetBase):
    name = "littlewars"
    title = "Little Wars (H. G. Wells)"
    sides: tuple[str, ...] = ("red", "blue")
    turn_mode = "simultaneous"
    orders_help: str = ORDERS_HELP
    order_words: tuple[str, ...] = ORDER_WORDS
    # rules/README.md "Versions": version 1's games are told apart by their table_laid (no per-side
    # ids: fold.laid_by_version_1), version 3's by the lw_version it records (version.lw_version),
    # so this object plays all three
    version = LW_VERSION
    versions = {
        1: "0.1.0: turns counted from the first turn of play; prisoner groups numbered in one shared count",
        2: "0.2.0: the game's turn number everywhere (play_from); prisoner and freed groups numbered per side",
        3: "0.3.0: a team's merge keeps a command's own follow-up lines (split then mine or move the "
        "new group: LW-61); recorded at setup (table_laid's lw_version)",
    }
    by_flags = (1, 2)

    def unrecorded_version(self, state: Any) -> int:
        return lw_version(state)

    def carry_over(self, state: Any, old: int | None) -> Any:
        """A game laid by version 1 plays on by it to its end: its turns are numbered from the first
        turn of play and its ids by shared counts, which no later turn could renumber without
        changing every name and number its players have read. A version 2 game moves on as it
        stands, recorded as version 3 (the change is in how later orders are merged)."""
        refuse_carrying_version_1(state)
        return {**state, "lw_version": LW_VERSION}

    initial_state = staticmethod(_initial)

    def scenarios(self) -> list[tuple[str, str]]:
        """The default first, then the rest by name."""
        names = builtin_names()
        return titled([DEFAULT_SCENARIO] + [n for n in names if n != DEFAULT_SCENARIO], builtin_scenario)

    load_scenario = staticmethod(load)
    # a strategic battle fought on this table (rules.core.protocol.Tactical; battle.py, RULES.md §14)
    battle_scenario = staticmethod(_battle.battle_scenario)
    battle_result = staticmethod(_battle.battle_result)
    setup = staticmethod(_adj.setup)
    fold = staticmethod(_fold)
    next_turn = staticmethod(_adj.next_turn)

    def parse_orders(self, state: Any, side: str, text: str, kind: str = "orders") -> ParsedOrders:
        return parse_text(text)

    def validate(self, state: Any, side: str, orders: Sequence[Any], kind: str = "orders") -> tuple[LineError, ...]:
        return _plan.errors(state, side, orders)

    default_orders = staticmethod(_adj.default_orders)
    adjudicate = staticmethod(_adj.adjudicate)
    view = staticmethod(build_view)
    render_svg = staticmethod(_render)
    describe_event = staticmethod(_describe)
    describe_reason = staticmethod(_describe_reason)
    check_invariants = staticmethod(check_invariants)

    # clicks on the map (rules.core.protocol.OrderComposer)
    compose_order = staticmethod(_compose.compose_order)
    order_targets = staticmethod(_compose.order_targets)
    pending_marks = staticmethod(_compose.pending_marks)


RULESET = LittleWars()
