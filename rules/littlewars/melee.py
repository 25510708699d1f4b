"""Melee (LW-32..39, LW-44): who fights, the seed-000 arithmetic, and who is killed or taken.

One melee is a connected component of the melee graph (networkx): its nodes are the
figures in contact (motion.py) and every fighting figure whose footprint is within
6 in of the footprint of a figure in contact (LW-34, one hop: joiners do not draw in
others); its edges are the contacts and those "within 6 in" links. So a battle line
marching onto another is one melee, however many contact pairs it makes, and no
figure fights in two melees of a turn (LW-44). Melees resolve in the order of their
first contact; they share no figure, so the order only decides the prisoner-group
names.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import networkx as nx

from rules.core.protocol import State
from rules.tabletop.points import Coord

from . import v1
from .fold import Namer, laid_by_version_1
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


def clusters(state: dict[str, Any], contacts: list[Any], index: FigureIndex | None = None) -> list[dict[str, Any]]:
    """The melees of a turn: ``{"first": contact, "members": in contact, "fighters": everyone}``,
    one per connected component of the melee graph, in the order of their first contact.

    Built in two steps so a long front stays cheap: the figures linked by contacts form clusters
    (networkx components), then every figure within 6 in of a cluster's figure in contact merges
    all the clusters it reaches (a union-find over clusters, not an edge per pair)."""
    figs = state["figures"]
    index = index or FigureIndex(figs)
    cluster_of = {
        m: k for k, comp in enumerate(nx.connected_components(nx.Graph([c[:2] for c in contacts]))) for m in comp
    }
    touching = sorted(cluster_of)
    pts = [(figs[m]["x"], figs[m]["y"]) for m in touching]
    reach = [MELEE_JOIN + radius(figs[m]["arm"]) for m in touching]
    reached: dict[str, set[int]] = {}
    for k, j in index.near_pairs(pts, reach):
        reached.setdefault(j, {cluster_of[j]} if j in cluster_of else set()).add(cluster_of[touching[k]])
    merged = nx.utils.UnionFind(range(len(set(cluster_of.values()))))
    for ks in reached.values():
        merged.union(*ks)
    melees: dict[int, dict[str, Any]] = {}
    for fid in sorted(set(reached) | set(touching)):
        k = merged[cluster_of[fid] if fid in cluster_of else next(iter(reached[fid]))]
        entry = melees.setdefault(k, {"members": set(), "fighters": []})
        entry["fighters"].append(fid)
        if fid in cluster_of:
            entry["members"].add(fid)
    for c in sorted(contacts, key=lambda c: (c[2], c[0], c[1])):
        melees[merged[cluster_of[c[0]]]].setdefault("first", c)
    return sorted(melees.values(), key=lambda e: (e["first"][2], e["first"][0], e["first"][1]))


def initiator(state: dict[str, Any], cluster: dict[str, Any], counts: dict[str, Any]) -> str:
    """LW-39: the side whose figure moved into the first contact; if both moved, the larger side; then the First Player."""
    a, b, _, a_moving, b_moving = cluster["first"]
    figs = state["figures"]
    if a_moving != b_moving:
        mover: str = figs[a]["side"] if a_moving else figs[b]["side"]
        return mover
    if counts[SIDES[0]] != counts[SIDES[1]]:
        return max(SIDES, key=lambda s: counts[s])
    first: str = state["first"]
    return first


def _rank(state: State, ids: list[str], policy: str, centre: Coord) -> list[str]:
    figs = state["figures"]

    def dist(i: str) -> float:
        return math.dist(centre, (figs[i]["x"], figs[i]["y"]))

    if policy == "farthest":
        return sorted(ids, key=lambda i: (-dist(i), i))
    if policy in ("cavalry", "infantry"):
        first = policy[:3]
        return sorted(ids, key=lambda i: (figs[i]["arm"] != first, dist(i), i))
    return sorted(ids, key=lambda i: (dist(i), i))


def resolve(state: dict[str, Any], contacts: list[Any]) -> Iterator[dict[str, Any]]:
    """Yield one ``melee`` payload per melee; the caller folds each before asking for the next."""
    names = Namer(state, "pow")
    if laid_by_version_1(state):  # a 0.1.0 game keeps 0.1.0's melees (v1.py)
        yield from v1.resolve(state, contacts, lambda st, cl, by, n, ix, gone: _fight(st, cl, by, n, ix, gone, names))
        return
    index = FigureIndex(state["figures"])
    figs = state["figures"]
    gone: set[str] = set()  # killed or taken in an earlier melee: no longer anyone's support (LW-44)
    for cl in clusters(state, contacts, index):
        by_side = {s: [i for i in cl["fighters"] if figs[i]["side"] == s] for s in SIDES}
        counts = {s: len(by_side[s]) for s in SIDES}
        if not all(counts.values()):
            continue
        payload = _fight(state, cl, by_side, counts, index, gone, names)
        gone.update(payload["killed"], payload["captured"])
        yield payload


def _fight(
    state: State,
    cl: dict[str, Any],
    by_side: dict[str, list[str]],
    counts: dict[str, int],
    index: FigureIndex,
    gone: set[str],
    names: Namer,
) -> dict[str, Any]:
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
    killed: list[str] = []
    captured: list[str] = []
    for side, key in ((a_side, "a"), (b_side, "b")):
        ranked = _rank(state, by_side[side], policy["lose"] if side == init else policy["kill"], centre)
        k, c = res[f"{key}_killed"], res[f"{key}_captured"]
        killed += ranked[:k]
        captured += ranked[k : k + c]
    captor = None
    if captured:
        assert smaller is not None  # equal melees take no prisoners (``outcome``)
        captor = other(smaller)
    return {
        "at": [round(centre[0], 3), round(centre[1], 3)],
        "initiator": init,
        "counts": counts,
        "fighters": {s: by_side[s] for s in SIDES},
        "smaller": smaller,
        "isolated": lonely,
        "killed": killed,
        "captured": captured,
        "captor": captor,
        "pow": names(captor) if captor is not None else None,
    }
