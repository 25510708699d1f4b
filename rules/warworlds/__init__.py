"""War of the Worlds (seed 001) on the hex engine: a platoon-to-company game of squads, machines
and aircraft. Importing this package registers the rule set as "warworlds". RULES.md gives
every WW rule with its decision; the house base is marked non-canonical.
"""
from rules.core.registry import register

from .ruleset import RULESET, WarOfTheWorlds

register(RULESET)

__all__ = ["RULESET", "WarOfTheWorlds"]
