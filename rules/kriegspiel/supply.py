"""Supply (KS-40..53): what each group needs, whether it can be supplied, and the ledger.

Units of account: a RATION (KS-41..43) lasts six turns, so the ledger counts PORTIONS,
one sixth of a ration: a ration of food is 6 portions, each feeding up to 30 men for
one turn. Every turn each group draws ``rations(men)`` portions of food, its horses
``forage(horses)`` portions of forage, and, in a turn it fires, ``rations(riflemen)``
portions of ammunition. Guns never need ammunition (KS-51).

Decisions (RULES.md, "Supply"):
- KS-48 rounding: men // 30, plus one if the remainder is 15 or more. Horses the same
  way by sixes (remainder 3 or more counts as 6): the seed gives no rule for forage.
- A group is supplied by the nearest depot of its side that did not move this turn
  (KS-38), holds what it needs, lies within 6 ft (infantry) or 18 ft (a group with
  cavalry) of the group's nearest figure (KS-44/45), and has no enemy figure within
  CUT_WIDTH of the straight line between them (KS-49, "wedged between").
- An infantry group of fewer than 30 more than 12 ft from every other group of its
  side needs nothing (KS-46/47). Groups within 12 ft of one another (chained) are one body
  and KS-48 rounds the body's total, shared out over its groups (``shares``): splitting an
  army saves nothing.
- A group without food eats its horses (KS-50): each cavalryman's horse is one ration
  (6 portions, kept in the group's larder until eaten); the rider goes on as infantry. A
  group that eats its last horse and is still unsupplied surrenders 4 turns later (KS-53)
  unless supplied again meanwhile.
- Without food (or, for mounted men, forage) a group cannot move (KS-52); infantry
  without ammunition cannot fire (KS-51).
"""

from __future__ import annotations

import math
from collections.abc import Collection
from typing import Any

import networkx as nx
from shapely.geometry import LineString, Point

from rules.core.i18n import _
from rules.core.protocol import State
from rules.littlewars.fold import laid_by_version_1
from rules.tabletop.points import XY, Coord

from .numbers import (
    CAV_SUPPLY_RANGE,
    HORSES_PER_FORAGE,
    INF_SUPPLY_RANGE,
    ISOLATED_SMALL,
    ISOLATION_DISTANCE,
    MEN_PER_RATION,
    RATION_TURNS,
    ROUND_UP_FROM,
    SURRENDER_AFTER_LAST_HORSE,
)

CUT_WIDTH = 6.0
PORTIONS = RATION_TURNS  # portions per ration


def rations(men: int) -> int:
    """KS-48: rations (per six turns) for ``men``: remainders under 15 count 0, 15 or more count 30."""
    if men < 0:
        raise ValueError(_("a number of men cannot be negative"))
    whole, rest = divmod(men, MEN_PER_RATION)
    return whole + (1 if rest >= ROUND_UP_FROM else 0)


def forage(horses: int) -> int:
    if horses < 0:
        raise ValueError(_("a number of horses cannot be negative"))
    whole, rest = divmod(horses, HORSES_PER_FORAGE)
    return whole + (1 if 2 * rest >= HORSES_PER_FORAGE else 0)


def _pts(figs: dict[str, Any], ids: list[str]) -> list[XY]:
    return [(figs[i]["x"], figs[i]["y"]) for i in ids]


def _gap(a_pts: list[XY], b_pts: list[XY]) -> float:
    return min(math.dist(p, q) for p in a_pts for q in b_pts)


def _live(state: dict[str, Any], side: str) -> dict[str, list[str]]:
    figs = state["figures"]
    out = {name: [i for i in ids if figs[i]["st"] == "ok"] for name, ids in state["groups"][side].items()}
    return {name: ids for name, ids in out.items() if ids}


def bodies(state: dict[str, Any], side: str) -> list[list[str]]:
    """KS-47/48: the side's groups joined when within 12 ft of one another (chained; networkx
    components), each body's groups sorted by name. A body of one group is isolated (KS-47)."""
    figs = state["figures"]
    live = _live(state, side)
    graph: nx.Graph[str] = nx.Graph()
    graph.add_nodes_from(live)
    names = sorted(live)
    for k, a in enumerate(names):
        for b in names[k + 1 :]:
            if _gap(_pts(figs, live[a]), _pts(figs, live[b])) <= ISOLATION_DISTANCE:
                graph.add_edge(a, b)
    return sorted(sorted(c) for c in nx.connected_components(graph))


