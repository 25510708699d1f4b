"""Napoleon's War II alternative rules (seed 003) on the hex engine, over a house base marked
non-canonical. Importing this package registers the rule set as "napoleon". RULES.md gives
every NW rule with its decision.
"""
from rules.core.registry import register

from .ruleset import RULESET, NapoleonsWar

register(RULESET)

__all__ = ["RULESET", "NapoleonsWar"]
