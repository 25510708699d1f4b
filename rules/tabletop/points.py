"""A point on the table in inches, and a path of them (JSON keeps either as lists)."""
from __future__ import annotations

from typing import Sequence

XY = tuple[float, float]
Polyline = Sequence[Sequence[float]]  # [[x, y], ...] as JSON gives it, or a list of XY
Coord = Sequence[float]  # one point: an XY or the [x, y] JSON gives