def _exempt_body(state: dict[str, Any], body: list[str], live: dict[str, Any]) -> bool:
    """KS-46/47: an isolated infantry group of fewer than 30."""
    figs = state["figures"]
    if len(body) != 1:
        return False
    ids = live[body[0]]
    return len(ids) < ISOLATED_SMALL and all(figs[i]["arm"] == "inf" for i in ids)


def exempt(state: dict[str, Any], side: str, group: str) -> bool:
    """KS-46/47: an infantry group of fewer than 30 more than 12 ft from all its side's other groups."""
    live = _live(state, side)
    return group in live and _exempt_body(state, next(b for b in bodies(state, side) if group in b), live)


def _shares_v1(state: dict[str, Any], side: str, group: str, fires: bool) -> dict[str, Any]:
    """Version 1 (0.1.0), frozen: KS-48's rounding applied to each group alone, so an army split
    into groups side by side could eat less than whole (issue 15 bug 6, fixed in version 2)."""
    if exempt(state, side, group):  # a lone group: the same in both versions
        return {"food": 0, "forage": 0, "ammo": 0}
    figs = state["figures"]
    ids = [i for i in state["groups"][side][group] if figs[i]["st"] == "ok"]
    horses = sum(1 for i in ids if figs[i]["arm"] == "cav")
    riflemen = sum(1 for i in ids if figs[i]["arm"] == "inf")
    return {"food": rations(len(ids)), "forage": forage(horses), "ammo": rations(riflemen) if fires else 0}


def shares(state: dict[str, Any], side: str, fired: Collection[str] = frozenset()) -> dict[str, dict[str, Any]]:
    """Portions each group draws this turn: {group: {"food", "forage", "ammo"}}.

    KS-48's rounding is applied to each body (``bodies``), not to each group, so an army that
    splits eats as much as it did whole (46 men in four groups side by side draw 2 portions,
    as 46 in one). The body's portions are shared by cumulative rounding over its groups in
    name order: a group draws rations(men so far) - rations(men before it), so the shares add
    up to the body's exact total. Ammunition is counted over the groups that fired.

    A game laid by 0.1.0 (kriegspiel version 1) rounds each group on its own, as 0.1.0 did."""
    if laid_by_version_1(state):
        return {group: _shares_v1(state, side, group, group in fired) for group in _live(state, side)}
    figs = state["figures"]
    live = _live(state, side)
    out = {}
    for body in bodies(state, side):
        if _exempt_body(state, body, live):
            out[body[0]] = {"food": 0, "forage": 0, "ammo": 0}
            continue
        totals = {"food": 0, "forage": 0, "ammo": 0}
        for group in body:
            ids = live[group]
            horses = sum(1 for i in ids if figs[i]["arm"] == "cav")
            riflemen = (len(ids) - horses) if group in fired else 0
            before = dict(totals)
            totals = {
                "food": before["food"] + len(ids),
                "forage": before["forage"] + horses,
                "ammo": before["ammo"] + riflemen,
            }
            out[group] = {
                "food": rations(totals["food"]) - rations(before["food"]),
                "forage": forage(totals["forage"]) - forage(before["forage"]),
                "ammo": rations(totals["ammo"]) - rations(before["ammo"]),
            }
    return out


def needs(state: dict[str, Any], side: str, group: str, fires: bool = False) -> dict[str, Any]:
    """Portions this group draws this turn, ``group`` alone firing (``shares`` for the whole side)."""
    return shares(state, side, {group} if fires else frozenset()).get(group, {"food": 0, "forage": 0, "ammo": 0})


def reach(state: dict[str, Any], side: str, group: str) -> float:
    figs = state["figures"]
    mounted = any(figs[i]["arm"] == "cav" for i in state["groups"][side][group] if figs[i]["st"] == "ok")
    return CAV_SUPPLY_RANGE if mounted else INF_SUPPLY_RANGE


def cut(state: dict[str, Any], side: str, a: Coord, b: Coord) -> bool:
    """KS-49: an enemy figure stands within CUT_WIDTH of the line between a group and its depot."""
    line = LineString([a, b]) if tuple(a) != tuple(b) else Point(a)
    return any(
        f["side"] != side and f["st"] == "ok" and line.distance(Point(f["x"], f["y"])) <= CUT_WIDTH
        for f in state["figures"].values()
    )


