"""Napoleon's War II alternative rules (seed 003) on the hex engine, over a house base marked
non-canonical. The catalogue (rules/catalog.py) lists
``RULESET`` as "napoleon". RULES.md gives
every NW rule with its decision.
"""

from .ruleset import RULESET, NapoleonsWar

__all__ = ["RULESET", "NapoleonsWar"]
