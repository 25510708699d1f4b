"""Kings of War (seed 004, an excerpt) on a continuous table, over a documented house base.

Pure Python (shapely): no Django here. The platform talks to ``RULESET``.
"""

from .ruleset import RULESET, KingsOfWar

__all__ = ["RULESET", "KingsOfWar"]
