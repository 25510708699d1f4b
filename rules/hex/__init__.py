"""A hex-grid engine shared by the hex rule sets (War of the Worlds, Napoleon's War).

Pure Python. See README.md for the conventions (axial flat-top coordinates, CCRR labels,
hexside keys, the line-of-sight border rule).
"""

from . import coords, los, paths, stacking
from .board import HexMap, hexmap, load_map
from .coords import (
    DIRECTIONS,
    Hex,
    distance,
    label,
    lines,
    neighbour,
    neighbours,
    parse_label,
    ring,
    side_between,
    side_key,
    within,
)

__all__ = [
    "DIRECTIONS",
    "Hex",
    "HexMap",
    "coords",
    "distance",
    "hexmap",
    "label",
    "lines",
    "load_map",
    "los",
    "neighbour",
    "neighbours",
    "parse_label",
    "paths",
    "ring",
    "side_between",
    "side_key",
    "stacking",
    "within",
]
