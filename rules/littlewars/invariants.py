"""Invariants every state must keep (used by tests, fuzzing and the property checks).

``check_invariants(state)``: groups and prisoner groups are consistent, and everything standing
on the table (free figures, prisoners not yet delivered, guns, the main part's wagons and carts of LW-66/67;
the Kriegspiel adds its depots) stands on it and outside impassable scenery. ``check_turn(events)``: no figure fights
in two melees of one turn (LW-44).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rules.core.protocol import RuleEvent

from . import wagons
from .table import table_of
from .units import GUN_SPOT, SIDES

STATUSES = ("ok", "dead", "pow", "absent")


def check_invariants(state: dict[str, Any], riding: frozenset[str] = frozenset()) -> list[str]:
    """``riding``: figures aboard a train or boat (Kriegspiel), which stand where their vehicle is."""
    problems: list[str] = []
    if state.get("scenario") is None:
        return problems
    figs = state["figures"]
    grouped = _groups(state, problems)
    for fid, f in figs.items():
        if f["st"] not in STATUSES:
            problems.append(f"{fid} has unknown status {f['st']!r}")
        if f["st"] == "ok" and fid not in grouped:
            problems.append(f"{fid} is free but in no group")
        if f["st"] == "pow" and (f["pow"] is None or f["pow"][0] == f["side"]):
            problems.append(f"{fid} is a prisoner without an enemy captor")
    if state["phase"] == "deploy":
        return problems
    standing = [
        (fid, f["arm"], f["x"], f["y"])
        for fid, f in sorted(figs.items())
        if fid not in riding and (f["st"] == "ok" or (f["st"] == "pow" and f["pow"] and not f["pow"][2]))
    ]
    standing += [(gid, GUN_SPOT, g["x"], g["y"]) for gid, g in sorted(state["guns"].items())]
    standing += wagons.standing(state)  # LW-66/67 wagons and carts still on the table
    problems += placement_problems(state, standing)
    return problems


def placement_problems(state: dict[str, Any], things: Iterable[tuple[str, str, float, float]]) -> list[str]:
    """``things``: (name, footprint arm, x, y); each must be on the table and clear of impassable scenery
    (a contact may stop a figure on a hill's side, LW-33, so hill sides are not checked here)."""
    table = table_of(state["scenario"])
    out = []
    for name, arm, x, y in things:
        err = table.spot_error(arm, x, y, hill_sides=False)
        if err:
            out.append(f"{name}: {err}")
    return out


def _groups(state: dict[str, Any], problems: list[Any]) -> dict[str, str]:
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
    return grouped


def check_turn(events: Sequence[RuleEvent]) -> list[str]:
    """Problems in one adjudication's events: a figure in two melees (LW-44)."""
    seen: dict[str, int] = {}
    problems = []
    melees = [e.payload for e in events if e.type.endswith(".melee")]
    for k, m in enumerate(melees):
        for fid in (i for ids in m.get("fighters", {}).values() for i in ids):
            if fid in seen:
                problems.append(f"{fid} fights in melees {seen[fid] + 1} and {k + 1}")
            seen[fid] = k
    return problems
