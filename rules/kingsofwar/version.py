"""Which rules a game plays (rules/README.md "Versions": a game keeps the rules it started with).

The version is recorded in the scenario when the battle is set up (``rules_version``); a game set
up without it (0.2.0) plays version 1 for good. What each version changed is in
``ruleset.KingsOfWar.versions`` and RULES.md; the code branches on ``rules_version`` where it does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core.versions import scenario_version

RULES_VERSION = 3
__all__ = ["RULES_VERSION", "rules_version", "scenario_version"]


def rules_version(state: Mapping[str, Any]) -> int:
    return scenario_version(state["scenario"])
