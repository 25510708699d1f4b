"""Events into state. The state is plain JSON; ``fold`` never mutates its input.

Copy on write: ``fold`` copies the top level and the units map, and a handler copies a unit
before changing it (``_unit``), so the scenario and untouched units are shared with the
previous state instead of copied for every event (a turn at 160 units a side has ~500 events)."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

PREFIX = "kingsofwar."


def initial_state() -> dict[str, Any]:
    return {"phase": "setup", "scenario": None, "units": {}, "to_move": None, "round": 0, "result": None}


def _unit(state: dict[str, Any], uid: str) -> dict[str, Any]:
    """The unit, copied into this state's own units map before a handler changes it."""
    u = state["units"][uid] = dict(state["units"][uid])
    return u


def _pose(u: dict[str, Any], p: Mapping[str, Any]) -> None:
    u["x"], u["y"], u["facing"] = p["x"], p["y"], p["facing"]


def fold(state: dict[str, Any], event_type: str, payload: Mapping[str, Any]) -> dict[str, Any]:
    name = event_type[len(PREFIX) :] if event_type.startswith(PREFIX) else event_type
    handler = _HANDLERS.get(name)
    if handler is None:
        return state
    state = dict(state)
    state["units"] = dict(state.get("units") or {})
    handler(state, payload)
    return state


def apply_in_place(state: dict[str, Any], event_type: str, payload: Mapping[str, Any]) -> None:
    """``fold`` on a private working copy (the adjudicator's), without copying it each time."""
    handler = _HANDLERS.get(event_type[len(PREFIX) :])
    if handler is not None:
        handler(state, payload)


def _battle_set(s: dict[str, Any], p: Mapping[str, Any]) -> None:
    s.update(phase="play", scenario=p["scenario"], units=copy.deepcopy(p["units"]), to_move=p["first"], round=1)


def _moved(s: dict[str, Any], p: Mapping[str, Any]) -> None:
    _pose(_unit(s, p["unit"]), p)


def _damage(s: dict[str, Any], p: Mapping[str, Any]) -> None:
    _unit(s, p["target"])["damage"] += p["damage"]


def _nerve(s: dict[str, Any], p: Mapping[str, Any]) -> None:
    u = _unit(s, p["unit"])
    if not (p["outcome"] == "steady" and u["status"] == "wavering"):  # holding does not end a wavering
        u["status"] = p["outcome"]


def _fought(s: dict[str, Any], p: Mapping[str, Any]) -> None:
    _damage(s, p)
    t = _unit(s, p["target"])
    t["charged_by"] = sorted(set(t.get("charged_by", [])) | set(p["attackers"]))


def _turn_ended(s: dict[str, Any], p: Mapping[str, Any]) -> None:
    for uid in [k for k, u in s["units"].items() if u["side"] == p["side"]]:
        u = _unit(s, uid)
        u["charged_by"] = []  # its chance to counter-charge has passed (KW-6)
        if u["status"] == "wavering":
            u["status"] = "steady"  # it has spent its own turn wavering (house)
    s["to_move"], s["round"] = p["next"], p["round"]


def _game_over(s: dict[str, Any], p: Mapping[str, Any]) -> None:
    s["result"] = copy.deepcopy(dict(p))
    s["phase"] = "over"


_HANDLERS = {
    "battle_set": _battle_set,
    "unit_moved": _moved,
    "unit_charged": _moved,
    "fell_back": _moved,
    "shot": _damage,
    "fight": _fought,
    "nerve_test": _nerve,
    "turn_ended": _turn_ended,
    "game_over": _game_over,
}
