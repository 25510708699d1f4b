"""Invariants every state must keep (used by tests and the property checks)."""
from __future__ import annotations

from .table import table_of
from .units import SIDES

STATUSES = ("ok", "dead", "pow", "absent")


def check_invariants(state: dict) -> list[str]:
    problems: list[str] = []
    if state.get("scenario") is None:
        return problems
    table = table_of(state["scenario"])
    figs = state["figures"]
    grouped: dict[str, str] = {}
    for side in SIDES:
        for name, ids in state["groups"][side].items():
            for i in ids:
                if i in grouped:
                    problems.append(f"{i} is in groups {grouped[i]} and {name}")
                grouped[i] = name
                if figs[i]["side"] != side or figs[i]["st"] != "ok":
                    problems.append(f"{i} in {side} group {name} is not a free {side} figure")
    for captor in SIDES:
        for name, ids in state["pows"][captor].items():
            for i in ids:
                if figs[i]["st"] != "pow" or figs[i]["pow"][0] != captor or figs[i]["pow"][2]:
                    problems.append(f"{i} in {captor}'s prisoner group {name} is not a prisoner on the table")
    for fid, f in figs.items():
        if f["st"] not in STATUSES:
            problems.append(f"{fid} has unknown status {f['st']!r}")
        if f["st"] == "ok" and fid not in grouped:
            problems.append(f"{fid} is free but in no group")
        if f["st"] == "pow" and (f["pow"] is None or f["pow"][0] == f["side"]):
            problems.append(f"{fid} is a prisoner without an enemy captor")
        if f["st"] == "ok" and state["phase"] != "deploy":
            err = table.spot_error(f["arm"], f["x"], f["y"], hill_sides=False)  # contact may stop one on a slope
            if err:
                problems.append(f"{fid}: {err}")
    return problems
