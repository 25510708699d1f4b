"""Movement (WW-9..20, WW-30/31, WW-58/59): costs per terrain class, moves, panic flight.

Every step costs one hex of the unit's allowance, except where the house base says the
terrain hinders wheels and tracks (WW-19: rough ground costs them 2) or a hexside is crossed
(a stream costs 1 more to everyone on the ground; a wall 1 more to cavalry and machines and
stops wheels). Very rough ground may be entered only at the ordinary (slow) speed by foot
units and not at all by wheels or tracks; machines never enter woods or buildings nor cross
cliffs (WW-31); nothing on the ground enters water. Enemy-held hexes cannot be entered;
friendly ones may be passed through, but a move must end where the unit fits (WW-3).
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from rules.hex import coords as C
from rules.hex import paths
from rules.hex.paths import StepCost

from .battle import Battle, other, rules_version

VEHICLE_TERRAIN = {"open": 1, "rough": 2}


def step_cost_for(b: Battle, u: dict[str, Any], mode: str) -> StepCost:
    prof = b.profile(u)
    cls, fast = prof["class"], mode in prof["fast"]
    machine = u["kind"] == "machine"
    side = u["side"]

    cells, crossing, at, units = b.map.cells, b.map.crossing, b.at_hex, b.state["units"]

    def cost(frm: C.Hex, to: C.Hex) -> int | None:
        cell = cells.get(to)
        if cell is None:
            return None
        terrain = cell["terrain"]
        feature = crossing.get((frm, to))
        if terrain == "water":
            return None
        ids = at.get(to)
        if ids:
            occupants = [units[i] for i in ids]
            # hidden enemies are not known to the mover's side: it plans through them and bumps into them
            if any(o["side"] != side and o["status"] != "wreck" and not o["hidden"] for o in occupants):
                return None
            if machine and any(o["status"] == "wreck" for o in occupants):
                return None
        if cls == "foot":
            if machine and (terrain in ("wood", "building") or feature == "cliff"):
                return None
            if fast and (terrain == "very_rough" or feature == "cliff"):
                return None
            base = 1
        else:  # wheels and tracks
            road = cell["road"]
            if terrain not in VEHICLE_TERRAIN and not road:
                return None
            if feature == "cliff" or (feature == "wall" and cls == "wheels"):
                return None
            base = 1 if road and cells[frm]["road"] else VEHICLE_TERRAIN.get(terrain, 1)
        if feature == "stream" or (feature == "wall" and (machine or prof.get("mounted"))):
            base += 1
        return base

    return cost


def allowance(b: Battle, u: dict[str, Any], mode: str, bonus: bool) -> int:
    return int(b.profile(u)["moves"][mode]) + (1 if bonus else 0)


def plan(b: Battle, u: dict[str, Any], dest: str, mode: str, budget: int) -> tuple[list[str], str | None]:
    """The hexes to walk (start first) towards ``dest``: the cheapest path, cut where the
    allowance runs out or where the unit would not fit; with the reason it stops short. If
    ``dest`` cannot be entered at all (an enemy holds it, the terrain forbids it) the unit
    heads for the hex next to it on the cheapest way there (house fall-back)."""
    cost = step_cost_for(b, u, mode)
    start, goal = C.parse_label(u["hex"]), C.parse_label(dest)
    if start == goal:  # already there (validate refuses it; an order accepted before that fix stays put)
        return [u["hex"]], None
    # one A* search in which ``dest`` can always be entered: if it really cannot (an enemy holds
    # it, the terrain forbids it) the unit stops next to it (a search that fails explores the map)
    route = paths.path(start, goal, lambda a, b: (cost(a, b) or 1) if b == goal else cost(a, b), min_step=1)
    if route is None or (len(route) < 3 and cost(start, goal) is None):
        return [u["hex"]], f"no way from {u['hex']} towards {dest} for a {u['profile']} at {mode} speed"
    why = None
    if cost(route[-2], goal) is None:
        route = route[:-1]
        why = f"{dest} cannot be entered; heading for {C.label(route[-1])}"
    spent: float = 0
    keep = [start]
    for a, nxt in pairwise(route):
        step = cost(a, nxt)
        assert step is not None  # the route was found at these costs (an unenterable goal is dropped above)
        spent += step
        if spent > budget:
            why = why or f"{dest} is beyond {budget} hex(es) of {mode}"
            break
        keep.append(nxt)
    while len(keep) > 1 and b.refusal(u, C.label(keep[-1])):  # end where the unit fits
        why = why or f"{C.label(keep[-1])}: {b.refusal(u, C.label(keep[-1]))}"
        keep.pop()
    return [C.label(h) for h in keep], why


def flee_target(b: Battle, u: dict[str, Any]) -> tuple[str, list[str] | None]:
    """WW-59: where a panicked unit runs. ("desert", path) off the map, ("run", path), or
    ("surrender", None) when it has nowhere to run; from version 2 also ("stay", None) when it
    sees no enemy to run from."""
    prof = b.profile(u)
    if u.get("immobile") or not prof["moves"]:
        return "surrender", None
    if b.terrain(u["hex"]) == "building" and _entrances_held(b, u):
        return "surrender", None  # WW-49: no entrance left that the enemy does not control
    mode = max(prof["moves"], key=lambda m: prof["moves"][m])
    budget = prof["moves"][mode]
    cost = step_cost_for(b, u, mode)
    start = C.parse_label(u["hex"])
    reach = paths.reach(start, budget, cost)
    if rules_version(b.state) < 2:
        return _flee_v1(b, u, start, budget, cost, reach)
    return _farthest(b, u, start, budget, cost, reach)


def _farthest(
    b: Battle, u: dict[str, Any], start: C.Hex, budget: int, cost: StepCost, reach: dict[C.Hex, float]
) -> tuple[str, list[str] | None]:
    """Version 2, WW-59 «как можно дальше от отрядов противника» (RULES.md, WW-59). "Far" is the hex
    distance to the nearest enemy on the ground that the unit's side can see (a hidden enemy counts
    for nothing, as in any move). The unit may stop on a hex it reaches and fits in if that is
    farther than where it stands, or leave the map from an edge hex it reaches with movement to
    spare (its own hex too), measured at the hex beyond the edge it steps into (the farthest such
    hex): so it deserts only where that is as far as it can get, never past the enemy when the map
    takes it farther. Ties: leaving the map, then the least movement spent, then the lowest hex
    number. Nowhere to go: it surrenders. No enemy in sight: it stays where it is. From version 3 a
    hex is left out where the unit would not fit beside what its side can see (version 2 also left
    out one where a hidden enemy took the room); running into the hidden enemy, it stops short."""
    foes = [
        C.parse_label(e["hex"])
        for e in b.active(other(u["side"]))
        if e["hex"] and not e["hidden"] and e["kind"] != "aircraft"
    ]
    if not foes:
        return "stay", None

    def away(h: C.Hex) -> int:
        return min(C.distance(h, f) for f in foes)

    here = away(start)
    seen = rules_version(b.state) >= 3  # version 2 left out a hex a hidden enemy filled: that steered it
    options: list[tuple[int, int, float, str]] = []  # (-distance, 0 if it leaves the map, movement spent, hex)
    for h, spent in reach.items():
        label = C.label(h)
        if spent < budget and b.map.on_edge(h):
            beyond = max(away(n) for n in C.neighbours(h) if n not in b.map)
            options.append((-beyond, 0, spent, label))
        if h != start and away(h) > here and not b.refusal(u, label, seen):
            options.append((-away(h), 1, spent, label))
    if not options:
        return "surrender", None
    _, stays, _, goal = min(options)
    route = paths.path(start, C.parse_label(goal), cost) or [start]
    return ("run" if stays else "desert"), [C.label(h) for h in route]


def _flee_v1(
    b: Battle, u: dict[str, Any], start: C.Hex, budget: int, cost: StepCost, reach: dict[C.Hex, float]
) -> tuple[str, list[str] | None]:
    """Version 1 (0.2.0), kept for the games set up by it: the cheapest edge hex in reach with
    movement to spare (then the lowest hex number), however near the enemy; else the hex farthest
    from the nearest enemy, hidden or not (least movement, then the highest hex number); else
    surrender."""
    exits = sorted((c, C.label(h)) for h, c in reach.items() if c < budget and b.map.on_edge(h))
    if exits or (b.map.on_edge(start) and budget >= 1):
        goal = C.parse_label(exits[0][1]) if exits else start
        route = paths.path(start, goal, cost) or [start]
        return "desert", [C.label(h) for h in route]
    here = b.nearest_enemy(u)
    best = max(
        (
            (b.nearest_enemy(u, C.label(h)), -c, C.label(h))
            for h, c in reach.items()
            if h != start and not b.refusal(u, C.label(h))
        ),
        default=None,
    )
    if best is None or best[0] <= here:
        return "surrender", None
    run = paths.path(start, C.parse_label(best[2]), cost)
    assert run is not None  # ``best`` was reached
    return "run", [C.label(h) for h in run]


def toward_enemy(b: Battle, u: dict[str, Any], dest: str) -> bool:
    """WW-58 penalty: a move that ends nearer the nearest enemy than it started. From version 3 the
    enemy its side can see: counting hidden ones, a refused move told where they stood."""
    seen = rules_version(b.state) >= 3
    return b.nearest_enemy(u, dest, seen) < b.nearest_enemy(u, None, seen)


def _held_hexes(b: Battle, u: dict[str, Any]) -> list[str]:
    """The hexes beside ``u`` that an active enemy holds, hidden or not, by hex number."""
    near = sorted(C.label(h) for h in C.neighbours(C.parse_label(u["hex"])) if h in b.map)
    return [hx for hx in near if b.enemies_in(u, hx)]


def _entrances(b: Battle, u: dict[str, Any]) -> int:
    entrances: int = b.state["scenario"]["buildings"].get(u["hex"], {"entrances": 1})["entrances"]
    return entrances


def _entrances_held(b: Battle, u: dict[str, Any]) -> bool:
    """WW-49, house: each adjacent hex held by an enemy controls one entrance of a building."""
    return len(_held_hexes(b, u)) >= _entrances(b, u)


def hidden_at_the_doors(b: Battle, u: dict[str, Any]) -> list[dict[str, Any]]:
    """WW-49, version 3: the hidden enemies a garrison finds holding the last ways out of its
    building, to be revealed before it surrenders (RULES.md, WW-49). Empty unless the enemy its side
    can see leaves an entrance free and hidden ones hold the rest: then the hexes held by hidden
    enemies alone, by hex number, as many as the entrances left, and every hidden enemy in them."""
    if b.terrain(u["hex"]) != "building" or u.get("immobile") or not b.profile(u)["moves"]:
        return []  # (an immobile unit surrenders without trying the doors)
    held = _held_hexes(b, u)
    seen = [hx for hx in held if any(not e["hidden"] for e in b.enemies_in(u, hx))]
    unseen = [hx for hx in held if hx not in seen]
    left = _entrances(b, u) - len(seen)
    if left <= 0 or len(unseen) < left:
        return []
    return [e for hx in unseen[:left] for e in b.enemies_in(u, hx)]
