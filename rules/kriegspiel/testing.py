"""A scripted player for the Kriegspiel (the conformance kit's, tests/rules/test_conformance.py):
Little Wars' bot, whose orders the Kriegspiel reads alike, less the lines the Kriegspiel refuses
(a group without supply cannot move, KS-52; no fire in the fog at what it cannot see...)."""

from __future__ import annotations

from typing import Any

from rules.littlewars.testing import bot_orders as lw_bot_orders

from . import RULESET as RS


def bot_orders(state: dict[str, Any], side: str) -> str:
    kept: list[str] = []
    for line in lw_bot_orders(state, side).splitlines():
        trial = "\n".join([*kept, line])
        parsed = RS.parse_orders(state, side, trial)
        if not parsed.errors and not RS.validate(state, side, parsed.orders):
            kept.append(line)
    return "\n".join(kept) if kept else RS.default_orders(state, side)
