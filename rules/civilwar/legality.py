"""What is legal: operations, assault and breakthrough counting, retreats.

All functions read a state (see :mod:`rules.civilwar.fold`) and never change
it. Error strings are the messages players see.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .board import natural_sorted, other
from .orders import Assault, Breakthrough, Evacuate, Form, Move, Order, Pass, Terror


def units_of(state: dict[str, Any], side: str) -> list[str]:
    return natural_sorted(p for p, s in state["units"].items() if s == side)


def count_units(state: dict[str, Any], side: str) -> int:
    n = sum(1 for s in state["units"].values() if s == side)
    pending = state.get("pending")
    if pending and pending["defender"] == side:
        n += 1  # the dislodged unit still exists until it retreats or dies
    return n


def protected_points(state: dict[str, Any], side: str) -> list[str]:
    """Points ``side``'s enemy may not assault or break through this turn (CW-17/21)."""
    points: list[str] = state["just_occupied"].get(other(side), [])
    return points


def _where(state: dict[str, Any], p: str) -> str:
    kind: str = state["board"]["kind"][p]
    return kind


# --------------------------------------------------------------------------- formation


def check_form(state: dict[str, Any], side: str, city: str) -> str | None:
    board = state["board"]
    if board["kind"][city] != "city":
        return f"{city} is a road; units are formed only in cities"
    token = state["tokens"].get(city)
    if token != side:
        extra = " (it is neutral: its population was terrorised)" if token is None else f" (it is {token})"
        return f"{city} is not sympathetic to {side}{extra}"
    occupant = state["units"].get(city)
    if occupant:
        return f"{city} is occupied by a {occupant} unit"
    cap = board["max_units"]
    if count_units(state, side) >= cap:
        return f"{side} already has {cap} units on the map, the most its counters allow"
    return None


# --------------------------------------------------------------------------- relocation


def check_move(state: dict[str, Any], side: str, unit: str, to: str) -> str | None:
    if state["units"].get(unit) != side:
        return f"you have no unit on {unit}"
    if to not in state["board"]["adj"][unit]:
        return f"{to} is not adjacent to {unit}"
    occupant = state["units"].get(to)
    if occupant:
        return f"{to} is occupied by a {occupant} unit"
    return None


# --------------------------------------------------------------------------- assault


def assault_counts(state: dict[str, Any], side: str, target: str) -> tuple[int, int]:
    """(our units adjacent to target, enemy units on target and adjacent to it) — CW-14."""
    enemy = other(side)
    units = state["units"]
    ours = sum(1 for p in state["board"]["adj"][target] if units.get(p) == side)
    theirs = (1 if units.get(target) == enemy else 0) + sum(
        1 for p in state["board"]["adj"][target] if units.get(p) == enemy
    )
    return ours, theirs


def _check_target(state: dict[str, Any], side: str, target: str, verb: str) -> str | None:
    occupant = state["units"].get(target)
    if occupant is None:
        return f"cannot {verb} {target}: there is no enemy unit there"
    if occupant == side:
        return f"cannot {verb} {target}: it holds your own unit"
    if target in protected_points(state, side):
        return f"cannot {verb} {target}: the enemy occupied it on its last move"
    return None


def check_assault(state: dict[str, Any], side: str, target: str, source: str | None) -> str | None:
    err = _check_target(state, side, target, "assault")
    if err:
        return err
    adjacent_own = [p for p in state["board"]["adj"][target] if state["units"].get(p) == side]
    if source is None:
        if not adjacent_own:
            return f"cannot assault {target}: you have no unit adjacent to it"
        return (f"say which of your adjacent units moves in: 'assault {target} from {adjacent_own[0]}' "
                f"(adjacent: {', '.join(adjacent_own)})")
    if state["units"].get(source) != side:
        return f"you have no unit on {source}"
    if source not in state["board"]["adj"][target]:
        return f"{source} is not adjacent to {target}"
    ours, theirs = assault_counts(state, side, target)
    if ours <= theirs:
        return f"assault on {target} needs more than {theirs} units adjacent, you have {ours}"
    return None


# --------------------------------------------------------------------------- breakthrough


