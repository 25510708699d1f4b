"""Hex coordinates: axial (q, r) on a flat-topped grid, after Red Blob Games' hexagon guide.

A hex is a plain tuple ``(q, r)``; the cube coordinate ``s = -q - r`` is derived when needed.
Flat-topped means columns of hexes; with screen y growing downwards the six directions are

    d  axial step  faces      clock
    0  ( 0, -1)    north      12
    1  (+1, -1)    north-east  2
    2  (+1,  0)    south-east  4
    3  ( 0, +1)    south       6
    4  (-1, +1)    south-west  8
    5  (-1,  0)    north-west 10

so the opposite side is ``(d + 3) % 6`` and sides 120° apart are ``d ± 2``.

Labels are the wargamer's CCRR numbers (column then row, 01-based, "0101" top-left) in the
"odd-q" offset layout: odd columns sit half a hex lower.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from functools import lru_cache

Hex = tuple[int, int]

DIRECTIONS: tuple[Hex, ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
DIRECTION_NAMES = ("N", "NE", "SE", "S", "SW", "NW")
CLOCK = (12, 2, 4, 6, 8, 10)
SQRT3 = math.sqrt(3.0)


def add(a: Hex, b: Hex) -> Hex:
    return (a[0] + b[0], a[1] + b[1])


def sub(a: Hex, b: Hex) -> Hex:
    return (a[0] - b[0], a[1] - b[1])


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def neighbour(h: Hex, d: int) -> Hex:
    step = DIRECTIONS[d % 6]
    return (h[0] + step[0], h[1] + step[1])


def neighbours(h: Hex) -> list[Hex]:
    return [(h[0] + dq, h[1] + dr) for dq, dr in DIRECTIONS]


def direction_to(a: Hex, b: Hex) -> int | None:
    """The side of ``a`` that faces the adjacent hex ``b`` (None if not adjacent)."""
    try:
        return DIRECTIONS.index(sub(b, a))
    except ValueError:
        return None


def bearing(a: Hex, b: Hex) -> int:
    """The direction (0..5) whose hexside faces ``b`` most nearly, for any distinct hexes.

    Ties (``b`` exactly on the line between two sectors) go to the next direction clockwise,
    so the answer is deterministic.
    """
    ax, ay = to_pixel(a, 1.0)
    bx, by = to_pixel(b, 1.0)
    angle = math.degrees(math.atan2(bx - ax, -(by - ay))) % 360.0  # 0 = north, clockwise
    return int(((angle + 30.0 + 1e-9) % 360.0) // 60.0)


def clock(d: int) -> int:
    return CLOCK[d % 6]


def ring(centre: Hex, radius: int) -> list[Hex]:
    """The hexes at exactly ``radius`` from ``centre`` (6·radius of them; [centre] for 0)."""
    if radius == 0:
        return [centre]
    out = []
    h = add(centre, (DIRECTIONS[4][0] * radius, DIRECTIONS[4][1] * radius))
    for d in range(6):
        for _ in range(radius):
            out.append(h)
            h = neighbour(h, d)
    return out


def within(centre: Hex, radius: int) -> list[Hex]:
    """Every hex at distance ≤ radius (3·n·(n+1)+1 of them)."""
    out = []
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            out.append((centre[0] + dq, centre[1] + dr))
    return out


# -- line drawing ---------------------------------------------------------------------------

EPS = (1e-6, 1e-6, -2e-6)


def _round(q: float, r: float, s: float) -> Hex:
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return (int(rq), int(rr))


def _line(a: Hex, b: Hex, sign: float) -> list[Hex]:
    n = distance(a, b)
    aq, ar, as_ = a[0] + sign * EPS[0], a[1] + sign * EPS[1], -a[0] - a[1] + sign * EPS[2]
    bq, br, bs = b[0] + sign * EPS[0], b[1] + sign * EPS[1], -b[0] - b[1] + sign * EPS[2]
    if n == 0:
        return [a]
    out = []
    for i in range(n + 1):
        t = i / n
        out.append(_round(aq + (bq - aq) * t, ar + (br - ar) * t, as_ + (bs - as_) * t))
    return out


def lines(a: Hex, b: Hex) -> tuple[list[Hex], list[Hex]]:
    """The two hex lines from ``a`` to ``b``: nudged by +ε and by −ε (Red Blob ``hex_linedraw``).

    They differ only where the centre line runs along hexsides or through corners. Line of
    sight version 1 (games set up before version 2) samples with these; they are not
    symmetric (see below), version 2 uses ``border_lines``.
    """
    return _line(a, b, 1.0), _line(a, b, -1.0)


def line(a: Hex, b: Hex) -> list[Hex]:
    return _line(a, b, 1.0)


# The fixed nudge above runs along the hexsides between hexes that differ by (1, -1, 0): a
# sample on such a side (every line along (1, 1, -2), some through corners) stays on it and
# floating rounding picks the hex, differently from a to b than from b to a. Line of sight version 2
# (``los.visible``) samples exactly instead: integers only, and the nudge is perpendicular to
# the line, so every tie goes to one side of the line in one sample and to the other side in
# the other, whichever way the line is drawn.

Cube = tuple[int, int, int]


def _cube(h: Hex) -> Cube:
    return (h[0], h[1], -h[0] - h[1])


def _dot(u: Cube, v: Cube) -> int:
    return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]


def _nearest(point: Cube, n: int, lean: Cube) -> Hex:
    """The hex whose centre is nearest to ``point / n`` (cube, n > 0); a tie goes to the centre
    farthest towards ``lean``, i.e. the hex the point lies in when nudged a hair that way.

    The centres are a triangular lattice, so the nearest one is a corner of the axial
    parallelogram holding the point. Squared cube length is twice the plane's squared
    distance, so the comparison is exact. ``lean`` at right angles to the line never ties two
    candidates: that would need the line along an axis, whose samples are hex centres.
    """
    q0, r0 = point[0] // n, point[1] // n

    def rank(c: Hex) -> tuple[int, int]:
        cc = _cube(c)
        off = (point[0] - n * cc[0], point[1] - n * cc[1], point[2] - n * cc[2])
        return _dot(off, off), -_dot(cc, lean)

    return min(((q0, r0), (q0 + 1, r0), (q0, r0 + 1), (q0 + 1, r0 + 1)), key=rank)


@lru_cache(maxsize=65536)  # a rule set asks the same pairs again and again within a turn
def border_lines(a: Hex, b: Hex) -> tuple[tuple[Hex, ...], tuple[Hex, ...]]:
    """The two hex lines from ``a`` to ``b`` nudged a hair to either side of the centre line
    (exact arithmetic, no epsilon). They differ only where the centre line runs along hexsides
    or through corners. By construction ``border_lines(b, a)`` is the pair swapped and each
    line reversed: the same two lines drawn the other way.
    """
    n = distance(a, b)
    if n == 0:
        return (a,), (a,)
    ca, cb = _cube(a), _cube(b)
    d = (cb[0] - ca[0], cb[1] - ca[1], cb[2] - ca[2])
    left = (d[1] - d[2], d[2] - d[0], d[0] - d[1])  # d × (1, 1, 1): in the plane, at right angles to d
    right = (-left[0], -left[1], -left[2])
    # sample i is a + d·i/n, kept as n·a + d·i so that it stays in integers
    points = [(n * ca[0] + i * d[0], n * ca[1] + i * d[1], n * ca[2] + i * d[2]) for i in range(n + 1)]
    return tuple(_nearest(p, n, left) for p in points), tuple(_nearest(p, n, right) for p in points)


# -- hexsides -------------------------------------------------------------------------------

Side = tuple[int, int, int]


def side_key(h: Hex, d: int) -> Side:
    """The one canonical key of side ``d`` of ``h``: each hex owns its sides 0..2 (N, NE, SE);
    its sides 3..5 are the neighbour's sides 0..2."""
    d %= 6
    if d < 3:
        return (h[0], h[1], d)
    n = neighbour(h, d)
    return (n[0], n[1], d - 3)


