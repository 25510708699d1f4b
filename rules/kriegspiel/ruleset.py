"""Little Wars as Kriegspiel (the appendix of seed 000): the rule set object the platform talks to.

It is the Little Wars engine (rules/littlewars) with the appendix's rules around it:
the same state plus ``ks`` (state.py), the same orders plus works, boxes and volleys
(orders.py), a turn that adds fire under the blast rule, mines, works, supply and
sighting (turn.py), and a fog-of-war view (view.py). Registered as "kriegspiel".
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from rules.core.base import RuleSetBase, titled
from rules.core.mapwords import Words
from rules.core.protocol import LineError, ParsedOrders, RuleEvent
from rules.littlewars import adjudicate as lw_adj
from rules.littlewars import compose as lw_compose
from rules.littlewars.commands import Teams
from rules.littlewars.fold import initial_state as lw_initial
from rules.littlewars.fold import refuse_carrying_version_1
from rules.littlewars.mapwords import WORDS as LW_WORDS
from rules.littlewars.render import render_svg as lw_render
from rules.littlewars.scenario import builtin_scenario as lw_builtin
from rules.littlewars.version import LW_VERSION

from . import battle as _battle
from . import orders as ks_orders
from .describe import describe_event as _describe
from .desk import HELP as DESK_HELP
from .desk import desk_events
from .invariants import check_invariants as ks_invariants
from .mapwords import WORDS as KS_WORDS
from .plan import errors as _errors
from .render import extra_svg
from .scenario import DEFAULT, builtin_names, builtin_scenario, load, playable_lw_names
from .state import fold as _fold
from .state import initial_ks
from .turn import adjudicate as _adjudicate
from .version import RULES_VERSION, ks_version
from .view import build_view

LAID = "littlewars.table_laid"


class Kriegspiel(Teams, RuleSetBase):
    name = "kriegspiel"
    title = "Little Wars as Kriegspiel (Wells and Sykes)"
    sides: tuple[str, ...] = ("red", "blue")
    turn_mode = "simultaneous"
    orders_help: str = ks_orders.ORDERS_HELP
    order_words: tuple[str, ...] = ks_orders.ORDER_WORDS
    umpire_help: str = DESK_HELP
    # rules/README.md "Versions": version 1's games are told apart by their table_laid (no per-side
    # ids: littlewars.fold.laid_by_version_1, works.py), version 3 and on by the rules_version their
    # table_laid records (version.ks_version), so this object plays all four
    version = RULES_VERSION
    versions = {
        1: "0.1.0: turns counted from the first turn of play; works and prisoner groups in one shared count",
        2: "0.2.0: the game's turn number everywhere (play_from); works and prisoner groups numbered per side",
        3: "0.3.0: a group split off or merged into carries its parent's supply for the turn (KS-51/52); "
        "a pursued unit whose withdrawal would leave the table is destroyed (KS-81); a figure killed by a "
        "mine sets off no later mine (KS-59); recorded at setup (table_laid's rules_version)",
        4: "0.3.0: on Little Wars version 3: a team's merge keeps a command's own follow-up lines (KS-9); "
        "charges ridden round scenery as cavalry moves, no figure ending inside scenery (KS-30, LW-27); "
        "chargers taken prisoner guarded where they fought (KS-78); a pursued unit with only an unfordable "
        "river behind it destroyed (KS-81); steep slopes judged on the ground (KS-25); sighting independent "
        "of the state's order of figures",
    }
    by_flags = (1, 2, 3)

    def unrecorded_version(self, state: Any) -> int:
        return ks_version(state)

    def carry_over(self, state: Any, old: int | None) -> Any:
        """A game laid by version 1 plays on by it to its end: its turns are numbered from the first
        turn of play and its ids by shared counts, which no later turn could renumber without
        changing every name and number its players have read. A version 2 or 3 game moves on as it
        stands, recorded as the current version on Little Wars' current base (the changes are in how
        later turns are adjudicated)."""
        refuse_carrying_version_1(state)
        return {**state, "lw_version": LW_VERSION, "ks": {**state["ks"], "rules_version": RULES_VERSION}}

    def scenarios(self) -> list[tuple[str, str]]:
        """Its own scenarios (the default first), then the Little Wars ones it can play."""
        own = [DEFAULT] + [n for n in builtin_names() if n != DEFAULT]
        return titled(own, builtin_scenario) + titled(playable_lw_names(), lw_builtin)

    def initial_state(self) -> dict[str, Any]:
        return {**lw_initial(), "ks": initial_ks(None)}

    load_scenario = staticmethod(load)

    def setup(self, scenario: Any, rng: random.Random) -> list[RuleEvent]:
        """Little Wars' setup, its table_laid recording the version that lays it (version.ks_version)."""
        return [
            replace(ev, payload={**ev.payload, "rules_version": RULES_VERSION}) if ev.type == LAID else ev
            for ev in lw_adj.setup(load(scenario), rng)
        ]

    fold = staticmethod(_fold)
    next_turn = staticmethod(lw_adj.next_turn)

    def parse_orders(self, state: Any, side: str, text: str, kind: str = "orders") -> ParsedOrders:
        return ks_orders.parse_text(text)

    def validate(self, state: Any, side: str, orders: Sequence[Any], kind: str = "orders") -> tuple[LineError, ...]:
        return _errors(state, side, orders)

    default_orders = staticmethod(lw_adj.default_orders)  # "hold", as in Little Wars
    adjudicate = staticmethod(_adjudicate)
    view = staticmethod(build_view)

    def render_svg(self, view: Any, crop: bool = False, lang: str = "en") -> str:
        words = Words(lang, LW_WORDS, KS_WORDS)
        return lw_render(view, crop=crop, extra=extra_svg(view, words), lang=lang, tables=(KS_WORDS,))

    describe_event = staticmethod(_describe)

    def umpire_orders(self, state: Any, text: str) -> tuple[list[RuleEvent], list[LineError]]:
        """The umpire's desk (desk.py): notes, reveals, ledger corrections, rulings."""
        return desk_events(state, text)

    check_invariants = staticmethod(ks_invariants)

    # clicks on the map: the table orders are Little Wars' (rules.core.protocol.OrderComposer)
    compose_order = staticmethod(lw_compose.compose_order)
    order_targets = staticmethod(lw_compose.order_targets)
    pending_marks = staticmethod(lw_compose.pending_marks)

    # a strategic battle fought on this table (rules.core.protocol.Tactical; battle.py, RULES.md)
    battle_scenario = staticmethod(_battle.battle_scenario)
    battle_result = staticmethod(_battle.battle_result)


RULESET = Kriegspiel()
