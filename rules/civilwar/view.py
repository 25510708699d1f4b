"""What a viewer may see, built as an allow-list (never a filtered copy of the state)."""

from __future__ import annotations

from typing import Any

from rules.core.protocol import Viewer

from .adjudicate import next_turn
from .board import SIDES, natural_sorted, point_xy
from .describe import describe_event, standing_lines
from .legality import count_units, legal_operations, legal_standing


def _board(board: dict[str, Any]) -> dict[str, Any]:
    sc = board["scenario"]
    xy = point_xy(sc)
    return {
        "name": sc["name"],
        "title": sc.get("title", sc["name"]),
        "max_units": board["max_units"],
        "cities": [{"id": c["id"], "name": c["name"], "x": c["x"], "y": c["y"]} for c in sc["cities"]],
        "roads": [
            {"id": r["id"], "joins": list(r["joins"]), "x": xy[r["id"]][0], "y": xy[r["id"]][1]} for r in sc["roads"]
        ],
        "lines": [{"id": ln["id"], "points": list(ln["points"])} for ln in sc["lines"]],
        "battles": bool(sc.get("battles")),  # assaults are fought as battles (version 2, RULES.md §9)
    }


def _battle(b: dict[str, Any]) -> dict[str, Any]:
    out = {
        "id": b["battle"],
        "place": dict(b["place"]),
        "attacker": b["attacker"],
        "defender": b["defender"],
        "forces": {s: [u["unit"] for u in b["forces"][s]] for s in SIDES},
        "turn": b["turn"],
        "status": b["status"],
    }
    if b["status"] == "resolved":
        out.update(winner=b["winner"], holds=b["holds"], by=b["by"])
    return out


def build_view(state: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    view: dict[str, Any] = {
        "ruleset": "civilwar",
        "viewer": {"role": viewer.role, "side": viewer.side},
        "phase": state["phase"],
    }
    board = state.get("board")
    if board is None:
        view.update({"board": None, "units": [], "tokens": {}, "turn": None, "result": None})
        return view
    view["board"] = _board(board)
    view["units"] = [{"point": p, "side": state["units"][p]} for p in natural_sorted(state["units"])]
    view["tokens"] = {c: state["tokens"][c] for c in natural_sorted(state["tokens"])}
    view["counters"] = {
        s: {
            "on_map": count_units(state, s),
            "in_box": board["max_units"] - count_units(state, s),
            "tokens": sum(1 for v in state["tokens"].values() if v == s),
            "tokens_dealt": state["token_start"][s],
        }
        for s in SIDES
    }
    spec = next_turn(state)
    view["turn"] = {
        "number": state["turn"],
        "to_move": state["to_move"],
        "acting": list(spec.sides),
        "kind": spec.kind,
        "prompt": spec.prompt,
    }
    view["protected"] = {s: list(state["just_occupied"].get(s, [])) for s in SIDES}
    if "battles" in state:  # version 2's battles: public, as everything in this game (rule 8)
        view["battles"] = [_battle(b) for b in state["battles"].values()]
    last = state.get("last")
    if last:
        view["last_operation"] = {
            "turn": last["turn"],
            "side": last["side"],
            "lines": [describe_event(t, p) for t, p in last["events"]],
        }
    else:
        view["last_operation"] = None
    pending = state.get("pending")
    if pending and pending.get("awaiting"):
        view["pending"] = {
            "defender": pending["defender"],
            "point": pending["point"],
            "attacker": pending["attacker"],
            "operation": pending["operation"],
            "options": list(pending["options"]),
        }
    else:
        view["pending"] = None
    if viewer.is_umpire:
        visible = list(SIDES)
    elif viewer.role == "player" and viewer.side in SIDES:
        visible = [viewer.side]
    else:
        visible = []
    view["standing_instructions"] = {s: standing_lines(state["standing"].get(s, {})) for s in visible}
    if viewer.role == "player" and viewer.side is not None and viewer.side in spec.sides and spec.kind == "orders":
        view["legal_operations"] = legal_operations(state, viewer.side)
        view["legal_standing"] = legal_standing(state, viewer.side)
    result = state.get("result")
    view["result"] = {k: result[k] for k in ("winner", "loser", "reason") if k in result} if result else None
    return view
