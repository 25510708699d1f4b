"""The one way to read and write a game's log.

Append takes the sequence number (and hash) of the last event the writer saw.
The log is its own stream head: an append inserts only after that very event,
and the unique (game, seq) index turns a concurrent writer into a
``ConcurrencyConflict``, after which it retries from fresh state. Commands
that must decide on current state also lock the game row (``load(lock=True)``).
Every event carries the hash of its predecessor, over canonical JSON.
"""
from __future__ import annotations

import hashlib
import json
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import datetime
from typing import Iterable, Sequence

import psycopg
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from rules.core.canonical import canonical_json
from rules.core.protocol import RuleEvent

from . import lifecycle, prepared
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


def head(game_id: int) -> tuple[int, str]:
    """The stream head: (seq, hash) of the game's last event, (0, "") if none."""
    last = Event.objects.filter(game_id=game_id).order_by("-seq").values_list("seq", "hash").first()
    return (last[0], last[1]) if last else (0, "")


def load(game: Game | int, *, lock: bool = False) -> Stream:
    """Current state: the latest snapshot plus the events after it.

    With ``lock`` the game row is locked first (inside the caller's
    transaction), so the returned state stays current until commit. Without
    it the result is still a consistent prefix of the log: an event can only
    commit after its predecessor has (see ``_write``).
    """
    game_id = game if isinstance(game, int) else game.pk
    if lock or isinstance(game, int):
        game = _game(game_id, lock)
    # Prepared statements: every command loads, and the ORM's compile and the
    # server's planning cost more than these queries (see campaigns.prepared).
    snap = prepared.fetchone(_SNAPSHOT_SQL, [game_id])
    state, seq, head_hash = (json.loads(snap[1]), snap[0], None) if snap else (lifecycle.empty_state(), 0, "")
    # From the snapshot's own event on: its hash is the head if nothing follows.
    for ev in _events_from(game_id, seq):
        if ev.seq > seq:
            state = fold_event(state, ev)
            seq = ev.seq
        head_hash = ev.hash
    if head_hash is None:
        raise ValueError(f"game {game_id}: snapshot at seq {seq} has no event (was the log imported partly?)")
    return Stream(game=game, seq=seq, head_hash=head_hash, state=state)


_SNAPSHOT_SQL = "SELECT seq, state FROM campaigns_snapshot WHERE game_id = %s ORDER BY seq DESC LIMIT 1"


def _game(game_id: int, lock: bool) -> Game:
    sql = f"SELECT {prepared.columns(Game, 'g')} FROM campaigns_game g WHERE g.id = %s" + (prepared.for_update() if lock else "")
    row = prepared.fetchone(sql, [game_id])
    if row is None:
        raise Game.DoesNotExist(f"game {game_id} does not exist")
    return prepared.instance(Game, row)


def _events_from(game_id: int, seq: int) -> list[Event]:
    sql = f"SELECT {prepared.columns(Event, 'e')} FROM campaigns_event e WHERE e.game_id = %s AND e.seq >= %s ORDER BY e.seq"
    return [prepared.instance(Event, row) for row in prepared.fetchall(sql, [game_id, seq])]


def snapshot_due(event_type: str, state: dict) -> bool:
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
    status = state["turn"]["status"]
    if status == "adjudicated":
        return bool(state["settings"].get("require_approval"))
    return status != ""


