"""What every rule set object does the same way, written once.

``rules.core.protocol.RuleSet`` stays the contract; ``RuleSetBase`` is only the part of it
that no rule set does differently. A rule set is otherwise its own package's functions:
where a protocol method is one of them as it stands (same arguments, same defaults), the
class names it with ``staticmethod`` instead of writing a method that only passes the
call on; it writes a method where it adds something (a ruleset's ``setup``) or adapts the
arguments (an order parser that needs no state).
"""
from __future__ import annotations

from typing import Any


class RuleSetBase:
    """Base of the built-in rule sets: the game's result as the fold recorded it."""

    def result(self, state: Any) -> dict | None:
        """None while the game goes on; else a copy of the state's ``result``."""
        res = state.get("result") if isinstance(state, dict) else None
        return dict(res) if res else None

    def legal_orders(self, board: Any, side: str | None) -> list[str]:
        """The orders open to ``side`` now, listed on its game page, from its own view ``board``
        only (a rule set that lists them puts them in its view as ``legal_operations``; one whose
        list is costly overrides this, so the view, folded for every page and mail, stays cheap)."""
        return (board.get("legal_operations") or []) if isinstance(board, dict) else []