def source(
    state: dict[str, Any], side: str, group: str, depots: dict[str, Any], kind: str, amount: int
) -> tuple[str | None, str]:
    """The nearest depot that can give ``amount`` portions of ``kind`` to ``group`` now, or (None, why not)."""
    figs = state["figures"]
    ids = [i for i in state["groups"][side][group] if figs[i]["st"] == "ok"]
    pts = _pts(figs, ids)
    limit = reach(state, side, group)
    why = "no depot in reach (KS-44/45)"
    ranked = sorted((_gap(pts, [(d["x"], d["y"])]), name) for name, d in depots.items())
    for dist, name in ranked:
        d = depots[name]
        if dist > limit + 1e-9:
            break
        if d.get("moved"):
            why = f"depot {name} moved this turn (KS-38)"
            continue
        near = min(pts, key=lambda p: math.dist(p, (d["x"], d["y"])))
        if cut(state, side, near, (d["x"], d["y"])):
            why = f"the enemy stands between the group and depot {name} (KS-49)"
            continue
        if d[kind] < amount:
            why = f"depot {name} is short of {kind}"
            continue
        return name, ""
    return None, why


def turn_ledger(state: dict[str, Any], side: str, fired: set[str]) -> dict[str, Any]:
    """Supply of every group of ``side``, reckoned at the end of a turn (the payload of ``kriegspiel.supplied``).

    ``fired``: groups that fired this turn (they draw ammunition). Each group's status
    ("can_move", "can_fire") governs the NEXT turn. Returns {"side", "turn", "draws":
    [{"group", "kind", "depot", "portions"}], "groups": {group: status}, "surrender": [group]}.
    """
    depots = {k: dict(v) for k, v in state["ks"]["supply"][side]["depots"].items()}
    draws, status, surrender = [], {}, []
    owed = shares(state, side, fired)
    for group in sorted(state["groups"][side]):
        want = dict(owed.get(group, {"food": 0, "forage": 0, "ammo": 0}))
        missing: dict[str, str] = {}
        for kind in ("food", "forage", "ammo"):
            if not want[kind]:
                continue
            name, why = source(state, side, group, depots, kind, want[kind])
            if name is None:
                missing[kind] = why
                continue
            depots[name][kind] -= want[kind]
            draws.append({"group": group, "kind": kind, "depot": name, "portions": want[kind]})
        st = _status(state, side, group, want, missing, depots)
        status[group] = st
        if st["surrender"]:
            surrender.append(group)
    return {"side": side, "turn": state["turn"], "draws": draws, "groups": status, "surrender": surrender}


def _status(
    state: State, side: str, group: str, want: dict[str, int], missing: dict[str, str], depots: dict[str, Any]
) -> dict[str, Any]:
    """What a group may do next turn; a group without food eats horses (KS-50) and may have to surrender (KS-53)."""
    figs = state["figures"]
    sup = state["ks"]["supply"][side]
    horses = sorted(i for i in state["groups"][side][group] if figs[i]["st"] == "ok" and figs[i]["arm"] == "cav")
    eaten: list[str] = []
    larder = sup.get("larder", {}).get(group, 0)
    fed = "food" not in missing
    if not fed:
        need = want["food"]
        if larder < need and horses:  # one horse is one ration: six portions; what is left is kept
            eaten = horses[: min(len(horses), math.ceil((need - larder) / PORTIONS))]
            larder += PORTIONS * len(eaten)
        if larder >= need:
            larder, fed = larder - need, True
    last = sup["last_horse"].get(group)
    if horses and len(eaten) == len(horses):
        last = state["turn"]
    elif "food" not in missing:
        last = None  # supplied again: the siege is lifted
    left = len(horses) - len(eaten)
    infantry = sum(1 for i in state["groups"][side][group] if figs[i]["st"] == "ok" and figs[i]["arm"] == "inf")
    ammo_ok = "ammo" not in missing and (
        not infantry or want["ammo"] > 0 or source(state, side, group, depots, "ammo", rations(infantry))[0] is not None
    )
    return {
        "missing": missing,
        "horses_eaten": eaten,
        "larder": larder,
        "last_horse": last,
        "can_move": fed and ("forage" not in missing or left == 0),
        "can_fire": ammo_ok or exempt(state, side, group),
        "surrender": (
            last is not None and left == 0 and "food" in missing and state["turn"] - last >= SURRENDER_AFTER_LAST_HORSE
        ),
    }
