"""Invariants every Kings of War state must keep (used by tests and the property checks)."""

from __future__ import annotations

from typing import Any

from . import geom
from .battlefield import battlefield_of
from .version import rules_version

STATUSES = ("steady", "wavering", "routed")


def check_invariants(state: dict[str, Any]) -> list[str]:
    """Problems with a state: bases off the table, on impassable terrain or overlapping, bad status.

    Overlapping is judged as the game's rules version moves units (``geom.overlaps``): a version 1
    game is held to version 1's test, no stricter; from version 2 a sliver left by rounding is touching."""
    problems: list[str] = []
    if state.get("scenario") is None:
        return problems
    field_ = battlefield_of(state["scenario"])
    standing = {k: u for k, u in state["units"].items() if u["status"] != "routed"}
    occupancy = geom.Occupancy(standing)
    version = rules_version(state)
    for uid, u in sorted(state["units"].items()):
        if u["status"] not in STATUSES:
            problems.append(f"{uid}: unknown status {u['status']!r}")
        if u["damage"] < 0:
            problems.append(f"{uid}: negative damage")
        if uid not in standing:
            continue
        shape = geom.base(u)
        if field_.off_table(shape):
            problems.append(f"{uid} is off the table")
        for p in field_.blocking(shape):
            problems.append(f"{uid} stands on impassable '{p.id}'")
        for oid in occupancy.near(shape):
            if oid > uid and geom.overlaps(geom.base(standing[oid]), shape, version):
                problems.append(f"{uid} overlaps {oid}")
    return problems
