"""Line of sight between hex centres, with one documented rule for lines along hex borders.

The line from centre to centre is sampled twice, nudged a hair to its left and to its right
(``coords.border_lines``). Off the borders both samples give the same hexes. When the line
runs exactly along hexsides (a "diagonal" such as (0,0)→(2,-1)) or through corners, the two
samples pass different hexes, one on each side of the line. ``rule`` says what that means:

* ``"lenient"`` (the default; Valor & Victory 9.4, Tide of Iron): the line is blocked only if
  *both* samples are blocked, i.e. a shooter sees along a border unless both sides of it block.
* ``"strict"`` (ASL-like for obstacles wholly on one side): blocked if *either* sample is blocked.

Intermediate hexes only are tested (never the two end hexes); a hexside feature crossed between
two consecutive hexes of a sample blocks that sample when ``side_blocks`` says so.

Versions. A game keeps the line of sight it was set up with, so that its stored turns
re-adjudicate to the same events (``verify_game``):

* **1** (games set up before version 2 existed; their scenario has no ``los_version``):
  ``coords.lines``, nudged by the fixed cube vector ε = (1e-6, 1e-6, −2e-6). It is not
  symmetric: ε runs along the hexsides between hexes differing by (1, −1, 0), so a sample on
  such a side stays there and floating-point rounding picks the hex, differently from a to b
  than from b to a. That happens on every line whose cube delta is a multiple of (1, 1, −2)
  and on some through corners (e.g. (0,1)→(−2,−1) past a wood at (−1,1)).
* **2** (``LOS_VERSION``, recorded by ``stamp`` when a game is set up): exact integer samples
  nudged at right angles to the line. From b to a the two samples are those from a to b
  reversed and swapped, so both rules are symmetric by construction.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import pairwise
from typing import Any

from .coords import Hex, Side, adjacent_side, border_lines, lines

RULES = ("lenient", "strict")
VERSIONS = (1, 2)
LOS_VERSION = 2  # what a game set up now records
LEGACY_VERSION = 1  # what a scenario stored without ``los_version`` was played with


def stamp(scenario: Mapping[str, Any]) -> dict[str, Any]:
    """The scenario as a game is set up with it: the line-of-sight version recorded."""
    return {**scenario, "los_version": LOS_VERSION}


def version_of(scenario: Mapping[str, Any]) -> int:
    """The line-of-sight version a game plays with (1 for games set up before versions)."""
    version: int = scenario.get("los_version", LEGACY_VERSION)
    return version


def samples(a: Hex, b: Hex, version: int = LOS_VERSION) -> tuple[Sequence[Hex], Sequence[Hex]]:
    """The two sampled lines from ``a`` to ``b`` under ``version``."""
    if version == 2:
        return border_lines(a, b)
    if version == 1:
        return lines(a, b)
    raise ValueError(f"unknown line-of-sight version {version!r} (known: {', '.join(map(str, VERSIONS))})")


def _sample_blocked(
    path: Sequence[Hex], blocks: Callable[[Hex], bool], side_blocks: Callable[[Side], bool] | None
) -> bool:
    if any(blocks(h) for h in path[1:-1]):
        return True
    if side_blocks is not None:
        return any(side_blocks(adjacent_side(a, b)) for a, b in pairwise(path))
    return False


def visible(
    a: Hex,
    b: Hex,
    blocks: Callable[[Hex], bool],
    side_blocks: Callable[[Side], bool] | None = None,
    rule: str = "lenient",
    version: int = LOS_VERSION,
) -> bool:
    """True if nothing blocks the view from ``a`` to ``b`` under the border ``rule``."""
    if rule not in RULES:
        raise ValueError(f"unknown line-of-sight rule {rule!r} (known: {', '.join(RULES)})")
    one, other = samples(a, b, version)
    blocked = [_sample_blocked(one, blocks, side_blocks)]
    if other != one:
        blocked.append(_sample_blocked(other, blocks, side_blocks))
    return not (all(blocked) if rule == "lenient" else any(blocked))


def crossed(a: Hex, b: Hex) -> list[Hex]:
    """Every hex either sample passes through between ``a`` and ``b`` (ends excluded), in order
    of distance from ``a``; what a scatter or an indirect arc may touch."""
    one, other = border_lines(a, b)
    seen: dict[Hex, None] = {}
    for p, m in zip(one[1:-1], other[1:-1], strict=True):
        seen[p] = None
        seen[m] = None
    return list(seen)


def first_blocking(a: Hex, b: Hex, blocks: Callable[[Hex], bool]) -> Hex | None:
    """The nearest intermediate hex that blocks the left-hand sample (for messages), or None."""
    for h in border_lines(a, b)[0][1:-1]:
        if blocks(h):
            return h
    return None


def visible_from(
    a: Hex, targets: Iterable[Hex], blocks: Callable[[Hex], bool], rule: str = "lenient", version: int = LOS_VERSION
) -> list[Hex]:
    return [t for t in targets if visible(a, t, blocks, rule=rule, version=version)]
