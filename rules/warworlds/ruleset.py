"""The War of the Worlds rule set object the platform talks to (rules.core.protocol.RuleSet)."""

from __future__ import annotations

import random
from typing import Any

from rules.core.base import RuleSetBase, titled
from rules.core.protocol import PUBLIC, RuleEvent, side_audience
from rules.core.versions import ScenarioVersion
from rules.hex import los
from rules.hex.compose import HexComposer

from . import options as _options
from . import tactical as _tactical
from . import turn as _turn
from .battle import RULES_VERSION
from .data import SIDES
from .describe import describe_event as _describe
from .describe import describe_reason as _describe_reason
from .fold import PREFIX
from .fold import fold as _fold
from .fold import initial_state as _initial
from .orders import ORDER_WORDS, ORDERS_HELP, click_engage, click_move
from .render import render_svg as _render
from .scenario import NAMES, builtin, load, new_unit
from .view import build_view


class WarOfTheWorlds(ScenarioVersion, RuleSetBase):
    name = "warworlds"
    title = "War of the Worlds (Война Миров)"
    sides: tuple[str, ...] = SIDES
    turn_mode = "simultaneous"  # both sides order each phase; activations are interleaved by the engine
    orders_help: str = ORDERS_HELP
    order_words: tuple[str, ...] = ORDER_WORDS
    # rules/README.md "Versions": the version is recorded in the scenario at setup (battle.rules_version)
    version = RULES_VERSION
    versions = {
        1: "0.2.0: as first shipped",
        2: "0.3.0: a panicked unit flees to where it ends farthest from the nearest enemy it can see, leaving the "
        "map only where the hex beyond the edge is at least as far as any hex it could stop on (WW-59), and runs "
        "into and spots hidden enemies as any move does",
        3: "0.3.0: a side places its own hidden units in a deployment round before play, within a zone the "
        "scenario declares (the game's dice place any it leaves out); a unit with a penalty marker is kept from "
        "moving towards the enemy it can see, not towards hidden enemies (WW-58); hidden enemies holding the "
        "last ways out of a building are revealed before its panicked garrison surrenders (WW-49); a flight is "
        "not turned aside by the room a hidden enemy takes (WW-59)",
    }
    # Version 1 is told from version 2 and on by the scenario's record, and this object plays them all
    # (the code reads the recorded version). Version 2 has an object of its own only so that a game
    # moved on to it records 2, not 3 (carry_over stamps the object's version).
    by_flags = (1,)
    past = {2: lambda: _Version2()}

    initial_state = staticmethod(_initial)

    def scenarios(self) -> list[tuple[str, str]]:
        return titled(NAMES, builtin)

    def load_scenario(self, scenario: Any | None) -> dict[str, Any]:
        return load(scenario)

    def setup(self, scenario: Any, rng: random.Random) -> list[RuleEvent]:
        """The battle (public, without hidden units), then each side's hidden units (its eyes only):
        to be placed in the deployment round where the scenario gives the side a zone (deploy.py)."""
        sc = load(scenario)
        first = sc["first"] if sc["first"] != "dice" else rng.choice(SIDES)  # WW-5
        units = {u["id"]: new_unit(u) for u in sc["units"]}
        # the game keeps this line of sight and these rules
        public_sc = self.stamp(los.stamp({k: v for k, v in sc.items() if k != "units"}))
        events = [
            RuleEvent(
                PREFIX + "battle_set",
                {"scenario": public_sc, "first": first, "units": {k: u for k, u in units.items() if not u["hidden"]}},
                PUBLIC,
            )
        ]
        for side in SIDES:
            hidden = {k: u for k, u in units.items() if u["hidden"] and u["side"] == side}
            if hidden:
                aud = side_audience(side)
                kind = "awaiting_deployment" if side in sc.get("deployment", {}) else "hidden_deployed"
                events.append(RuleEvent(PREFIX + kind, {"units": hidden, "audience": aud}, aud))
        return events

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

    def legal_orders(self, board: Any, side: str | None) -> list[str]:
        """From the side's own view, on the page only."""
        return _options.open_orders(board, side)

    # clicks on the map (rules.core.protocol.OrderComposer)
    _composer = HexComposer(move=click_move, engage=click_engage)
    compose_order = _composer.compose_order
    order_targets = _composer.order_targets
    pending_marks = _composer.pending_marks

    # a strategic battle fought on this map (rules.core.protocol.Tactical; tactical.py, RULES.md)
    battle_scenario = staticmethod(_tactical.battle_scenario)
    battle_result = staticmethod(_tactical.battle_result)


class _Version2(WarOfTheWorlds):
    """Version 2 (0.3.0 before the deployment round): the same code, recording version 2."""

    version = 2
    versions = {v: what for v, what in WarOfTheWorlds.versions.items() if v <= 2}


RULESET = WarOfTheWorlds()
