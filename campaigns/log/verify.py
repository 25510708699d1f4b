"""Checks that a game's log is what it claims to be.

1. The hash chain: every event's hash recomputes, links to its predecessor,
   and the sequence is gapless from 1; the game head matches the last event.
2. Snapshots equal a fresh replay, byte for byte.
3. Dice: every revealed seed matches its published commitment, and every
   adjudication re-run from its seed and recorded orders gives the same events.

The store (with its fold) and the re-adjudication are the caller's: the log knows
neither the turn machinery nor the rule sets (campaigns.turns.gamelog.verify_game).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from campaigns.models import Event, Game, Snapshot
from rules.core import dice
from rules.core.canonical import canonical_json

from .eventstore import Draft, EventStore, event_hash

# state before the turn closed, its orders by side -> the adjudication's drafts
Readjudicate = Callable[[dict[str, Any], dict[str, str]], Sequence[Draft]]


@dataclass
class Report:
    events: int = 0
    snapshots: int = 0
    adjudications: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def verify_game(
    game: Game, store: EventStore, readjudicate: Readjudicate, progress: Callable[[int], object] | None = None
) -> Report:
    """``readjudicate(state_before, orders_text) -> drafts``: the adjudication of a closed turn,
    re-run to compare with the events the log recorded for it."""
    game = Game.objects.get(pk=game.pk)  # the head as committed, not a stale instance
    report = Report()
    snapshots = dict(Snapshot.objects.filter(game=game).values_list("seq", "state"))
    events = list(Event.objects.filter(game=game).order_by("seq"))
    _check_chain(game, events, report)
    commitments: dict[int, str] = {}
    state_before: dict[str, Any] = store.fold.empty()
    for ev, state in store.replay(game.pk):
        report.events += 1
        if ev.type == "turn.opened":
            commitments[ev.payload["turn"]] = ev.payload["commitment"]
        elif ev.type == "game.created":
            commitments[0] = ev.payload["setup_commitment"]
        elif ev.type in ("turn.published", "seed.revealed"):
            turn = ev.payload["turn"]
            if dice.commitment(ev.payload["seed"]) != commitments.get(turn):
                report.problems.append(f"seq {ev.seq}: seed revealed for turn {turn} does not match its commitment")
        elif ev.type == "turn.adjudicated":
            report.adjudications += 1
            _check_adjudication(readjudicate(state_before, ev.payload["orders"]), ev, events, report)
        if ev.seq in snapshots:
            report.snapshots += 1
            if snapshots[ev.seq] != store.fold.snapshot(state):
                report.problems.append(f"snapshot at seq {ev.seq} differs from the replayed state")
        state_before = state
        if progress:
            progress(1)
    return report


def _check_chain(game: Game, events: list[Event], report: Report) -> None:
    prev = ""
    for expected_seq, ev in enumerate(events, start=1):
        if ev.seq != expected_seq:
            report.problems.append(f"sequence gap: expected seq {expected_seq}, found {ev.seq}")
            return
        if ev.prev_hash != prev:
            report.problems.append(f"seq {ev.seq}: prev_hash does not link to seq {ev.seq - 1}")
        digest = event_hash(
            prev, game.uid, ev.seq, ev.turn, ev.type, ev.version, ev.payload, ev.audience, ev.created_at
        )
        if digest != ev.hash:
            report.problems.append(f"seq {ev.seq}: hash mismatch (the event was changed)")
        prev = ev.hash


def _check_adjudication(drafts: Sequence[Draft], ev: Event, events: list[Event], report: Report) -> None:
    """Compare the adjudication re-run at ``ev`` with what the log recorded."""
    recorded = events[ev.seq - 1 : ev.seq + ev.payload["count"]]
    want = [(d.event.type, canonical_json(dict(d.event.payload)), d.event.audience) for d in drafts]
    got = [(e.type, canonical_json(e.payload), e.audience) for e in recorded]
    if want != got:
        report.problems.append(f"seq {ev.seq}: re-adjudication of turn {ev.payload['turn']} gives different events")
