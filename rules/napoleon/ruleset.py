"""The Napoleon's War rule set object the platform talks to (rules.core.protocol.RuleSet)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules.core.base import RuleSetBase, titled
from rules.core.protocol import GameOption, RuleEvent
from rules.core.versions import ScenarioVersion
from rules.hex import los
from rules.hex.compose import HexComposer

from . import tactical as _tactical
from . import turn as _turn
from .battle import RULES_VERSION
from .data import OPTIONAL, SIDES
from .describe import describe_event as _describe
from .describe import describe_reason as _describe_reason
from .fold import PREFIX
from .fold import fold as _fold
from .fold import initial_state as _initial
from .orders import ORDER_WORDS, ORDERS_HELP, click_engage, click_move
from .render import render_svg as _render
from .scenario import NAMES, builtin, load, new_leader, new_unit
from .view import build_view


class NapoleonsWar(ScenarioVersion, RuleSetBase):
    name = "napoleon"
    title = "Napoleon's War II, alternative rules (house base)"
    sides: tuple[str, ...] = SIDES
    turn_mode = "alternating"  # the command-point economy is sequential (digest, adaptation)
    orders_help: str = ORDERS_HELP
    order_words: tuple[str, ...] = ORDER_WORDS
    # rules/README.md "Versions": the version is recorded in the scenario at setup (battle.rules_version)
    version = RULES_VERSION
    versions = {
        1: "0.2.0: as first shipped",
        2: "0.3.0: an attack left with 0 dice or fewer is not made (NW-51); an infantry leader makes no cavalry "
        "melee or charge cheaper (NW-42)",
    }
    by_flags = (1,)

    initial_state = staticmethod(_initial)
    # NW-54: the optional troops, agreed before sides are chosen (the scenario's ``options``).
    game_options = tuple(GameOption(o, o.replace("_", " ").capitalize()) for o in OPTIONAL)

    def scenarios(self) -> list[tuple[str, str]]:
        return titled(NAMES, builtin)

    def with_options(self, scenario: Any | None, options: Mapping[str, Any]) -> Any | None:
        """The scenario (a built-in by name) with the agreed troops added to its own ``options``."""
        self.check_options(options)
        chosen = {name for name, on in options.items() if on}
        if not chosen:
            return scenario
        data = builtin(scenario or NAMES[0]) if scenario is None or isinstance(scenario, str) else dict(scenario)
        return {**data, "options": sorted(set(data.get("options") or []) | chosen)}

    def load_scenario(self, scenario: Any | None) -> dict[str, Any]:
        return load(scenario)

    def setup(self, scenario: Any, rng: random.Random) -> list[RuleEvent]:
        sc = load(scenario)
        units = {u["id"]: new_unit(u) for u in sc["units"]}
        leaders = {x["id"]: new_leader(x) for x in sc["leaders"]}
        # the game keeps this line of sight and these rules
        public = self.stamp(los.stamp({k: v for k, v in sc.items() if k not in ("units", "leaders")}))
        side = sc["opening"] or sc["first"]
        return [
            RuleEvent(
                PREFIX + "battle_set",
                {"scenario": public, "side": side, "opening": bool(sc["opening"]), "units": units, "leaders": leaders},
            )
        ]

    fold = staticmethod(_fold)
    next_turn = staticmethod(_turn.next_turn)
    parse_orders = staticmethod(_turn.parse)
    validate = staticmethod(_turn.validate)
    default_orders = staticmethod(_turn.default_orders)
    adjudicate = staticmethod(_turn.adjudicate)
    view = staticmethod(build_view)
    render_svg = staticmethod(_render)
    describe_event = staticmethod(_describe)
    describe_reason = staticmethod(_describe_reason)

    # clicks on the map (rules.core.protocol.OrderComposer)
    _composer = HexComposer(move=click_move, engage=click_engage)
    compose_order = _composer.compose_order
    order_targets = _composer.order_targets
    pending_marks = _composer.pending_marks

    # a strategic battle fought on this map (rules.core.protocol.Tactical; tactical.py, RULES.md)
    battle_scenario = staticmethod(_tactical.battle_scenario)
    battle_result = staticmethod(_tactical.battle_result)


RULESET = NapoleonsWar()
