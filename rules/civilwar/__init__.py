"""Civil War (seed 002): a two-player point-to-point game of Reds and Blues.

The catalogue (rules/catalog.py) lists ``RULESET`` as "civilwar". See RULES.md for
the rules (with seed citations CW-n and every adaptation decision).
"""

from .board import default_map, load_map
from .fold import build_state, check_invariants
from .legality import has_legal_operation, legal_operations
from .ruleset import RULESET, CivilWar

__all__ = [
    "RULESET",
    "CivilWar",
    "build_state",
    "check_invariants",
    "default_map",
    "has_legal_operation",
    "legal_operations",
    "load_map",
]
