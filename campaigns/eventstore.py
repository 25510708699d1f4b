"""The one way to read and write a game's log.

Append takes the sequence number the writer last saw; the game row is the
stream head and is locked (``SELECT ... FOR UPDATE``) for the append, so two
writers can never interleave: the loser gets ``ConcurrencyConflict`` and
retries from fresh state. The unique (game, seq) constraint is the backstop.
Every event carries the hash of its predecessor, over canonical JSON.
"""
from __future__ import annotations

import hashlib
import json
from contextlib import nullcontext
from enum import Enum
from dataclasses import dataclass
from datetime import datetime
from typing import Iterable, Sequence

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from rules.core.canonical import canonical_json
from rules.core.protocol import RuleEvent

from . import lifecycle
from .models import Event, Game, Snapshot


class ConcurrencyConflict(Exception):
    def __init__(self, game_id: int, expected: int, actual: int):
        super().__init__(f"game {game_id}: expected to append after seq {expected}, but the log is at {actual}")
        self.expected, self.actual = expected, actual


@dataclass(frozen=True)
class Draft:
    """An event to append: the turn it belongs to and the rule-level event."""

    turn: int
    event: RuleEvent


@dataclass
class Stream:
    """A game's folded state as of ``seq``."""

    game: Game
    seq: int
    head_hash: str
    state: dict


def event_hash(prev_hash: str, game_uid, seq: int, turn: int, type_: str, version: int,
               payload, audience: str, created_at: datetime, *, payload_json: str | None = None) -> str:
    """sha256(prev_hash + canonical JSON of the event), the event's fields as keys.

    The body is written out key by key in sorted order so that an append can
    pass the payload it has already serialized; it equals
    ``canonical_json({"at": …, "audience": …, "game": …, "payload": …, "seq": …,
    "turn": …, "type": …, "version": …})`` byte for byte.
    """
    c = canonical_json
    pj = payload_json if payload_json is not None else c(payload)
    body = (f'{{"at":{c(created_at.isoformat())},"audience":{c(audience)},"game":{c(str(game_uid))},'
            f'"payload":{pj},"seq":{c(seq)},"turn":{c(turn)},"type":{c(type_)},"version":{c(version)}}}')
    return hashlib.sha256((prev_hash + body).encode()).hexdigest()


def fold_event(state: dict, ev: Event) -> dict:
    return lifecycle.fold(state, ev.type, ev.payload, ev.seq, ev.created_at.isoformat())


def load(game: Game | int, *, lock: bool = False) -> Stream:
    """Current state: the latest snapshot plus the events after it.

    With ``lock`` the game row is locked first (inside the caller's
    transaction), so the returned state stays current until commit.
    """
    game_id = game if isinstance(game, int) else game.pk
    if lock:
        game = Game.objects.select_for_update().get(pk=game_id)
    elif isinstance(game, int):
        game = Game.objects.get(pk=game_id)
    snap = Snapshot.objects.filter(game_id=game_id, seq__lte=game.head_seq).order_by("-seq").first()
    state, seq = (json.loads(snap.state), snap.seq) if snap else (lifecycle.empty_state(), 0)
    for ev in Event.objects.filter(game_id=game_id, seq__gt=seq, seq__lte=game.head_seq).order_by("seq"):
        state = fold_event(state, ev)
        seq = ev.seq
    return Stream(game=game, seq=seq, head_hash=game.head_hash, state=state)


def replay(game_id: int, upto: int | None = None) -> Iterable[tuple[Event, dict]]:
    """Fold the whole log from the start, yielding each event with the state after it."""
    state = lifecycle.empty_state()
    qs = Event.objects.filter(game_id=game_id).order_by("seq")
    if upto is not None:
        qs = qs.filter(seq__lte=upto)
    for ev in qs.iterator(chunk_size=2000):
        state = fold_event(state, ev)
        yield ev, state