def side_between(a: Hex, b: Hex) -> Side | None:
    d = direction_to(a, b)
    return None if d is None else side_key(a, d)


def adjacent_side(a: Hex, b: Hex) -> Side:
    """The side between two hexes known to be neighbours (a path's steps, a checked map)."""
    side = side_between(a, b)
    if side is None:
        raise ValueError(f"{a} and {b} are not neighbours")
    return side


def side_hexes(side: Side) -> tuple[Hex, Hex]:
    q, r, d = side
    return (q, r), neighbour((q, r), d)


# -- labels (CCRR, odd-q offset) ---------------------------------------------------------------


def to_offset(h: Hex) -> tuple[int, int]:
    q, r = h
    return q, r + (q - (q & 1)) // 2


def from_offset(col: int, row: int) -> Hex:
    return col, row - (col - (col & 1)) // 2


@lru_cache(maxsize=65536)  # labels and hexes are few and converted often (orders, state, lookups)
def label(h: Hex) -> str:
    col, row = to_offset(h)
    return f"{col + 1:02d}{row + 1:02d}"


@lru_cache(maxsize=65536)
def parse_label(text: str) -> Hex:
    """'0305' → the hex in column 3, row 5. Raises ValueError with the reason."""
    t = text.strip()
    if len(t) != 4 or not t.isdigit():
        raise ValueError(f"{text!r} is not a hex number: write four digits, column then row, e.g. 0305")
    col, row = int(t[:2]), int(t[2:])
    if col < 1 or row < 1:
        raise ValueError(f"{text!r} is not a hex number: columns and rows start at 01")
    return from_offset(col - 1, row - 1)


# -- pixels (flat-top layout, y down) ----------------------------------------------------------


def to_pixel(h: Hex, size: float) -> tuple[float, float]:
    q, r = h
    return size * 1.5 * q, size * (SQRT3 / 2 * q + SQRT3 * r)


def from_pixel(x: float, y: float, size: float) -> Hex:
    q = (2.0 / 3.0 * x) / size
    r = (-1.0 / 3.0 * x + SQRT3 / 3.0 * y) / size
    return _round(q, r, -q - r)


def corners(h: Hex, size: float) -> list[tuple[float, float]]:
    """The six corners, starting east and going clockwise on screen."""
    cx, cy = to_pixel(h, size)
    return [(cx + size * math.cos(math.radians(60 * i)), cy + size * math.sin(math.radians(60 * i))) for i in range(6)]


def side_segment(h: Hex, d: int, size: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two end points of side ``d`` of ``h`` on screen."""
    c = corners(h, size)
    # corner i sits at 60·i degrees clockwise from east; side d (north=0) lies between corners
    # (d + 4) % 6 and (d + 5) % 6
    return c[(d + 4) % 6], c[(d + 5) % 6]


def iter_rect(cols: int, rows: int) -> Iterator[Hex]:
    for col in range(cols):
        for row in range(rows):
            yield from_offset(col, row)