def breakthrough_plan(state: dict[str, Any], side: str, target: str, source: str) -> tuple[dict[str, Any] | None, str | None]:
    """Plan a breakthrough onto ``target`` by the column whose head is on ``source``.

    The line is the one map line with the step source -> target. The column is
    the unbroken row of our units on that line ending at ``source``; the enemy
    count is the unbroken row of enemy units starting at ``target`` and going on
    along the line (CW-19/20).
    """
    err = _check_target(state, side, target, "break through at")
    if err:
        return None, err
    board = state["board"]
    step = board["steps"].get(f"{source}>{target}")
    if step is None:
        return None, f"no straight line runs from {source} to {target}"
    lid, direction = step
    seq = board["lines"][lid] if direction == 1 else board["lines"][lid][::-1]
    k = seq.index(target)
    units = state["units"]
    if units.get(source) != side:
        return None, f"you have no unit on {source}"
    i = k - 1
    while i >= 0 and units.get(seq[i]) == side:
        i -= 1
    column = seq[i + 1:k]  # rear first
    enemy = other(side)
    j = k
    while j < len(seq) and units.get(seq[j]) == enemy:
        j += 1
    defenders = seq[k:j]
    if len(column) < 2:
        return None, (f"a breakthrough needs several (at least 2) of your units in a row on line {lid} "
                      f"ending at {source}; you have {len(column)}")
    if len(column) <= len(defenders):
        return None, (f"breakthrough at {target} along {lid} needs more than {len(defenders)} units in the column, "
                      f"you have {len(column)} (enemy: {', '.join(defenders)})")
    moves = [[seq[n], seq[n + 1]] for n in range(k - 1, i, -1)]  # head first
    return {
        "line": lid,
        "target": target,
        "source": source,
        "column": column,
        "defenders": defenders,
        "moves": moves,
        "vacated": column[0],
    }, None


def resolve_breakthrough(state: dict[str, Any], side: str, order: Breakthrough) -> tuple[dict[str, Any] | None, str | None]:
    board = state["board"]
    target = order.target
    if order.source is not None:
        if order.along is not None:
            step = board["steps"].get(f"{order.source}>{target}")
            if step is None or step[0] != order.along:
                return None, f"line {order.along} does not run from {order.source} to {target}"
        return breakthrough_plan(state, side, target, order.source)
    lid = order.along
    pts = board["lines"][lid]
    if target not in pts:
        return None, f"{target} is not on line {lid}"
    k = pts.index(target)
    heads = [pts[n] for n in (k - 1, k + 1) if 0 <= n < len(pts) and state["units"].get(pts[n]) == side]
    if not heads:
        err = _check_target(state, side, target, "break through at")
        return None, err or f"you have no unit next to {target} on line {lid}"
    results = [breakthrough_plan(state, side, target, h) for h in heads]
    good = [plan for plan, e in results if plan]
    if len(good) == 1:
        return good[0], None
    if len(good) > 1:
        return None, (f"breakthrough at {target} along {lid} is possible from both sides: add "
                      f"'from {heads[0]}' or 'from {heads[1]}'")
    return None, results[0][1]


# --------------------------------------------------------------------------- terror, evacuation


def check_terror(state: dict[str, Any], side: str, city: str) -> str | None:
    if state["board"]["kind"][city] != "city":
        return f"{city} is a road; terror is carried out in cities"
    if state["units"].get(city) != side:
        return f"you have no unit in {city}"
    token = state["tokens"].get(city)
    if token is None:
        return f"{city} is neutral: there is no sympathy token to remove"
    if token == side:
        return f"cannot terrorise {city}: its population is sympathetic to {side}, your own side"
    return None


def attackers_of_city(state: dict[str, Any], side: str, city: str) -> list[str]:
    """Enemy units in ``city`` or on a road into it: the city is "under attack" (CW-27)."""
    enemy = other(side)
    units = state["units"]
    pts = [city] + state["board"]["adj"][city]
    return [p for p in pts if units.get(p) == enemy]


def evacuation_targets(state: dict[str, Any], city: str) -> list[str]:
    board = state["board"]
    out = set()
    for road in board["adj"][city]:
        for c in board["adj"][road]:
            if c != city:
                out.add(c)
    return natural_sorted(out)


