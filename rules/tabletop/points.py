"""A point on the table in inches, and a path of them (JSON keeps either as lists)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import shapely
from numpy.typing import NDArray

XY = tuple[float, float]
Polyline = Sequence[Sequence[float]]  # [[x, y], ...] as JSON gives it, or a list of XY
Coord = Sequence[float]  # one point: an XY or the [x, y] JSON gives


def point_array(xy: NDArray[np.float64]) -> NDArray[np.object_]:
    """The shapely Points of an (n, 2) array of coordinates, as an array (``shapely.points`` gives
    one, but its stubs say Point or array): what an STRtree of many points is built from."""
    return np.asarray(shapely.points(xy))
