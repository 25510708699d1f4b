"""Supply wagons and ammunition carts on the table (LW-66/67; RULES.md, "Wagons").

The seed (000, «Расширения правил») gives two sentences: detachments must have one supply wagon
for every 50 soldiers within six «шагов», and ammunition carts must be within two «шагов» of the
guns for them to fire. Decisions, all in RULES.md:
- «шаг» is a move (as LW-50's «6 шагов», digest ambiguity 8, and KS-54's «за два шага» = turns):
  one infantry move, 12 in, times the game's scale (LW-62): supply within 72 in, carts within 24 in.
- A wagon is a horse-drawn thing with a 0.5 in footprint (a mounted figure's), driven by men who
  are not figures: it moves 12 in a turn (a gun's foot pace, LW-26) round scenery, needs no escort,
  neither stops nor is stopped by anyone.
- The penalty the seed leaves out is the appendix's (KS-52): a figure out of supply at the start
  of a turn cannot move in it. Reckoned where everything stands, so there is no ledger to keep.
- An enemy fighting figure within 1 in of a wagon that has no fighting figure of its owner within
  6 in takes it (as a gun is taken with no crew near, LW-46); it then serves its captor. A shot
  destroys a wagon it strikes (seed-000 rule) or whose footprint its blast reaches (KS-6).

A wagon is ``state["wagons"][id]``: {side, name, kind: "supply" | "ammo", x, y, owner, st: "ok" | "destroyed"}.
"""

from __future__ import annotations

import math
from typing import Any

import networkx as nx

from rules.tabletop.points import XY

from .geom import fighting, gun_name
from .table import Table
from .units import BLAST_RADIUS, STRIKE_REACH, pace, radius

KINDS = {"supply": "supply wagon", "ammo": "ammunition cart"}
SPOT = "cav"  # a wagon and its horses take a mounted figure's footprint
STEPS = {"supply": 6, "ammo": 2}  # LW-66: within six «шагов»; LW-67: within two
PER_WAGON = 50  # LW-66: one supply wagon for every 50 soldiers
REACHED = 1.0  # an enemy within 1 in has reached a wagon ...
GUARDED = 6.0  # ... which is taken unless one of its own stands within 6 in


def radius_of() -> float:
    return radius(SPOT)


def step(scenario: dict[str, Any] | None) -> float:
    """One «шаг»: a move of infantry (12 in) in this game (LW-62 scale)."""
    return pace(scenario, "inf")


def reach(scenario: dict[str, Any], kind: str) -> float:
    return STEPS[kind] * step(scenario)


def wagon_pace(scenario: dict[str, Any] | None) -> float:
    return step(scenario)


def on(state: dict[str, Any]) -> bool:
    return bool((state.get("scenario") or {}).get("settings", {}).get("supply"))


def live(state: dict[str, Any], owner: str | None = None, kind: str | None = None) -> dict[str, Any]:
    return {
        wid: w
        for wid, w in sorted((state.get("wagons") or {}).items())
        if w["st"] == "ok" and (owner is None or w["owner"] == owner) and (kind is None or w["kind"] == kind)
    }


def name_of(w: dict[str, Any]) -> str:
    return gun_name(w)  # a captured wagon is called red-cart1 by its captor, as guns are


def initial(scenario: dict[str, Any]) -> dict[str, Any]:
    return {
        f"{side}:{w['name']}": {
            "side": side,
            "name": w["name"],
            "kind": w["kind"],
            "x": w["at"][0],
            "y": w["at"][1],
            "owner": side,
            "st": "ok",
        }
        for side, force in scenario["forces"].items()
        for w in force.get("wagons", [])
    }


def _gap(a: dict[str, Any], ra: float, b: dict[str, Any], rb: float) -> float:
    """Distance between two footprints (to any part of them, LW-34)."""
    return math.dist((a["x"], a["y"]), (b["x"], b["y"])) - ra - rb


