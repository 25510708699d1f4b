"""What is legal: operations, assault and breakthrough counting, retreats.

All functions read a state (see :mod:`rules.civilwar.fold`) and never change
it. Error strings are the messages players see.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rules.core.i18n import _

from .board import natural_sorted, other
from .engaged import column_engaged, engaged_error, engaged_points
from .orders import Assault, Breakthrough, Evacuate, Form, Move, Order, Pass, Terror, parse_text


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
        return _("{city} is a road; units are formed only in cities", city=city)
    token = state["tokens"].get(city)
    if token != side:
        if token is None:
            return _(
                "{city} is not sympathetic to {side} (it is neutral: its population was terrorised)",
                city=city,
                side=side,
            )
        return _("{city} is not sympathetic to {side} (it is {token})", city=city, side=side, token=token)
    occupant = state["units"].get(city)
    if occupant:
        return _("{city} is occupied by a {occupant} unit", city=city, occupant=occupant)
    cap = board["max_units"]
    if count_units(state, side) >= cap:
        return _("{side} already has {cap} units on the map, the most its counters allow", side=side, cap=cap)
    return None


# --------------------------------------------------------------------------- relocation


def check_move(state: dict[str, Any], side: str, unit: str, to: str) -> str | None:
    if state["units"].get(unit) != side:
        return _("you have no unit on {unit}", unit=unit)
    if to not in state["board"]["adj"][unit]:
        return _("{to} is not adjacent to {unit}", to=to, unit=unit)
    occupant = state["units"].get(to)
    if occupant:
        return _("{to} is occupied by a {occupant} unit", to=to, occupant=occupant)
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
        return _("cannot {verb} {target}: there is no enemy unit there", verb=verb, target=target)
    if occupant == side:
        return _("cannot {verb} {target}: it holds your own unit", verb=verb, target=target)
    if target in protected_points(state, side):
        return _("cannot {verb} {target}: the enemy occupied it on its last move", verb=verb, target=target)
    return None


def check_assault(state: dict[str, Any], side: str, target: str, source: str | None) -> str | None:
    err = _check_target(state, side, target, _("assault"))
    if err:
        return err
    adjacent_own = [p for p in state["board"]["adj"][target] if state["units"].get(p) == side]
    if source is None:
        if not adjacent_own:
            return _("cannot assault {target}: you have no unit adjacent to it", target=target)
        return _(
            "say which of your adjacent units moves in: 'assault {target} from {first}' (adjacent: {adjacent_own})",
            target=target,
            first=adjacent_own[0],
            adjacent_own=", ".join(adjacent_own),
        )
    if state["units"].get(source) != side:
        return _("you have no unit on {source}", source=source)
    if source not in state["board"]["adj"][target]:
        return _("{source} is not adjacent to {target}", source=source, target=target)
    ours, theirs = assault_counts(state, side, target)
    if ours <= theirs:
        return _(
            "assault on {target} needs more than {theirs} units adjacent, you have {ours}",
            target=target,
            theirs=theirs,
            ours=ours,
        )
    return None


# --------------------------------------------------------------------------- breakthrough


def breakthrough_plan(
    state: dict[str, Any], side: str, target: str, source: str
) -> tuple[dict[str, Any] | None, str | None]:
    """Plan a breakthrough onto ``target`` by the column whose head is on ``source``.

    The line is the one map line with the step source -> target. The column is
    the unbroken row of our units on that line ending at ``source``; the enemy
    count is the unbroken row of enemy units starting at ``target`` and going on
    along the line (CW-19/20).
    """
    err = _check_target(state, side, target, _("break through at"))
    if err:
        return None, err
    board = state["board"]
    step = board["steps"].get(f"{source}>{target}")
    if step is None:
        return None, _("no straight line runs from {source} to {target}", source=source, target=target)
    lid, direction = step
    seq = board["lines"][lid] if direction == 1 else board["lines"][lid][::-1]
    k = seq.index(target)
    units = state["units"]
    if units.get(source) != side:
        return None, _("you have no unit on {source}", source=source)
    i = k - 1
    while i >= 0 and units.get(seq[i]) == side:
        i -= 1
    column = seq[i + 1 : k]  # rear first
    enemy = other(side)
    j = k
    while j < len(seq) and units.get(seq[j]) == enemy:
        j += 1
    defenders = seq[k:j]
    if len(column) < 2:
        return None, (
            _(
                "a breakthrough needs several (at least 2) of your units in a row on line {lid} ending at {source}; you have {column}",
                lid=lid,
                source=source,
                column=len(column),
            )
        )
    if len(column) <= len(defenders):
        return None, (
            _(
                "breakthrough at {target} along {lid} needs more than {defenders} units in the column, you have {column} (enemy: {defenders2})",
                target=target,
                lid=lid,
                defenders=len(defenders),
                column=len(column),
                defenders2=", ".join(defenders),
            )
        )
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


def resolve_breakthrough(
    state: dict[str, Any], side: str, order: Breakthrough
) -> tuple[dict[str, Any] | None, str | None]:
    board = state["board"]
    target = order.target
    if order.source is not None:
        if order.along is not None:
            step = board["steps"].get(f"{order.source}>{target}")
            if step is None or step[0] != order.along:
                return None, _(
                    "line {along} does not run from {source} to {target}",
                    along=order.along,
                    source=order.source,
                    target=target,
                )
        return breakthrough_plan(state, side, target, order.source)
    lid = order.along
    pts = board["lines"][lid]
    if target not in pts:
        return None, _("{target} is not on line {lid}", target=target, lid=lid)
    k = pts.index(target)
    heads = [pts[n] for n in (k - 1, k + 1) if 0 <= n < len(pts) and state["units"].get(pts[n]) == side]
    if not heads:
        err = _check_target(state, side, target, _("break through at"))
        return None, err or _("you have no unit next to {target} on line {lid}", target=target, lid=lid)
    results = [breakthrough_plan(state, side, target, h) for h in heads]
    good = [plan for plan, e in results if plan]
    if len(good) == 1:
        return good[0], None
    if len(good) > 1:
        return None, (
            _(
                "breakthrough at {target} along {lid} is possible from both sides: add 'from {value}' or 'from {value2}'",
                target=target,
                lid=lid,
                value=heads[0],
                value2=heads[1],
            )
        )
    return None, results[0][1]


# --------------------------------------------------------------------------- terror, evacuation


def check_terror(state: dict[str, Any], side: str, city: str) -> str | None:
    if state["board"]["kind"][city] != "city":
        return _("{city} is a road; terror is carried out in cities", city=city)
    if state["units"].get(city) != side:
        return _("you have no unit in {city}", city=city)
    token = state["tokens"].get(city)
    if token is None:
        return _("{city} is neutral: there is no sympathy token to remove", city=city)
    if token == side:
        return _(
            "cannot terrorise {city}: its population is sympathetic to {side}, your own side", city=city, side=side
        )
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
        return _("{city} is a road; only a city's population can be evacuated", city=city)
    token = state["tokens"].get(city)
    if token != side:
        if token is None:
            return _("{city} is not sympathetic to {side} (it is neutral)", city=city, side=side)
        return _("{city} is not sympathetic to {side} (it is {token})", city=city, side=side, token=token)
    attackers = attackers_of_city(state, side, city)
    if attackers:
        return _(
            "cannot evacuate {city}: it is under attack (enemy unit on {attackers})",
            city=city,
            attackers=", ".join(attackers),
        )
    if board["kind"][to] != "city" or to not in evacuation_targets(state, city):
        return _("{to} is not a neighbouring city of {city} (one road away)", to=to, city=city)
    if to in state["tokens"]:
        return _(
            "{to} already has a sympathy token ({value}); refugees can only go to a neutral city",
            to=to,
            value=state["tokens"][to],
        )
    if state["units"].get(to) == other(side):
        return _("{to} is held by the enemy; refugees cannot go there", to=to)
    return None


# --------------------------------------------------------------------------- dispatch


def check_operation(state: dict[str, Any], side: str, order: Order) -> str | None:
    """Error message if ``order`` (an operation) is illegal for ``side`` now, else None."""
    busy = engaged_error(state, order)
    if busy:
        return busy
    if isinstance(order, Form):
        return check_form(state, side, order.city)
    if isinstance(order, Move):
        return check_move(state, side, order.unit, order.to)
    if isinstance(order, Assault):
        return check_assault(state, side, order.target, order.source)
    if isinstance(order, Breakthrough):
        plan, err = resolve_breakthrough(state, side, order)
        fighting = column_engaged(state, plan["moves"]) if plan else None
        if fighting:
            return _("{point} is fighting a battle: the column cannot break through without it", point=fighting)
        return err
    if isinstance(order, Terror):
        return check_terror(state, side, order.city)
    if isinstance(order, Evacuate):
        return check_evacuate(state, side, order.city, order.to)
    if isinstance(order, Pass):
        return None
    return _("'{to_text}' is not an operation", to_text=order.to_text())


def retreat_options(state: dict[str, Any], point: str, vacated: list[str]) -> list[str]:
    """Free points adjacent to ``point`` a dislodged unit may retreat to (CW-24).

    Excludes points the attacker vacated during this operation (no slipping
    through the attacker's own lines).
    """
    units = state["units"]
    return [p for p in state["board"]["adj"][point] if p not in units and p not in vacated]


def standing_choice(
    state: dict[str, Any], defender: str, point: str, options: list[str]
) -> tuple[str, str | None, str] | None:
    """What the defender's standing instructions say: (action, destination, which rule) or None = ask."""
    rules = state["standing"].get(defender, {})
    for key in (point, "*"):
        rule = rules.get(key)
        if not rule:
            continue
        action, to = rule.get("action"), rule.get("to")
        if action == "ask":
            return None
        if action == "fight":
            return ("fight", None, key)
        if action == "retreat":
            if to is None and options:
                return ("retreat", options[0], key)
            if to in options:
                return ("retreat", to, key)
            # named destination not available: this rule does not apply
    return None


# --------------------------------------------------------------------------- enumeration


def iter_legal_operations(state: dict[str, Any], side: str) -> Iterator[str]:
    """Every legal operation for ``side`` as canonical order text (never 'pass')."""
    return _free_of_battles(state, side, _candidate_operations(state, side))


def _candidate_operations(state: dict[str, Any], side: str) -> Iterator[str]:
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


def _free_of_battles(state: dict[str, Any], side: str, texts: Iterator[str]) -> Iterator[str]:
    """The operations among ``texts`` that use no point a battle holds (version 2's games only)."""
    if not engaged_points(state):
        yield from texts
        return
    for text in texts:
        (order,) = parse_text(text, "orders", None, None).orders
        if check_operation(state, side, order) is None:
            yield text


def legal_standing(state: dict[str, Any], side: str) -> list[dict[str, Any]]:
    """The standing instructions open to ``side`` (rules 19-21), each with what it means: for each of
    its units fight, retreat (anywhere, or to an adjacent point) or ask; then the general rules."""
    out: list[dict[str, Any]] = []
    for p in units_of(state, side):
        out.append({"line": f"if attacked at {p} fight", "meaning": _("at {point}: fight to the end", point=p)})
        out.append(
            {"line": f"if attacked at {p} retreat", "meaning": _("at {point}: retreat to any free point", point=p)}
        )
        for q in natural_sorted(state["board"]["adj"][p]):
            out.append(
                {
                    "line": f"if attacked at {p} retreat to {q}",
                    "meaning": _("at {point}: retreat to {to}", point=p, to=q),
                }
            )
        out.append({"line": f"if attacked at {p} ask", "meaning": _("at {point}: ask me", point=p)})
    out.append({"line": "if attacked retreat", "meaning": _("anywhere else: retreat to any free point")})
    out.append({"line": "if attacked fight", "meaning": _("anywhere else: fight to the end")})
    out.append({"line": "if attacked ask", "meaning": _("anywhere else: ask me (removes the general rule)")})
    return out


def has_legal_operation(state: dict[str, Any], side: str) -> bool:
    return next(iter_legal_operations(state, side), None) is not None


def operation_summary(state: dict[str, Any], side: str) -> dict[str, Any]:
    ops = legal_operations(state, side)
    return {"count": len(ops), "operations": ops}
