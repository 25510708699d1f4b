"""What a viewer sees, built as an allow-list. Kings of War hides nothing (line of sight
is geometric, KW summary): every viewer gets the same positions, damage and status."""

from __future__ import annotations

from typing import Any

from rules.core.protocol import Viewer

from . import geom
from .adjudicate import next_turn
from .profiles import profile
from .scoring import score

_UNIT_KEYS = ("id", "side", "army", "type", "x", "y", "facing", "w", "d", "h", "damage", "status", "charged_by")
_PROFILE_KEYS = ("sp", "me", "ra", "de", "att", "waver", "rout", "weapon", "points")


def build_view(state: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    sc = state.get("scenario")
    if not sc:
        return {"phase": state.get("phase"), "units": []}
    units = []
    for uid in sorted(state["units"]):
        u = state["units"][uid]
        item = {k: u[k] for k in _UNIT_KEYS if k in u}
        item["profile"] = {k: profile(u["army"], u["type"])[k] for k in _PROFILE_KEYS}
        item["corners"] = [list(c) for c in geom.corners(u).values()]
        units.append(item)
    turn = next_turn(state)
    return {
        "phase": state["phase"],
        "round": state["round"],
        "rounds": sc["rounds"],
        "to_move": state["to_move"],
        "awaiting": list(turn.sides),
        "scenario": sc["name"],
        "victory": sc["victory"],
        "sides": list(sc["sides"]),
        "first": sc["first"],
        "block_rule": sc["block_rule"],
        "arcs": sc["arcs"],
        **({"rules_version": sc["rules_version"]} if "rules_version" in sc else {}),  # sees and moves alike
        "table": dict(sc["table"]),
        "terrain": sc["terrain"],
        "objectives": sc["objectives"],
        "units": units,
        "score": score(state),
        "result": state.get("result"),
        "viewer": {"role": viewer.role, "side": viewer.side},
    }
