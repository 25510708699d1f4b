"""Line of sight between hex centres, with one documented rule for lines along hex borders.

The line from centre to centre is sampled twice, nudged by +ε and by −ε (``coords.lines``).
Off the borders both samples give the same hexes. When the line runs exactly along hexsides
(a "diagonal" such as (0,0)→(2,-1)) or through corners, the two samples pass different hexes,
one on each side of the line. ``rule`` says what that means:

* ``"lenient"`` (the default; Valor & Victory 9.4, Tide of Iron): the line is blocked only if
  *both* samples are blocked, i.e. a shooter sees along a border unless both sides of it block.
* ``"strict"`` (ASL-like for obstacles wholly on one side): blocked if *either* sample is blocked.

Both rules are symmetric: the two samples from b to a are the two samples from a to b reversed
(the nudge is the same vector at both ends, so the nudged segment is the same segment).
Intermediate hexes only are tested (never the two end hexes); a hexside feature crossed between
two consecutive hexes of a sample blocks that sample when ``side_blocks`` says so.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

from .coords import Hex, Side, adjacent_side, lines

RULES = ("lenient", "strict")


def _sample_blocked(path: list[Hex], blocks: Callable[[Hex], bool],
                    side_blocks: Callable[[Side], bool] | None) -> bool:
    if any(blocks(h) for h in path[1:-1]):
        return True
    if side_blocks is not None:
        return any(side_blocks(adjacent_side(a, b)) for a, b in zip(path, path[1:]))
    return False


def visible(a: Hex, b: Hex, blocks: Callable[[Hex], bool],
            side_blocks: Callable[[Side], bool] | None = None, rule: str = "lenient") -> bool:
    """True if nothing blocks the view from ``a`` to ``b`` under the border ``rule``."""
    if rule not in RULES:
        raise ValueError(f"unknown line-of-sight rule {rule!r} (known: {', '.join(RULES)})")
    plus, minus = lines(a, b)
    blocked = [_sample_blocked(plus, blocks, side_blocks)]
    if minus != plus:
        blocked.append(_sample_blocked(minus, blocks, side_blocks))
    return not (all(blocked) if rule == "lenient" else any(blocked))


def crossed(a: Hex, b: Hex) -> list[Hex]:
    """Every hex either sample passes through between ``a`` and ``b`` (ends excluded), in order
    of distance from ``a``; what a scatter or an indirect arc may touch."""
    plus, minus = lines(a, b)
    seen: dict[Hex, None] = {}
    for p, m in zip(plus[1:-1], minus[1:-1]):
        seen[p] = None
        seen[m] = None
    return list(seen)


def first_blocking(a: Hex, b: Hex, blocks: Callable[[Hex], bool]) -> Hex | None:
    """The nearest intermediate hex that blocks the +ε sample (for messages), or None."""
    for h in lines(a, b)[0][1:-1]:
        if blocks(h):
            return h
    return None


def visible_from(a: Hex, targets: Iterable[Hex], blocks: Callable[[Hex], bool], rule: str = "lenient") -> list[Hex]:
    return [t for t in targets if visible(a, t, blocks, rule=rule)]
