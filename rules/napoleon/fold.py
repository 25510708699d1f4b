"""The state and how events change it.

State (plain JSON, never mutated in place)::

    phase      "empty" | "play" | "over"
    scenario   the loaded scenario (map, caps, options, objectives)
    turn       1-based game turn (a turn is one player turn of each side)
    side       the side whose player turn is open
    opening    True while the scenario's 0-point opening turn (NW-55) is open
    units      {uid: unit}, see scenario.new_unit
    leaders    {lid: leader}, see scenario.new_leader
    standing   {side: {"square": "yes", "countercharge": "yes", "leader_morale": "yes"}}
    log        [[type, payload, audience], ...] the events of the last player turn
    score      {side: points}
    result     None or {"winner", "reason", "score"}

Events that change units or leaders carry ``units: {uid: patch}`` / ``leaders: {lid: patch}``;
the fold merges each patch. The adjudicator decides, the event records, the fold applies.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core.protocol import PUBLIC, side_audience

from .data import SIDES

PREFIX = "napoleon."
DEFAULT_STANDING = {"square": "yes", "countercharge": "yes", "leader_morale": "yes"}


def initial_state() -> dict[str, Any]:
    return {
        "phase": "empty",
        "scenario": None,
        "turn": 0,
        "side": SIDES[0],
        "opening": False,
        "units": {},
        "leaders": {},
        "standing": {s: dict(DEFAULT_STANDING) for s in SIDES},
        "log": [],
        "score": dict.fromkeys(SIDES, 0),
        "result": None,
    }


def fold(state: dict[str, Any], event_type: str, payload: Mapping[str, Any]) -> dict[str, Any]:
    """A new state; the input is not changed (only the containers an event touches are copied)."""
    if not event_type.startswith(PREFIX):
        return state
    new = dict(state)
    new["units"], new["leaders"], new["log"] = dict(state["units"]), dict(state["leaders"]), list(state["log"])
    apply(new, event_type, payload)
    return new


def apply(new: dict[str, Any], event_type: str, payload: Mapping[str, Any]) -> None:
    """Apply an event to a state the caller owns (top level, units, leaders and log are changed
    in place; unit and leader dicts are replaced, never changed)."""
    kind = event_type[len(PREFIX) :]
    if kind == "battle_set":
        new.clear()
        new.update(initial_state())
        new.update(
            phase="play",
            scenario=payload["scenario"],
            turn=1,
            side=payload["side"],
            opening=payload["opening"],
            units=dict(payload["units"]),
            leaders=dict(payload["leaders"]),
        )
        new["log"] = [[event_type, {"title": payload["scenario"]["title"], "side": payload["side"]}, "public"]]
        return
    if kind == "turn_started":
        new["log"] = []
    if kind == "turn_opened":
        new.update(turn=payload["turn"], side=payload["side"], opening=payload["opening"])
    for key in ("units", "leaders"):
        coll = new[key]
        for i, patch in payload.get(key, {}).items():
            coll[i] = {**coll[i], **patch}
    if kind == "standing_set":
        new["standing"] = {
            **new["standing"],
            payload["side"]: {**new["standing"][payload["side"]], payload["key"]: payload["value"]},
        }
    if "score" in payload:
        new["score"] = dict(payload["score"])
    if kind == "game_over":
        new["phase"] = "over"
        new["result"] = {"winner": payload["winner"], "reason": payload["reason"], "score": dict(payload["score"])}
    new["log"].append(
        [
            event_type,
            {k: v for k, v in payload.items() if k not in ("units", "leaders", "scenario")},
            audience(event_type, payload),
        ]
    )


def audience(event_type: str, payload: Mapping[str, Any]) -> str:
    """Who may see an event: all of the field is public; a side's standing instructions (its
    choices for the opponent's turn) are its own business, so the opponent never reads them."""
    if event_type == PREFIX + "standing_set":
        return side_audience(payload["side"])
    return PUBLIC
