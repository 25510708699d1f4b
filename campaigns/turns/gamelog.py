"""A game's log as the turn machinery reads it: the event store built with the lifecycle fold,
the snapshot rule and the Game columns projected from the state.

Everything above the log loads and appends through this module, so the Game row's columns
(the sweeper's and the lists' view of a game) always move with the log.
"""

from __future__ import annotations

from datetime import timedelta

from django.utils.dateparse import parse_datetime

from campaigns.log import verify
from campaigns.log.eventstore import (
    ConcurrencyConflict,
    Draft,
    EventStore,
    Fold,
    Stream,
    event_hash,
    head,
    holding_locks,
)
from campaigns.models import Game

from . import lifecycle
from .adjudication import adjudication_drafts
from .state import GameStatus, LifecycleState, TurnStatus

__all__ = [
    "ConcurrencyConflict",
    "Draft",
    "Stream",
    "event_hash",
    "head",
    "holding_locks",
    "load",
    "append",
    "append_retrying",
    "state_at",
    "replay",
    "rebuild_snapshots",
    "projection",
    "snapshot_due",
    "verify_game",
    "store",
]


def projection(state: LifecycleState) -> dict:
    """Game columns the sweeper and lists need, derived from the folded log."""
    turn = state.turn
    # in a grace after the deadline (lateness.py) the turn closes when the grace ends
    due = turn.late_until or turn.deadline
    deadline = parse_datetime(due) if due and turn.is_open else None
    close_due = None
    if turn.is_open and turn.sides and all(s in turn.ready for s in turn.sides):
        last_ready = max(parse_datetime(turn.ready[s]) for s in turn.sides)
        close_due = last_ready + timedelta(seconds=state.settings["ready_delay_seconds"])
    return {
        "status": Game.Status.FINISHED if state.status is GameStatus.FINISHED else Game.Status.ACTIVE,
        "turn_number": turn.number,
        "turn_status": str(turn.status),  # the column holds TurnStatus's values
        "deadline_at": deadline,
        "close_due_at": close_due,
    }


def snapshot_due(event_type: str, state: LifecycleState) -> bool:
    """Whether the state after an event is kept as a snapshot (``state``: the state after it).

    So that the work of answering a viewer never depends on the other side's hidden events
    (rules/core/protocol.py), a load folds no event at all: a snapshot is kept after every
    event a reader can find at the head of the log - every event of an open, closed or
    published turn (orders, readiness, deadlines, rulings, the turn's opening and
    publication). Not kept: the scenario's setup before the first turn opens, and a turn's
    results while they are written (the same transaction publishes them) - unless the game
    holds results for the umpire's approval, when each is the head a reader may meet.
    Snapshots every N events would be taken at places the other side's private events
    shift, and a load would fold as many of those as came since. A turn's opening is followed
    at once, in the same append, by its sealed seed: the snapshot is kept after the seal."""
    if event_type == "turn.opened":
        return False
    status = state.turn.status
    if status is TurnStatus.ADJUDICATED:
        return bool(state.settings.get("require_approval"))
    return status is not TurnStatus.NONE


store = EventStore(
    Fold(
        empty=lifecycle.empty_state,
        apply=lifecycle.fold,
        snapshot_due=snapshot_due,
        to_json=lifecycle.to_json,
        from_json=lifecycle.from_json,
    ),
    projection=projection,
)
load = store.load
append = store.append
append_retrying = store.append_retrying
state_at = store.state_at
replay = store.replay
rebuild_snapshots = store.rebuild_snapshots


def verify_game(game: Game, progress=None) -> verify.Report:
    """The game's log checked: hash chain, snapshots, dice, and every adjudication re-run."""
    return verify.verify_game(game, store, adjudication_drafts, progress)
