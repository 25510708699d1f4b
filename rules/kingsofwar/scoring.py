"""Victory by scenario (house, RULES.md "Victory").

"points": when the last round ends, each side scores the points cost of the enemy units
it routed; more wins, equal is a draw. "objectives": each objective belongs to a side
with a steady (not wavering) unit within 3 in of it and no enemy unit within 3 in; more
objectives win, then routed points break a tie. Either game ends at once, won, when a
side has no unit left on the field.
"""

from __future__ import annotations

from typing import Any

from shapely.geometry import Point

from . import geom
from .profiles import profile
from .scenario import OBJECTIVE_REACH


def routed_points(state: dict[str, Any], side: str) -> int:
    """Points of enemy units ``side`` has routed."""
    return sum(
        profile(u["army"], u["type"])["points"]
        for u in state["units"].values()
        if u["side"] != side and u["status"] == "routed"
    )


def objective_holders(state: dict[str, Any]) -> list[str | None]:
    """Who holds each objective (None: nobody, or contested)."""
    out: list[str | None] = []
    for xy in state["scenario"]["objectives"]:
        near = [
            u
            for u in state["units"].values()
            if u["status"] != "routed" and geom.base(u).distance(Point(xy)) <= OBJECTIVE_REACH + 1e-9
        ]
        sides = {u["side"] for u in near}
        steady = {u["side"] for u in near if u["status"] == "steady"}
        out.append(steady.pop() if len(sides) == 1 and steady else None)
    return out


def score(state: dict[str, Any]) -> dict[str, Any]:
    sides = state["scenario"]["sides"]
    res: dict[str, Any] = {"routed_points": {s: routed_points(state, s) for s in sides}}
    if state["scenario"]["victory"] == "objectives":
        held = objective_holders(state)
        res["objectives"] = {s: held.count(s) for s in sides}
        res["held"] = held
    return res


def final_result(state: dict[str, Any]) -> dict[str, Any] | None:
    """The game's result once it is over, else None."""
    sides = state["scenario"]["sides"]
    left = {s: sum(1 for u in state["units"].values() if u["side"] == s and u["status"] != "routed") for s in sides}
    sc = score(state)
    for s in sides:
        if left[s] == 0:
            winner = next(o for o in sides if o != s)
            return {"winner": winner, "reason": f"{s} has no unit left on the field", "score": sc}
    if state["round"] <= state["scenario"]["rounds"]:
        return None
    keys = [sc["routed_points"]]
    if "objectives" in sc:
        keys.insert(0, sc["objectives"])
    for key in keys:
        a, b = (key[s] for s in sides)
        if a != b:
            winner = sides[0] if a > b else sides[1]
            what = "objectives held" if key is sc.get("objectives") else "points of enemy units routed"
            return {"winner": winner, "reason": f"after {state['scenario']['rounds']} rounds, more {what}", "score": sc}
    return {"winner": None, "reason": f"after {state['scenario']['rounds']} rounds, a draw", "score": sc}
