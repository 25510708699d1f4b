"""Which rules a Kriegspiel game plays (rules/README.md "Versions": a game keeps the rules it started with).

Version 3 on is recorded at setup: the ``table_laid`` of a game laid by it carries ``"rules_version"``,
folded into ``state["ks"]["rules_version"]`` (state.py). A game without it plays version 1 or 2 for
good, as its ``table_laid`` says (no per-side ids: version 1, ``littlewars.fold.laid_by_version_1``).
What each version changed is in ``ruleset.Kriegspiel.versions`` and RULES.md; the code branches on
``ks_version`` where it does. Version 4 also plays Little Wars version 3, which the same
``table_laid`` records (``littlewars.version.lw_version``: what the code both rule sets share
branches on).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.littlewars.fold import laid_by_version_1

RULES_VERSION = 4


def ks_version(state: Mapping[str, Any]) -> int:
    """The version of the rules this game plays: the one recorded at setup, else 1 or 2 by its flags."""
    recorded = (state.get("ks") or {}).get("rules_version")
    if recorded is not None:
        return int(recorded)
    return 1 if laid_by_version_1(dict(state)) else 2
