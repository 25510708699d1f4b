"""Kings of War (seed 004, an excerpt) on a continuous table, over a documented house base.

Pure Python (shapely): no Django here. The platform talks to ``RULESET``.
"""
from rules.core.registry import register

from .ruleset import RULESET, KingsOfWar

register(RULESET)

__all__ = ["RULESET", "KingsOfWar"]
