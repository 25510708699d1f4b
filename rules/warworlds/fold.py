"""The state and how events change it.

State (plain JSON, never mutated in place)::

    phase      "empty" | "deploy" (version 3: sides place their hidden units) | "play" | "over"
    scenario   the loaded scenario (map, turns, objectives, buildings, options); shared by reference
    turn       1-based game turn
    round      "movement" | "shooting" | "melee": the mail round now open
    attacker   the side that activates first in every phase (WW-5, WW-7)
    units      {uid: unit}; see scenario.new_unit for a unit's fields
    log        [[type, payload, audience], ...] the events of the last adjudicated round
    score      {side: points}
    doors      {building hex: {"open": bool, "tried": {side: turn}}} (WW-46)
    result     None or {"winner", "reason", "score"}

Every event that changes units carries ``units: {uid: patch}``; the fold merges each patch
into the unit. So the adjudicator decides, the event records the outcome, and the fold only
applies it: replays are exact and cheap.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

PREFIX = "warworlds."
ROUNDS = ("movement", "shooting", "melee")


def initial_state() -> dict[str, Any]:
    return {
        "phase": "empty",
        "scenario": None,
        "turn": 0,
        "round": "movement",
        "attacker": "red",
        "units": {},
        "log": [],
        "score": {"red": 0, "blue": 0},
        "result": None,
        "doors": {},
    }


def fold(state: dict[str, Any], event_type: str, payload: Mapping[str, Any]) -> dict[str, Any]:
    """A new state; the input is not changed (only the containers an event touches are copied)."""
    if not event_type.startswith(PREFIX):
        return state
    new = dict(state)
    if "units" in payload:
        new["units"] = dict(state["units"])
    new["log"] = list(state["log"])
    apply(new, event_type, payload)
    return new


def apply(new: dict[str, Any], event_type: str, payload: Mapping[str, Any]) -> None:
    """Apply an event to a state the caller owns (its top level, ``units`` dict and ``log`` list
    are changed in place; unit dicts are replaced, never changed). ``fold`` copies first; the
    adjudicator works on its own copy, so a turn costs no copy per event."""
    audience = payload.get("audience", "public")  # events only one side may see say so (view filters the log)
    kind = event_type[len(PREFIX) :]
    if kind == "battle_set":
        new.clear()
        new.update(initial_state())
        new.update(
            # version 3: a scenario with deployment zones opens with the deployment round (deploy.py)
            phase="deploy" if payload["scenario"].get("deployment") else "play",
            scenario=payload["scenario"],
            turn=1,
            round="movement",
            attacker=payload["first"],
            units=dict(payload["units"]),
        )
        new["log"] = [[event_type, {"first": payload["first"], "title": payload["scenario"]["title"]}, audience]]
        return
    if kind == "round_opened":
        new.update(turn=payload["turn"], round=payload["round"])
    if kind == "round_started":
        new["log"] = []  # the log keeps the last adjudication's events
    if kind == "deployment_done":
        new["phase"] = "play"
    units = new["units"]
    for uid, patch in payload.get("units", {}).items():
        units[uid] = {**units[uid], **patch} if uid in units else dict(patch)
    if "doors" in payload:
        new["doors"] = dict(payload["doors"])
    if "score" in payload:
        new["score"] = dict(payload["score"])
    if kind == "game_over":
        new["phase"] = "over"
        new["result"] = {"winner": payload["winner"], "reason": payload["reason"], "score": dict(payload["score"])}
    new["log"].append([event_type, _summary(payload), audience])


def _summary(payload: Mapping[str, Any]) -> dict[str, Any]:
    """The payload without the unit patches (the log is for reading, the patches are applied)."""
    return {k: v for k, v in payload.items() if k not in ("units", "audience", "scenario", "doors")}
