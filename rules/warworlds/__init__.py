"""War of the Worlds (seed 001) on the hex engine: a platoon-to-company game of squads, machines
and aircraft. The catalogue (rules/catalog.py) lists
``RULESET`` as "warworlds". RULES.md gives
every WW rule with its decision; the house base is marked non-canonical.
"""

from .ruleset import RULESET, WarOfTheWorlds

__all__ = ["RULESET", "WarOfTheWorlds"]
