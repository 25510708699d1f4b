"""Little Wars version 1 (0.1.0): the functions whose results changed in version 2, frozen.

A game laid by 0.1.0 (``fold.laid_by_version_1``) is adjudicated by these for good, so its log
re-adjudicates as it was recorded (rules/README.md, "Versions"; tests/golden/0.1.0). Copied from
0.1.0 (commit 2c3e6be) and only typed; never change them: a change to version 1 is a change to
every 0.1.0 game's past.

- Melee (LW-34, LW-44): 0.1.0 made one melee of each cluster of figures in contact, joined by
  every fighting figure within 6 in of a member, and resolved the clusters in turn, a figure
  killed or taken in one no longer fighting in the next; so a battle line could be several
  melees and a figure near two clusters fought in both. Version 2 makes one melee of each
  connected component of the contact-and-6-in graph, and its payload lists the fighters.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from .geom import FigureIndex
from .units import MELEE_JOIN, SIDES, radius

Fight = Callable[
    [dict[str, Any], dict[str, Any], dict[str, list[str]], dict[str, int], FigureIndex, set[str]], dict[str, Any]
]


def clusters(contacts: list[Any]) -> list[dict[str, Any]]:
    """0.1.0: connected groups of figures in contact, in order of their first contact."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b, *_ in contacts:
        parent[find(a)] = find(b)
    out: dict[str, dict[str, Any]] = {}
    for c in sorted(contacts, key=lambda c: (c[2], c[0], c[1])):
        entry = out.setdefault(find(c[0]), {"first": c, "members": set()})
        entry["members"].update(c[:2])
    return sorted(out.values(), key=lambda e: (e["first"][2], e["first"][0]))


def resolve(state: dict[str, Any], contacts: list[Any], fight: Fight) -> Iterator[dict[str, Any]]:
    """0.1.0's melees: one per contact cluster with its joiners, those already gone left out;
    ``fight`` is the arithmetic both versions share (melee._fight), its payload without fighters."""
    index = FigureIndex(state["figures"])
    figs = state["figures"]
    gone: set[str] = set()
    for cl in clusters(contacts):
        members = [m for m in sorted(cl["members"]) if m not in gone]
        pts = [(figs[m]["x"], figs[m]["y"]) for m in members]
        reach = [MELEE_JOIN + radius(figs[m]["arm"]) for m in members]
        fighters = sorted(index.near_any(pts, reach) - gone) if members else []
        by_side = {s: [i for i in fighters if figs[i]["side"] == s] for s in SIDES}
        counts = {s: len(by_side[s]) for s in SIDES}
        if not all(counts.values()):
            continue
        payload = fight(state, cl, by_side, counts, index, gone)
        payload.pop("fighters", None)  # 0.1.0's payload did not list them
        gone.update(payload["killed"], payload["captured"])
        yield payload
