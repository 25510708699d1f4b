"""Little Wars (H. G. Wells, seed 000, main part) as a simultaneous play-by-mail rule set.

Pure Python (shapely, networkx): no Django here. The platform talks to ``RULESET``.
"""
from .ruleset import RULESET, LittleWars

__all__ = ["RULESET", "LittleWars"]
