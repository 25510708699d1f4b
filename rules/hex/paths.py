"""Movement: cheapest paths and everything reachable within a budget of movement points.

Why heapq and not networkx (already a dependency, used by the tests as the oracle): a step's
cost depends on the unit kind *and* on the moment (which hexes are full, which are enemy-held),
and that changes with every activation. A networkx DiGraph would have to be rebuilt (one Python
object per edge over the whole map) for each unit that moves; a Dijkstra over a cost function
explores only the few hexes within the unit's budget. Same algorithm, same answers (the property
tests compare both), a fraction of the work.

``step_cost(frm, to)`` returns the cost of stepping into the adjacent hex ``to`` from ``frm``
(terrain of ``to``, the hexside crossed, roads...) or None where the step is not allowed; costs
are directional. Ties between equally cheap paths are broken by the hexes' coordinates, so the
answers are deterministic.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from itertools import pairwise

from .coords import Hex, distance, neighbours

StepCost = Callable[[Hex, Hex], "float | None"]


def _search(
    start: Hex, step_cost: StepCost, budget: float | None, goal: Hex | None, min_step: float = 0
) -> tuple[dict[Hex, float], dict[Hex, Hex]]:
    """Dijkstra (A* towards ``goal`` when ``min_step`` > 0: every step costs at least that much,
    so distance × min_step never overestimates and the first path found is a cheapest one)."""
    best: dict[Hex, float] = {start: 0}
    prev: dict[Hex, Hex] = {}
    h0 = distance(start, goal) * min_step if goal is not None and min_step else 0
    heap: list[tuple[float, float, Hex]] = [(h0, 0, start)]  # (estimate, −cost, hex): ties go deeper first
    done: set[Hex] = set()
    while heap:
        _, neg, h = heapq.heappop(heap)
        cost = -neg
        if h in done:
            continue
        done.add(h)
        if h == goal:
            break
        for n in neighbours(h):
            c = step_cost(h, n)
            if c is None:
                continue
            total = cost + c
            if budget is not None and total > budget:
                continue
            if total < best.get(n, float("inf")):
                best[n] = total
                prev[n] = h
                est = total + (distance(n, goal) * min_step if goal is not None and min_step else 0)
                heapq.heappush(heap, (est, -total, n))
    return best, prev


def reach(start: Hex, budget: float, step_cost: StepCost) -> dict[Hex, float]:
    """Every hex reachable with at most ``budget`` points, with its cheapest cost (start: 0)."""
    return _search(start, step_cost, budget, None)[0]


def path(
    start: Hex, goal: Hex, step_cost: StepCost, budget: float | None = None, min_step: float = 0
) -> list[Hex] | None:
    """A cheapest path from ``start`` to ``goal`` (both included), or None if there is none
    (within ``budget`` when given). With ``min_step`` (the least any step costs) the search is
    A*: it looks towards the goal instead of all round, which matters on large maps."""
    best, prev = _search(start, step_cost, budget, goal, min_step)
    if goal not in best:
        return None
    out = [goal]
    while out[-1] != start:
        out.append(prev[out[-1]])
    return out[::-1]


def path_cost(steps: list[Hex], step_cost: StepCost) -> float | None:
    """The cost of following ``steps`` exactly, or None if a step is not allowed or not adjacent."""
    total = 0.0
    for a, b in pairwise(steps):
        c = step_cost(a, b) if distance(a, b) == 1 else None
        if c is None:
            return None
        total += c
    return total