# -- LW-66 supply ----------------------------------------------------------------------------
def unsupplied(state: dict[str, Any], side: str) -> list[str]:
    """The side's fighting figures no supply wagon feeds now, sorted. Each wagon feeds up to 50
    within six moves; they are shared so that as many as possible are fed, the nearest first
    (a minimum-cost maximum flow: when some must go hungry, the ones far from every wagon do)."""
    if not on(state):
        return []
    figs = {fid: f for fid, f in sorted(state["figures"].items()) if f["side"] == side and fighting(f)}
    wagons = live(state, side, "supply")
    limit = reach(state["scenario"], "supply")
    g: nx.DiGraph[str] = nx.DiGraph()
    for wid, w in wagons.items():
        g.add_edge("src", wid, capacity=PER_WAGON, weight=0)
        for fid, f in figs.items():
            d = _gap(w, radius_of(), f, radius(f["arm"]))
            if d <= limit + 1e-9:
                g.add_edge(wid, fid, capacity=1, weight=int(round(d * 100)))
    for fid in figs:
        g.add_edge(fid, "sink", capacity=1, weight=0)
    if not wagons or "sink" not in g:
        return sorted(figs)
    flow = nx.max_flow_min_cost(g, "src", "sink")
    fed = {fid for wid in wagons for fid, n in flow.get(wid, {}).items() if n}
    return sorted(set(figs) - fed)


# -- LW-67 ammunition ------------------------------------------------------------------------
def ammo_error(state: dict[str, Any], gid: str) -> str | None:
    """Why a gun may not fire for want of its cart (None: a cart of its owner is within two moves)."""
    if not on(state):
        return None
    g = state["guns"][gid]
    limit = reach(state["scenario"], "ammo")
    carts = live(state, g["owner"], "ammo")
    near = min((math.dist((g["x"], g["y"]), (c["x"], c["y"])) - radius_of() for c in carts.values()), default=None)
    if near is not None and near <= limit + 1e-9:
        return None
    where = f"the nearest is {near:.1f} in away" if near is not None else "you have none left"
    return f"{gun_name(g)} has no ammunition cart within {limit:g} in (two moves, LW-67): {where}"


# -- fire and capture ------------------------------------------------------------------------
def struck(state: dict[str, Any], hit: XY, blast: bool, table: Table, gone: set[str]) -> list[str]:
    """Wagons a shot landing at ``hit`` destroys: the seed-000 strike (its footprint within 0.3 in)
    or the blast (its footprint reaching within 3 in, walls shielding: KS-6, KS-7)."""
    out = []
    for wid, w in live(state).items():
        if wid in gone:
            continue
        d = math.dist(hit, (w["x"], w["y"])) - radius_of()
        if (
            blast
            and d <= BLAST_RADIUS + 1e-9
            and not table.shielded(hit, (w["x"], w["y"]))
            or not blast
            and d <= STRIKE_REACH + 1e-9
        ):
            out.append(wid)
    return out


def captures(state: dict[str, Any]) -> list[dict[str, Any]]:
    """End of turn: wagons reached by an enemy fighting figure (1 in) with none of their own within 6 in."""
    out = []
    figs = [f for f in state["figures"].values() if fighting(f)]
    for wid, w in live(state).items():
        near = [(_gap(w, radius_of(), f, radius(f["arm"])), f["side"]) for f in figs]
        if any(d <= GUARDED + 1e-9 for d, s in near if s == w["owner"]):
            continue
        takers = sorted((d, s) for d, s in near if s != w["owner"] and d <= REACHED + 1e-9)
        if takers:
            out.append({"wagon": wid, "by": takers[0][1], "at": [w["x"], w["y"]]})
    return out


def standing(state: dict[str, Any]) -> list[Any]:
    """(name, footprint, x, y) of every wagon still on the table, for the invariants' placement checks."""
    return [(wid, SPOT, w["x"], w["y"]) for wid, w in live(state).items()]
