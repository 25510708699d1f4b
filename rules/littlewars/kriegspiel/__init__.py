"""Little Wars as Kriegspiel: the appendix of seed 000 on top of the Little Wars rule set.

Pure Python (shapely, numpy): no Django here. ``RULESET`` is registered as "kriegspiel"
when the rules registry loads the built-in rule sets.
"""
from rules.core.registry import register

from .ruleset import RULESET, Kriegspiel

register(RULESET)

__all__ = ["RULESET", "Kriegspiel"]
