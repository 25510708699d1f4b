"""The state and how events change it.

State (plain JSON, never mutated in place)::

    phase      "empty" | "play" | "over"
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

from typing import Any, Mapping

PREFIX = "warworlds."
ROUNDS = ("movement", "shooting", "melee")


def initial_state() -> dict[str, Any]:
    return {"phase": "empty", "scenario": None, "turn": 0, "round": "movement", "attacker": "red",
            "units": {}, "log": [], "score": {"red": 0, "blue": 0}, "result": None, "doors": {}}


def _patch_units(units: dict, patches: Mapping[str, Mapping[str, Any]]) -> dict:
    out = dict(units)
    for uid, patch in patches.items():
        out[uid] = {**out[uid], **patch} if uid in out else dict(patch)
    return out


def fold(state: dict, event_type: str, payload: Mapping[str, Any]) -> dict:
    if not event_type.startswith(PREFIX):
        return state
    audience = payload.get("audience", "public")  # events only one side may see say so (view filters the log)
    kind = event_type[len(PREFIX):]
    new = dict(state)
    if kind == "battle_set":
        new = initial_state()
        new.update(phase="play", scenario=payload["scenario"], turn=1, round="movement",
                   attacker=payload["first"], units=dict(payload["units"]))
        new["log"] = [[event_type, {"first": payload["first"], "title": payload["scenario"]["title"]}, audience]]
        return new
    if kind == "round_opened":
        new.update(turn=payload["turn"], round=payload["round"])
    log = [] if kind == "round_started" else state["log"]  # the log keeps the last adjudication's events
    if "units" in payload:
        new["units"] = _patch_units(state["units"], payload["units"])
    if "doors" in payload:
        new["doors"] = dict(payload["doors"])
    if "score" in payload:
        new["score"] = dict(payload["score"])
    if kind == "game_over":
        new["phase"] = "over"
        new["result"] = {"winner": payload["winner"], "reason": payload["reason"], "score": dict(payload["score"])}
    new["log"] = log + [[event_type, _summary(payload), audience]]
    return new


def _summary(payload: Mapping[str, Any]) -> dict:
    """The payload without the unit patches (the log is for reading, the patches are applied)."""
    return {k: v for k, v in payload.items() if k not in ("units", "audience", "scenario", "doors")}