def state_at(game_id: int, seq: int) -> dict:
    """The state right after event ``seq``: the latest snapshot at or before it plus the events up to it
    (a past turn as it stood, for history pages)."""
    snap = Snapshot.objects.filter(game_id=game_id, seq__lte=seq).order_by("-seq").values_list("seq", "state").first()
    state, start = (json.loads(snap[1]), snap[0]) if snap else (lifecycle.empty_state(), 0)
    for ev in Event.objects.filter(game_id=game_id, seq__gt=start, seq__lte=seq).order_by("seq"):
        state = fold_event(state, ev)
    return state


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

    ``projection(state) -> dict`` gives Game columns to keep in step with the
    log; they are written only when the drafts change them.
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
        rows.append(_Row(seq, draft.turn, ev.type, ev.version, payload, payload_json, ev.audience, now, prev, digest))
        state = lifecycle.fold(state, ev.type, payload, seq, now.isoformat())
        if snapshot_due(ev.type, state):
            snaps.append(Snapshot(game_id=game.pk, seq=seq, state=canonical_json(state)))
        prev = digest
    columns = {}
    if projection is not None:
        after = projection(state)
        # The game row holds projection(stream.state): this stream is the only
        # one that can append after stream.seq, so compare with that, not
        # with a possibly older copy of the row.
        before = projection(stream.state)
        columns = {k: v for k, v in after.items() if before.get(k) != v}
    # One statement needs no transaction of its own; anything more does. Inside
    # a caller's transaction the savepoint keeps a lost race from aborting it.
    single = connection.vendor == "postgresql" and not snaps and not columns and not connection.in_atomic_block
    try:
        with nullcontext() if single else transaction.atomic():
            if not _write(game.pk, stream.seq, stream.head_hash, rows):
                raise IntegrityError("the predecessor event is not the one this writer saw")
            if columns:
                Game.objects.filter(pk=game.pk).update(**columns)
            if snaps:
                Snapshot.objects.bulk_create(snaps, ignore_conflicts=True)
    except IntegrityError:
        raise ConcurrencyConflict(game.pk, stream.seq, head(game.pk)[0]) from None
    for key, value in columns.items():
        setattr(game, key, value)
    return Stream(game=game, seq=seq, head_hash=prev, state=state)


@dataclass(frozen=True)
class _Row:
    seq: int
    turn: int
    type: str
    version: int
    payload: object
    payload_json: str
    audience: str
    created_at: datetime
    prev_hash: str
    hash: str


_COLUMNS = "game_id, seq, turn, type, version, payload, audience, created_at, prev_hash, hash"


def _write(game_id: int, expected: int, expected_hash: str, rows: list[_Row]) -> bool:
    """Insert ``rows`` after event ``expected``; False if that event is not the head we saw.

    The log is its own stream head, so an append is a single INSERT, as cheap
    as a bare one. Two guards make it safe without a lock: the insert happens
    only if event ``expected`` exists with the hash this writer chained to (no
    gap, no fork), and the unique (game, seq) index makes a concurrent writer
    wait for the first and then fail (IntegrityError: a conflict), so a seq is
    never written twice. An event can therefore only commit after its
    predecessor has.
    """
    values = ", ".join(["(%s, %s, %s, %s, %s, %s::jsonb, %s, %s, %s, %s)"] * len(rows))
    guard = "%s = 0 OR EXISTS (SELECT 1 FROM campaigns_event WHERE game_id = %s AND seq = %s AND hash = %s)"
    sql = f"INSERT INTO campaigns_event ({_COLUMNS}) SELECT v.* FROM (VALUES {values}) AS v WHERE {guard}"
    params = []
    for r in rows:
        params += [game_id, r.seq, r.turn, r.type, r.version, r.payload_json, r.audience, r.created_at, r.prev_hash, r.hash]
    params += [expected, game_id, expected, expected_hash]
    if connection.vendor != "postgresql":
        adapt = connection.ops.adapt_datetimefield_value
        params = [adapt(p) if isinstance(p, datetime) else p for p in params]
        with connection.cursor() as cur:
            cur.execute(sql.replace("::jsonb", ""), params)
            return cur.rowcount == len(rows)
    # Django binds parameters client-side, so the server would parse and plan
    # this hot statement on every append. A plain psycopg cursor on the same
    # connection (same transaction) binds on the server, and psycopg keeps it
    # prepared (settings: DATABASE_PREPARE_THRESHOLD).
    connection.ensure_connection()
    with connection.wrap_database_errors, psycopg.Cursor(connection.connection) as cur:
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
    with transaction.atomic():
        Snapshot.objects.filter(game_id=game_id).delete()
        made = []
        for ev, state in replay(game_id):
            if snapshot_due(ev.type, state):
                made.append(Snapshot(game_id=game_id, seq=ev.seq, state=canonical_json(state)))
            if progress:
                progress(1)
        Snapshot.objects.bulk_create(made, batch_size=500)
    return len(made)