def check_evacuate(state: dict[str, Any], side: str, city: str, to: str) -> str | None:
    board = state["board"]
    if board["kind"][city] != "city":
        return f"{city} is a road; only a city's population can be evacuated"
    token = state["tokens"].get(city)
    if token != side:
        return f"{city} is not sympathetic to {side}" + (" (it is neutral)" if token is None else f" (it is {token})")
    attackers = attackers_of_city(state, side, city)
    if attackers:
        return f"cannot evacuate {city}: it is under attack (enemy unit on {', '.join(attackers)})"
    if board["kind"][to] != "city" or to not in evacuation_targets(state, city):
        return f"{to} is not a neighbouring city of {city} (one road away)"
    if to in state["tokens"]:
        return f"{to} already has a sympathy token ({state['tokens'][to]}); refugees can only go to a neutral city"
    if state["units"].get(to) == other(side):
        return f"{to} is held by the enemy; refugees cannot go there"
    return None


# --------------------------------------------------------------------------- dispatch


def check_operation(state: dict[str, Any], side: str, order: Order) -> str | None:
    """Error message if ``order`` (an operation) is illegal for ``side`` now, else None."""
    if isinstance(order, Form):
        return check_form(state, side, order.city)
    if isinstance(order, Move):
        return check_move(state, side, order.unit, order.to)
    if isinstance(order, Assault):
        return check_assault(state, side, order.target, order.source)
    if isinstance(order, Breakthrough):
        return resolve_breakthrough(state, side, order)[1]
    if isinstance(order, Terror):
        return check_terror(state, side, order.city)
    if isinstance(order, Evacuate):
        return check_evacuate(state, side, order.city, order.to)
    if isinstance(order, Pass):
        return None
    return f"'{order.to_text()}' is not an operation"


def retreat_options(state: dict[str, Any], point: str, vacated: list[str]) -> list[str]:
    """Free points adjacent to ``point`` a dislodged unit may retreat to (CW-24).

    Excludes points the attacker vacated during this operation (no slipping
    through the attacker's own lines).
    """
    units = state["units"]
    return [p for p in state["board"]["adj"][point] if p not in units and p not in vacated]


# --------------------------------------------------------------------------- enumeration


def iter_legal_operations(state: dict[str, Any], side: str) -> Iterator[str]:
    """Every legal operation for ``side`` as canonical order text (never 'pass')."""
    if state.get("phase") != "play" or state.get("pending") or state.get("result"):
        return
    board = state["board"]
    units = state["units"]
    enemy = other(side)
    mine = units_of(state, side)
    for p in mine:
        for q in board["adj"][p]:
            if q not in units:
                yield f"move {p} to {q}"
    if count_units(state, side) < board["max_units"]:
        for c in board["cities"]:
            if state["tokens"].get(c) == side and c not in units:
                yield f"form {c}"
    for c in mine:
        if board["kind"][c] == "city" and state["tokens"].get(c) == enemy:
            yield f"terror {c}"
    protected = set(protected_points(state, side))
    for t in natural_sorted(p for p, s in units.items() if s == enemy):
        if t in protected:
            continue
        adjacent_own = [p for p in board["adj"][t] if units.get(p) == side]
        if not adjacent_own:
            continue
        ours, theirs = assault_counts(state, side, t)
        if ours > theirs:
            for p in adjacent_own:
                yield f"assault {t} from {p}"
        for p in adjacent_own:
            if f"{p}>{t}" in board["steps"]:
                plan, _ = breakthrough_plan(state, side, t, p)
                if plan:
                    yield f"breakthrough {t} from {p}"
    for c in board["cities"]:
        if state["tokens"].get(c) == side and not attackers_of_city(state, side, c):
            for d in evacuation_targets(state, c):
                if check_evacuate(state, side, c, d) is None:
                    yield f"evacuate {c} to {d}"


def legal_operations(state: dict[str, Any], side: str) -> list[str]:
    return list(iter_legal_operations(state, side))


def has_legal_operation(state: dict[str, Any], side: str) -> bool:
    return next(iter_legal_operations(state, side), None) is not None


def operation_summary(state: dict[str, Any], side: str) -> dict[str, Any]:
    ops = legal_operations(state, side)
    return {"count": len(ops), "operations": ops}
