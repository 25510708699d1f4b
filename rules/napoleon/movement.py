"""Movement (house base + NW-9..14, NW-38): plans checked before any point is paid.

A step costs 1 movement point, +1 across a stream (not by a bridge, NW-13). Entering forest,
town or fortification, or a hex next to an enemy, ends the move (house; NW-13 keeps the
forest stop). Friends may be passed through; a hex holds at most two units of one side.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.hex import coords as C
from rules.hex import paths
from rules.hex.paths import StepCost

from .battle import Battle, other
from .data import COST, LEADER_MP, STACK, kind


@dataclass
class Plan:
    path: list[str]  # hex labels, the start first
    cost: int  # command points before a leader's reduction
    road: bool = False
    done: bool = False  # the unit may do nothing more this turn (NW-12)


def _zoc(b: Battle, side: str) -> set[C.Hex]:
    return {n for u in b.active() if u["side"] != side for n in C.neighbours(b.h(u["hex"]))}


def _occupancy(b: Battle) -> dict[C.Hex, list[dict[str, Any]]]:
    occ: dict[C.Hex, list[dict[str, Any]]] = {}
    for u in b.active():
        occ.setdefault(b.h(u["hex"]), []).append(u)
    return occ


def step_cost(
    b: Battle,
    side: str,
    start: C.Hex,
    arm_kind: str,
    road: bool = False,
    no_cross: bool = False,
    stream_guns: bool = False,
) -> StepCost:
    """The cost of one step for a mover of ``arm_kind`` (None: not allowed)."""
    zoc, occ, m = _zoc(b, side), _occupancy(b), b.map
    chiefs = {b.h(x["hex"]) for x in b.state["leaders"].values() if x["status"] == "active" and x["side"] != side}

    def cost(frm: C.Hex, to: C.Hex) -> int | None:
        if to not in m or to in chiefs or (frm != start and (b.cover(frm) or frm in zoc)):
            return None  # off the map, an enemy leader's hex, or the move ended in cover or next to an enemy
        here = occ.get(to, ())
        if any(o["side"] != side for o in here):
            return None
        feature = m.side(frm, to)
        if road and (here or to in zoc or not (m.road(frm) and m.road(to)) or feature == "stream"):
            return None  # NW-9, NW-10; a road crosses a stream only by its bridge
        if feature and no_cross:
            return None  # NW-29: no charge across a stream or a bridge
        if feature == "stream":
            if arm_kind == "artillery" and not (stream_guns and frm == start):
                return None  # NW-14: guns cross only from the bank where they start, for 2 points
            return 2
        return 1

    return cost


def room(b: Battle, u: dict[str, Any], dest: C.Hex) -> str | None:
    here = b.at(dest)
    if any(o["side"] != u["side"] for o in here) or b.leaders_at(C.label(dest), other(u["side"])):
        return f"{C.label(dest)} is held by the enemy"
    if len(here) >= STACK:
        return f"{C.label(dest)} already holds {STACK} units"
    return None


def plan_move(b: Battle, u: dict[str, Any], dest_label: str) -> Plan | str:
    start, dest = b.h(u["hex"]), b.h(dest_label)
    if dest not in b.map:
        return f"hex {dest_label} is not on the map"
    if dest == start:
        return f"{u['id']} is already at {dest_label}"
    why = room(b, u, dest)
    if why:
        return why
    k, mp = kind(u), b.arm(u)["mp"]
    p = paths.path(start, dest, step_cost(b, u["side"], start, k), budget=mp)
    if p:
        return Plan([C.label(h) for h in p], COST["move"])
    zoc = _zoc(b, u["side"])
    if b.map.road(start) and start not in zoc:
        p = paths.path(start, dest, step_cost(b, u["side"], start, k, road=True), budget=mp + 1)
        if p:
            return Plan([C.label(h) for h in p], COST["move"], road=True, done=True)  # NW-11, NW-12
    if (
        k == "artillery"
        and b.map.side(start, dest) == "stream"
        and step_cost(b, u["side"], start, k, stream_guns=True)(start, dest) is not None
    ):
        return Plan([u["hex"], dest_label], COST["stream_guns"])  # NW-14
    return (
        f"{u['id']} cannot reach {dest_label} this turn ({mp} movement point{'s' if mp > 1 else ''}; "
        "+1 across a stream; a move ends in cover or next to an enemy)"
    )


def plan_road(b: Battle, u: dict[str, Any], dest_label: str) -> Plan | str:
    """The free road hex alone (NW-11, NW-55): 0 points, then the unit is done (NW-12)."""
    start, dest = b.h(u["hex"]), b.h(dest_label)
    if C.distance(start, dest) != 1:
        return "the free road move is one hex along the road: name an adjacent road hex"
    if start in _zoc(b, u["side"]):
        return f"{u['id']} is next to an enemy: no road movement (NW-10)"
    if step_cost(b, u["side"], start, kind(u), road=True)(start, dest) is None:
        return (
            f"{dest_label} cannot be entered by road: both hexes must be road, joined by a bridge if a "
            "stream runs between, the hex empty of friends (NW-9) and not next to an enemy (NW-10)"
        )
    return Plan([u["hex"], dest_label], COST["road"], road=True, done=True)


def plan_leader(b: Battle, ldr: dict[str, Any], dest_label: str) -> Plan | str:
    start, dest = b.h(ldr["hex"]), b.h(dest_label)
    if dest not in b.map:
        return f"hex {dest_label} is not on the map"
    if ldr["moved"]:
        return f"{ldr['id']} has already moved this turn"
    if ldr["used"]:
        return f"{ldr['id']} has already made {ldr['used']}'s action cheaper this turn and stays with it (NW-37)"
    p = paths.path(start, dest, step_cost(b, ldr["side"], start, "cavalry"), budget=LEADER_MP)
    if not p:
        return f"{ldr['id']} cannot reach {dest_label} with {LEADER_MP} movement points (NW-38)"
    return Plan([C.label(h) for h in p], 0)


def charge_path(b: Battle, u: dict[str, Any], target: dict[str, Any], end_label: str | None) -> list[C.Hex] | str:
    """NW-26..30: the path to the hex the charge starts from."""
    start, th = b.h(u["hex"]), b.h(target["hex"])
    if C.distance(start, th) == 1:
        return f"{u['id']} is already next to {target['id']}: a charge starts with a move (NW-30); use melee"
    base = step_cost(b, u["side"], start, "cavalry", no_cross=True)

    def cost(frm: C.Hex, to: C.Hex) -> float | None:  # NW-30: the first hex next to the target ends the move
        if frm != start and C.distance(frm, th) == 1:
            return None
        return base(frm, to)

    best = paths.reach(start, b.arm(u)["mp"], cost)
    ends = [e for e in best if e != start and C.distance(e, th) == 1]
    if end_label:
        ends = [e for e in ends if C.label(e) == end_label]
    reasons = []
    for e in sorted(ends, key=lambda e: (best[e], C.label(e))):
        why = _charge_end(b, u, e, th)
        if why is None:
            found = paths.path(start, e, cost, budget=b.arm(u)["mp"])
            assert found is not None  # ``e`` was reached within the budget
            return found
        reasons.append(why)
    if reasons:
        return reasons[0]
    where = f"{end_label}" if end_label else "a hex next to it"
    return (
        f"{u['id']} cannot reach {where} without crossing a stream or bridge (NW-29) or passing "
        f"next to {target['id']} first (NW-30)"
    )


def _charge_end(b: Battle, u: dict[str, Any], e: C.Hex, th: C.Hex) -> str | None:
    lab = C.label(e)
    if b.map.terrain(e) != "open":
        return f"a charge must end on clear ground or a hill, not {b.map.terrain(e)} at {lab} (NW-26)"
    if any(kind(o) in ("artillery", "horse_artillery") for o in b.at(e)):
        return f"a charge cannot end on a hex with artillery ({lab}, NW-28)"
    if b.map.side(e, th):
        return f"a charge from {lab} would cross a {b.map.side(e, th)} (NW-29)"
    return room(b, u, e)
