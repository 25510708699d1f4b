"""The Kriegspiel's invariants: the main part's (figures, prisoners, guns on the table and outside
scenery), with riders standing where their train or boat is, plus the side's depots (wagons) and
trains on the table and outside scenery. A boat stands on water, so only the table holds it.

Every figure standing on the table after a turn is checked, so after a charge too: no charger,
pushed or pursued figure nor prisoner inside or within 1/16 in of a building, wall, tree or river
(LW-27; charges are ridden round scenery from version 4, charge.py)."""

from __future__ import annotations

from typing import Any

from rules.littlewars.invariants import check_invariants as lw_invariants
from rules.littlewars.invariants import placement_problems
from rules.littlewars.table import table_of

from .vehicles import aboard

WAGON_SPOT = "inf"  # a depot's place is checked like a figure's (its wagons stand on open ground)


def check_invariants(state: dict[str, Any]) -> list[str]:
    problems = lw_invariants(state, riding=frozenset(aboard(state)))
    if state.get("scenario") is None or state["phase"] == "deploy":
        return problems
    ks = state["ks"]
    things = [
        (f"{side} depot {name}", WAGON_SPOT, d["x"], d["y"])
        for side, sup in sorted(ks["supply"].items())
        for name, d in sorted(sup["depots"].items())
    ]
    things += [(vid, WAGON_SPOT, v["x"], v["y"]) for vid, v in sorted(ks["vehicles"].items()) if v["kind"] == "train"]
    problems += placement_problems(state, things)
    table = table_of(state["scenario"])
    problems += [
        f"{vid}: ({v['x']:g}, {v['y']:g}) is off the table"
        for vid, v in sorted(ks["vehicles"].items())
        if not (0 <= v["x"] <= table.width and 0 <= v["y"] <= table.depth)
    ]
    return problems