def append(stream: Stream, drafts: Sequence[Draft], projection=None) -> Stream:
    """Append ``drafts`` after ``stream.seq`` in one transaction; return the new stream.

    ``projection(state) -> dict`` gives Game columns to keep in step with the log.
    """
    if not drafts:
        return stream
    game = stream.game
    now = timezone.now()
    state, seq, prev = stream.state, stream.seq, stream.head_hash
    rows, snaps = [], []
    for draft in drafts:
        seq += 1
        ev = draft.event
        payload_json = canonical_json(dict(ev.payload))
        payload = json.loads(payload_json)  # plain JSON, no tuples
        digest = event_hash(prev, game.uid, seq, draft.turn, ev.type, ev.version, payload, ev.audience, now,
                            payload_json=payload_json)
        row = Event(game_id=game.pk, seq=seq, turn=draft.turn, type=ev.type, version=ev.version,
                    payload=payload, audience=ev.audience, created_at=now, prev_hash=prev, hash=digest)
        row.payload_json = payload_json  # reused by the PostgreSQL insert
        rows.append(row)
        state = fold_event(state, row)
        if seq % settings.SNAPSHOT_EVERY == 0:
            snaps.append(Snapshot(game_id=game.pk, seq=seq, state=canonical_json(state)))
        prev = digest
    columns = {"head_seq": seq, "head_hash": prev}
    if projection is not None:
        columns.update(projection(state))
    # One statement needs no transaction of its own; anything more does.
    single = connection.vendor == "postgresql" and not snaps
    with nullcontext() if single else transaction.atomic():
        if not _write(game.pk, stream.seq, columns, rows):
            actual = Game.objects.filter(pk=game.pk).values_list("head_seq", flat=True).first()
            raise ConcurrencyConflict(game.pk, stream.seq, actual)
        if snaps:
            Snapshot.objects.bulk_create(snaps, ignore_conflicts=True)
    for key, value in columns.items():
        setattr(game, key, value)
    return Stream(game=game, seq=seq, head_hash=prev, state=state)


def _write(game_id: int, expected: int, columns: dict, rows: list[Event]) -> bool:
    """Move the head from ``expected`` and insert ``rows``; False if the head had moved.

    The conditional update is the optimistic check and the lock at once: a
    concurrent writer blocks on the game row, then finds head_seq moved on and
    updates nothing. On PostgreSQL both go in one statement (a data-modifying
    CTE), so an append costs one round trip, as a bare INSERT does.
    """
    if connection.vendor != "postgresql":
        if not Game.objects.filter(pk=game_id, head_seq=expected).update(**columns):
            return False
        Event.objects.bulk_create(rows)
        return True
    sets = ", ".join(f"{name} = %s" for name in columns)
    values = ", ".join(["(%s, %s, %s, %s, %s::jsonb, %s, %s, %s, %s)"] * len(rows))
    sql = (f"WITH head AS (UPDATE campaigns_game SET {sets} WHERE id = %s AND head_seq = %s RETURNING id) "
           "INSERT INTO campaigns_event (game_id, seq, turn, type, version, payload, audience, created_at, prev_hash, hash) "
           f"SELECT head.id, v.* FROM head, (VALUES {values}) AS v")
    params = [v.value if isinstance(v, Enum) else v for v in columns.values()] + [game_id, expected]
    for r in rows:
        params += [r.seq, r.turn, r.type, r.version, r.payload_json, r.audience, r.created_at, r.prev_hash, r.hash]
    with connection.cursor() as cur:
        cur.execute(sql, params)
        return cur.rowcount == len(rows)


def append_retrying(game_id: int, build, attempts: int = 20, projection=None) -> Stream:
    """Load, build drafts from fresh state, append; on a conflict start again.

    ``build(stream) -> list[Draft]`` must be a pure function of the state.
    """
    for _ in range(attempts):
        stream = load(game_id)
        try:
            return append(stream, build(stream), projection=projection)
        except ConcurrencyConflict:
            continue
    raise ConcurrencyConflict(game_id, -1, -1)


def rebuild_snapshots(game_id: int, progress=None) -> int:
    """Drop a game's snapshots and write them again from the events."""
    every = settings.SNAPSHOT_EVERY
    with transaction.atomic():
        Snapshot.objects.filter(game_id=game_id).delete()
        made = []
        for ev, state in replay(game_id):
            if ev.seq % every == 0:
                made.append(Snapshot(game_id=game_id, seq=ev.seq, state=canonical_json(state)))
            if progress:
                progress(1)
        Snapshot.objects.bulk_create(made, batch_size=500)
    return len(made)
