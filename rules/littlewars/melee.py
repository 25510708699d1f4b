"""Melee (LW-32..39, LW-44): who fights, the seed-000 arithmetic, and who is killed or taken.

Figures in contact (motion.py) form contact clusters; each cluster is one melee,
joined by every fighting figure within 6 in of a cluster member (one hop, LW-34,
footprint to footprint). Clusters resolve in the order their first contact
happened; figures killed or captured in one melee take no part in a later one.
"""
from __future__ import annotations

import math

from .fold import Namer
from .geom import FigureIndex, isolated
from .units import MELEE_JOIN, SIDES, other, radius


def outcome(a: int, b: int, smaller_isolated: bool) -> dict[str, int]:
    """Losses of sides A (a figures) and B (b figures): killed and captured (LW-35..38).

    equal: all die; the smaller group isolated: it loses the difference as prisoners
    (or all of it) and the rest killed, the winner as many killed; the smaller group
    supported: it is wiped out and kills as many.
    """
    if a == b:
        return {"a_killed": a, "b_killed": b, "a_captured": 0, "b_captured": 0}
    big, small = max(a, b), min(a, b)
    if smaller_isolated:
        captured = min(big - small, small)
        killed = small - captured
        loss_big, loss_small = (killed, 0), (killed, captured)
    else:
        loss_big, loss_small = (small, 0), (small, 0)
    la, lb = (loss_big, loss_small) if a > b else (loss_small, loss_big)
    return {"a_killed": la[0], "a_captured": la[1], "b_killed": lb[0], "b_captured": lb[1]}


def clusters(contacts: list) -> list[dict]:
    """Connected groups of figures in contact, in order of their first contact."""
    parent: dict[str, str] = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b, *_ in contacts:
        parent[find(a)] = find(b)
    out: dict[str, dict] = {}
    for c in sorted(contacts, key=lambda c: (c[2], c[0], c[1])):
        root = find(c[0])
        entry = out.setdefault(root, {"first": c, "members": set()})
        entry["members"].update(c[:2])
    return sorted(out.values(), key=lambda e: (e["first"][2], e["first"][0]))


def initiator(state: dict, cluster: dict, counts: dict) -> str:
    """LW-39: the side whose figure moved into the first contact; if both moved, the larger side; then the First Player."""
    a, b, _, a_moving, b_moving = cluster["first"]
    figs = state["figures"]
    if a_moving != b_moving:
        return figs[a]["side"] if a_moving else figs[b]["side"]
    if counts[SIDES[0]] != counts[SIDES[1]]:
        return max(SIDES, key=lambda s: counts[s])
    return state["first"]


def _rank(state, ids, policy, centre) -> list[str]:
    figs = state["figures"]

    def dist(i):
        return math.dist(centre, (figs[i]["x"], figs[i]["y"]))

    if policy == "farthest":
        return sorted(ids, key=lambda i: (-dist(i), i))
    if policy in ("cavalry", "infantry"):
        first = policy[:3]
        return sorted(ids, key=lambda i: (figs[i]["arm"] != first, dist(i), i))
    return sorted(ids, key=lambda i: (dist(i), i))


def resolve(state: dict, contacts: list):
    """Yield one ``melee`` payload per cluster; the caller folds each before asking for the next."""
    index = FigureIndex(state["figures"])
    gone: set[str] = set()
    names = Namer(state, "pow")
    for cl in clusters(contacts):
        figs = state["figures"]
        members = [m for m in sorted(cl["members"]) if m not in gone]
        pts = [(figs[m]["x"], figs[m]["y"]) for m in members]
        reach = [MELEE_JOIN + radius(figs[m]["arm"]) for m in members]
        fighters = sorted(index.near_any(pts, reach) - gone) if members else []
        by_side = {s: [i for i in fighters if figs[i]["side"] == s] for s in SIDES}
        counts = {s: len(by_side[s]) for s in SIDES}
        if not all(counts.values()):
            continue
        payload = _fight(state, cl, by_side, counts, index, gone, names)
        gone.update(payload["killed"], payload["captured"])
        yield payload


def _fight(state, cl, by_side, counts, index, gone, names) -> dict:
    figs = state["figures"]
    a_side, b_side = SIDES
    smaller = None if counts[a_side] == counts[b_side] else min(SIDES, key=lambda s: counts[s])
    lonely = None
    if smaller:
        everyone = set(by_side[a_side]) | set(by_side[b_side]) | gone
        lonely = isolated(state, smaller, by_side[smaller], index, exclude=everyone)
    res = outcome(counts[a_side], counts[b_side], bool(lonely))
    first = cl["first"]
    centre = tuple((figs[first[0]][k] + figs[first[1]][k]) / 2 for k in ("x", "y"))
    init = initiator(state, cl, counts)
    policy = state["standing"][init]
    killed, captured = [], []
    for side, key in ((a_side, "a"), (b_side, "b")):
        ranked = _rank(state, by_side[side], policy["lose"] if side == init else policy["kill"], centre)
        k, c = res[f"{key}_killed"], res[f"{key}_captured"]
        killed += ranked[:k]
        captured += ranked[k:k + c]
    captor = other(smaller) if captured else None
    return {"at": [round(centre[0], 3), round(centre[1], 3)], "initiator": init, "counts": counts,
            "smaller": smaller, "isolated": lonely, "killed": killed, "captured": captured,
            "captor": captor, "pow": names(captor) if captured else None}
