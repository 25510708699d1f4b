"""Little Wars as Kriegspiel: the appendix of seed 000 on top of the Little Wars rule set.

Pure Python (shapely, numpy): no Django here. The catalogue
(rules/catalog.py) lists ``RULESET`` as "kriegspiel".
"""

from .ruleset import RULESET, Kriegspiel

__all__ = ["RULESET", "Kriegspiel"]
