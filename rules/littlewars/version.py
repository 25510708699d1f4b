"""Which Little Wars rules a game plays (rules/README.md "Versions": a game keeps the rules it started with).

Version 3 is recorded at setup: the ``table_laid`` of a game laid by it carries ``"lw_version": 3``,
folded into ``state["lw_version"]``. The Kriegspiel is laid by the same setup, so a Kriegspiel game
records which Little Wars base it plays too (its own version is ``kriegspiel.version.ks_version``):
code shared by both rule sets branches on ``lw_version``. A game without it plays version 1 or 2
for good, as its ``table_laid`` says (no per-side ids: version 1, ``fold.laid_by_version_1``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

LW_VERSION = 3


def lw_version(state: Mapping[str, Any]) -> int:
    """The Little Wars rules this game plays: the version its table_laid recorded, else 1 or 2."""
    recorded = state.get("lw_version")
    if recorded is not None:
        return int(recorded)
    return 1 if state.get("ids") != "side" else 2
