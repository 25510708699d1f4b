"""The Kings of War rule set object the platform talks to (rules.core.protocol.RuleSet)."""

from __future__ import annotations

from typing import Any

from rules.core.base import RuleSetBase, titled
from rules.core.protocol import ParsedOrders
from rules.core.versions import ScenarioVersion

from . import adjudicate as _adj
from . import battle as _battle
from . import compose as _compose
from .describe import describe_event as _describe
from .describe import describe_reason as _describe_reason
from .fold import fold as _fold
from .fold import initial_state as _initial
from .invariants import check_invariants
from .orders import ORDER_WORDS, ORDERS_HELP, parse_text
from .render import render_svg as _render
from .scenario import BUILTIN, DEFAULT, load
from .version import RULES_VERSION
from .view import build_view


class KingsOfWar(ScenarioVersion, RuleSetBase):
    name = "kingsofwar"
    title = "Kings of War (house base, non-canonical)"
    sides: tuple[str, ...] = ("red", "blue")
    turn_mode = "alternating"
    orders_help: str = ORDERS_HELP
    order_words: tuple[str, ...] = ORDER_WORDS
    # rules/README.md "Versions": the version is recorded in the scenario at setup (version.rules_version)
    version = RULES_VERSION
    versions = {
        1: "0.2.0: as first shipped",
        2: "0.3.0: a wall or unit only as high as both ends gives cover instead of blocking sight (KW-19, KW-EX-3: "
        "a wall of 2 or more blocks height-1 units); bases sharing a sliver no deeper than 1e-5 in touch, not "
        "overlap (positions keep 6 decimals: chargers of a massed charge at a slant regroup and move on); a charger "
        "goes straight ahead to the target's side, then slides along it to its place (three abreast: two charge, "
        "KW-1, KW-EX-1)",
        3: "0.3.0: the movement plan is final: a turn refuses exactly the lines validation names, each for a reason "
        "true of where the units end (issue 33); the charges on one side of a target are taken in line order, each "
        "carried out if it can charge together with the earlier ones carried out and any later ones, and a charger "
        "refused stays where it is, in the way of the others, who are placed anew without it (KW-1, KW-3, KW-5); a "
        "unit whose move is refused shoots from where it stands",
    }
    by_flags = (1, 2)

    initial_state = staticmethod(_initial)

    def scenarios(self) -> list[tuple[str, str]]:
        return titled([DEFAULT] + sorted(set(BUILTIN) - {DEFAULT}), BUILTIN.__getitem__)

    load_scenario = staticmethod(load)
    setup = staticmethod(_adj.setup)
    fold = staticmethod(_fold)
    next_turn = staticmethod(_adj.next_turn)

    def parse_orders(self, state: Any, side: str, text: str, kind: str = "orders") -> ParsedOrders:
        return parse_text(text)

    validate = staticmethod(_adj.validate)
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

    # a strategic battle fought on this table (rules.core.protocol.Tactical; battle.py, RULES.md §11)
    battle_scenario = staticmethod(_battle.battle_scenario)
    battle_result = staticmethod(_battle.battle_result)


RULESET = KingsOfWar()
