"""Rules versions recorded in a game's scenario (rules/README.md, "Versions").

Rule sets whose setup keeps the scenario in the state (War of the Worlds, Kings of War, Napoleon)
record there the version that set the game up (``rules_version``); a scenario without it was set
up by version 1. ``ScenarioVersion`` gives such a rule set what the platform asks of its versions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def scenario_version(scenario: Mapping[str, Any]) -> int:
    """The version a scenario as recorded at setup plays: 1 when it records none."""
    return int(scenario.get("rules_version", 1))


class ScenarioVersion:
    """Mixed in before RuleSetBase by a rule set that records its version in its scenario."""

    version: int

    def stamp(self, scenario: Mapping[str, Any]) -> dict[str, Any]:
        """The scenario as setup keeps it: recording this version."""
        return {**scenario, "rules_version": self.version}

    def unrecorded_version(self, state: Any) -> int:
        return scenario_version(state["scenario"]) if state.get("scenario") else 1

    def carry_over(self, state: Any, old: int | None) -> Any:
        """The same state, recorded as this version: such a rule set's changes are in how later turns
        are played, none in what stands on the field (a rule set that changes more overrides this)."""
        if not state.get("scenario"):
            return state
        return {**state, "scenario": self.stamp(state["scenario"])}
