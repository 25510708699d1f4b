"""The one way to read and write a game's log.

Append takes the sequence number (and hash) of the last event the writer saw.
The log is its own stream head: an append inserts only after that very event,
and the unique (game, seq) index turns a concurrent writer into a
``ConcurrencyConflict``, after which it retries from fresh state. Commands
that must decide on current state also lock the game row (``load(lock=True)``).
Every event carries the hash of its predecessor, over canonical JSON.

The store knows nothing of what the events mean: an ``EventStore`` is built
with the ``Fold`` (empty state, one event folded in, which states are kept as
snapshots) and the projection (Game columns kept in step with the log) by the
layer above (campaigns.turns.gamelog), and writes through the recorder of the
database it runs on (recorders.py).
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from json.encoder import encode_basestring
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from campaigns import prepared
from campaigns.models import Event, Game, Snapshot
from rules.core.canonical import canonical_json
from rules.core.protocol import RuleEvent

from . import recorders


class ConcurrencyConflict(Exception):
    def __init__(self, game_id: int, expected: int, actual: int):
        super().__init__(f"game {game_id}: expected to append after seq {expected}, but the log is at {actual}")
        self.expected, self.actual = expected, actual


# A game's state as the layer above folds it (campaigns.turns.state.LifecycleState): the log
# stores it through the Fold's to_json/from_json and never looks inside.
State = Any


@dataclass(frozen=True)
class Draft:
    """An event to append: the turn it belongs to and the rule-level event."""

    turn: int
    event: RuleEvent


@dataclass
class Stream:
    """A game's folded state as of ``seq`` (whatever the ``Fold`` makes: the layer above types it)."""

    game: Game
    seq: int
    head_hash: str
    state: State
    # The canonical JSON of the top-level values of the state's JSON as a snapshot last held
    # them ({key: (value, its text)}: ``Fold.thaw_spans``), for the next snapshot to reuse.
    texts: Mapping[str, tuple[Any, str]] | None = None
    # The spans of the snapshot this stream was loaded from, each value read from its text (a
    # thaw's, or ``_Thawed``'s): what ``Fold.rethaw`` may take as read without reading it again.
    thawed: Mapping[str, tuple[Any, str]] | None = None


@dataclass(frozen=True)
class Fold:
    """How a game's state is made from its events, given by the layer that knows what they mean.

    ``apply(state, type, payload, seq, at_iso) -> state``; ``snapshot_due(type, state_after)``:
    whether the state after an event is kept as a snapshot; ``to_json(state)`` / ``from_json(value)``:
    the state as the JSON value a snapshot holds (canonical JSON of it) and back.
    """

    empty: Callable[[], State]
    apply: Callable[[State, str, Mapping[str, Any], int, str], State]
    snapshot_due: Callable[[str, State], bool]
    to_json: Callable[[State], Any]
    from_json: Callable[[Any], State]

    def event(self, state: State, ev: Event) -> State:
        return self.apply(state, ev.type, ev.payload, ev.seq, ev.created_at.isoformat())

    def snapshot(self, state: Any, texts: Mapping[str, tuple[Any, str]] | None = None) -> str:
        """The state as a snapshot's text: canonical JSON."""
        return self.snapshot_spans(state, texts)[0]

    def snapshot_spans(
        self, state: Any, texts: Mapping[str, tuple[Any, str]] | None = None
    ) -> tuple[str, dict[str, tuple[Any, str]] | None]:
        """``snapshot``, and the text of each top-level value of the state's JSON (see ``thaw_spans``).

        ``texts``: {key: (value, its canonical JSON)} of an earlier state (the snapshot it was
        thawed from, or the last one written from it). A value that is that very object again
        is not encoded again: a fold never changes its input (a command's events leave most of
        a game's state, the rule set's board and units, the same objects), so its text is
        still its canonical JSON. Byte for byte what ``canonical_json`` gives for the whole."""
        value = self.to_json(state)
        if type(value) is not dict or not all(type(k) is str for k in value):
            return canonical_json(value), None
        texts = texts or {}
        spans = {}
        for key, item in value.items():
            known = texts.get(key)
            spans[key] = (item, known[1] if known is not None and known[0] is item else canonical_json(item))
        # As json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False) writes an object.
        body = ",".join(f"{encode_basestring(k)}:{spans[k][1]}" for k in sorted(spans))
        return "{" + body + "}", spans

    def thaw(self, text: str) -> Any:
        """The state a snapshot's text holds."""
        return self.from_json(json.loads(text))

    def thaw_spans(self, text: str) -> tuple[Any, dict[str, tuple[Any, str]] | None]:
        """``thaw``, and {key: (value, its text)} for each top-level value of the snapshot's JSON
        object, for ``snapshot_spans`` to reuse: the text of a value in canonical JSON (every
        snapshot's, written by ``snapshot``) is that value's canonical JSON. None (and a plain
        ``json.loads``) for a text that is not laid out as canonical JSON at the top level."""
        spans = _top_level_spans(text)
        if spans is None:
            return self.thaw(text), None
        return self.from_json({k: v for k, (v, _) in spans.items()}), spans

    def rethaw(
        self, spans: Mapping[str, tuple[Any, str]], thawed: Mapping[str, tuple[Any, str]] | None
    ) -> tuple[Any, dict[str, tuple[Any, str]]]:
        """What ``thaw_spans`` gives for the snapshot ``snapshot_spans`` wrote with ``spans``, reading
        only the values written anew: a text taken over from ``thawed`` (spans whose values were
        read from their texts) keeps the value read then; any other is read from its text here, not
        taken from the state it was written from, because what a fold made may differ from what
        its JSON reads back (a dict's key order, a tuple for a list) and a thawed state must be
        the same as a thaw's, object for object."""
        thawed = thawed or {}
        out: dict[str, tuple[Any, str]] = {}
        for key in sorted(spans):
            text = spans[key][1]
            known = thawed.get(key)
            out[key] = known if known is not None and known[1] is text else (json.loads(text), text)
        return self.from_json({k: v for k, (v, _) in out.items()}), out


# The decoder's own scanner (an instance attribute set in JSONDecoder.__init__, so the stubs don't
# declare it): (value, index after it) for the JSON text starting at an index.
_scan: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]


def _top_level_spans(text: str) -> dict[str, tuple[Any, str]] | None:
    """A JSON object's top-level values, each with its own slice of ``text``, read by the same
    scanner as ``json.loads``; None unless the object is written as canonical JSON writes one
    (no whitespace, keys sorted and unique)."""
    if len(text) < 2 or text[0] != "{" or text[-1] != "}":
        return None
    out: dict[str, tuple[Any, str]] = {}
    i, end, last = 1, len(text) - 1, None
    if i == end:
        return out
    try:
        while True:
            if text[i] != '"':
                return None
            key, i = _scan(text, i)
            if text[i] != ":" or (last is not None and key <= last):
                return None
            value, j = _scan(text, i + 1)
            out[key], last = (value, text[i + 1 : j]), key
            if j == end:
                return out
            if text[j] != ",":
                return None
            i = j + 1
    except (StopIteration, IndexError, ValueError):
        return None


def event_hash(
    prev_hash: str,
    game_uid: object,
    seq: int,
    turn: int,
    type_: str,
    version: int,
    payload: object,
    audience: str,
    created_at: datetime,
    *,
    payload_json: str | None = None,
) -> str:
    """sha256(prev_hash + canonical JSON of the event), the event's fields as keys.

    The body is written out key by key in sorted order so that an append can
    pass the payload it has already serialized; it equals
    ``canonical_json({"at": …, "audience": …, "game": …, "payload": …, "seq": …,
    "turn": …, "type": …, "version": …})`` byte for byte.
    """
    c = _scalar_json
    pj = payload_json if payload_json is not None else canonical_json(payload)
    body = (
        f'{{"at":{c(created_at.isoformat())},"audience":{c(audience)},"game":{c(str(game_uid))},'
        f'"payload":{pj},"seq":{c(seq)},"turn":{c(turn)},"type":{c(type_)},"version":{c(version)}}}'
    )
    return hashlib.sha256((prev_hash + body).encode()).hexdigest()


def _scalar_json(value: object) -> str:
    """``canonical_json`` of one of an event's fields, without building a JSON encoder for a
    string or an integer (seven a hash): what ``json.dumps`` itself returns for them."""
    if type(value) is str:
        return encode_basestring(value)  # json.dumps(value, ensure_ascii=False)
    if type(value) is int:
        return int.__repr__(value)
    return canonical_json(value)


def head(game_id: int) -> tuple[int, str]:
    """The stream head: (seq, hash) of the game's last event, (0, "") if none."""
    last = Event.objects.filter(game_id=game_id).order_by("-seq").values_list("seq", "hash").first()
    return (last[0], last[1]) if last else (0, "")


_SNAPSHOT_SQL = "SELECT seq, state FROM campaigns_snapshot WHERE game_id = %s ORDER BY seq DESC LIMIT 1"


@dataclass(frozen=True)
class _Thawed:
    """A game's state as its snapshot at ``seq`` thaws, kept by the connection that wrote that
    snapshot, so that its next load need not read and thaw the snapshot again (mail-in's
    batches: a message on a game whose snapshot an earlier batch of this process wrote).

    Keyed by the log itself: it stands for the snapshot at ``seq`` only while the event at
    ``seq`` has the hash ``hash``, which chains every event before it, and a load checks that
    in its statement (``_game_load_sql``). So another process's append (a later snapshot),
    or a transaction that was rolled back (its event never committed; another one at that seq
    has another hash: its time at least) finds it out of date, and the snapshot is read.
    The state is shared with every load that takes it: states are never changed in place
    (a fold makes new ones; ``Fold.snapshot_spans`` relies on it too), and with
    ``EVENTSTORE_CHECK_THAWED`` (the tests) each use checks it still writes ``text``."""

    seq: int
    hash: str
    state: Any
    spans: dict[str, tuple[Any, str]]
    text: str


# Games per connection whose thawed state is kept, and the most snapshot text (characters) they
# may stand for: a state's objects take a few times its text, and a connection is a worker
# thread's. The least recently kept go first.
THAWED_MAX = 256
THAWED_CHARS = 16_000_000


class _Kept(OrderedDict[int, _Thawed]):
    """A connection's kept states, by game, bounded by THAWED_MAX and THAWED_CHARS."""

    chars = 0  # the length of their texts

    def keep(self, game_id: int, thawed: _Thawed) -> None:
        old = self.pop(game_id, None)
        self[game_id] = thawed
        self.chars += len(thawed.text) - (len(old.text) if old is not None else 0)
        while self and (len(self) > THAWED_MAX or self.chars > THAWED_CHARS):
            self.chars -= len(self.popitem(last=False)[1].text)

    def clear(self) -> None:
        super().clear()
        self.chars = 0


def _thawed_states() -> _Kept:
    conn = transaction.get_connection()
    kept = getattr(conn, "_kb_thawed", None)
    if kept is None:
        kept = conn._kb_thawed = _Kept()
    return kept


def _game(game_id: int, lock: bool) -> Game:
    sql = f"SELECT {prepared.columns(Game, 'g')} FROM campaigns_game g WHERE g.id = %s" + (
        prepared.for_update() if lock else ""
    )
    row = prepared.fetchone(sql, [game_id])
    if row is None:
        raise Game.DoesNotExist(f"game {game_id} does not exist")
    return prepared.instance(Game, row)


def _snapshot_and_events(game_id: int) -> tuple[tuple[int, str] | None, list[Event]]:
    """The latest snapshot (seq, state) or None, and the events from its seq on (from the
    first without one), in one statement: a load is one round trip after the game row."""
    snap, events = None, []
    for row in prepared.fetchall(_load_sql(), [game_id, game_id]):
        if row[0] is not None and snap is None:
            snap = (row[0], row[1])
        if row[2] is not None:
            events.append(prepared.instance(Event, row[2:]))
    return snap, events


@lru_cache(maxsize=1)
def _load_sql() -> str:
    # The snapshot's state on the first row only (it can be large); the events in seq order.
    return (
        f"WITH s AS ({_SNAPSHOT_SQL}) SELECT s.seq, CASE WHEN row_number() OVER (ORDER BY e.seq) = 1"
        f" THEN s.state END, {prepared.columns(Event, 'e')} FROM (SELECT 1) AS one LEFT JOIN s ON true"
        f" LEFT JOIN campaigns_event e ON e.game_id = %s AND {_FROM_SNAPSHOT_SEQ} ORDER BY e.seq"
    )


# The events from the snapshot's on (all of them when the game has no snapshot), found by the
# (game, seq) index from there in every plan (issue 34: the generic plan of a prepared load read
# the game's whole log, every private event of the other side with it, or the whole table):
# - the snapshot's seq is a scalar subquery, run first (an InitPlan), so it can bound the index
#   scan; as a join condition on ``s.seq`` a plan could read every event and filter;
# - the upper end (the largest bigint: no bound at all) makes the condition a range, which the
#   planner, not knowing the lower end, takes for 0.5% of a game's rows, not a third (PostgreSQL's
#   defaults for a range and for one inequality): with a third, a generic plan chose a seq scan.
_NO_BOUND = 2**63 - 1
_FROM_SNAPSHOT_SEQ = f"e.seq BETWEEN coalesce((SELECT seq FROM s), 0) AND {_NO_BOUND}"


def _game_snapshot_and_events(
    game_id: int, known: _Thawed | None = None
) -> tuple[Game, tuple[int, str | None] | None, list[Event]]:
    """``_game`` and ``_snapshot_and_events`` in one statement, for a game this transaction has
    locked already (``holding_locks``): the game row on every row, the rest as there. The
    snapshot's state is None when it is ``known``'s: its seq, and the hash of its event."""
    seq, digest = (known.seq, known.hash) if known is not None else (-1, "")
    rows = prepared.fetchall(_game_load_sql(), [game_id, seq, digest, game_id])
    if not rows:
        raise Game.DoesNotExist(f"game {game_id} does not exist")
    return _game_load(rows)


_Loaded = tuple[Game, tuple[int, str | None] | None, list[Event]]


def _game_load(rows: list[tuple[Any, ...]]) -> _Loaded:
    """A game's rows of ``_game_load_sql`` or ``_preload_sql`` read: (game, snapshot, events)."""
    snap, events, width = None, [], prepared.width(Game)
    for row in rows:
        if row[width] is not None and snap is None:
            snap = (row[width], row[width + 1])
        if row[width + 2] is not None:
            events.append(prepared.instance(Event, row[width + 2 :]))
    return prepared.instance(Game, rows[0][:width]), snap, events


def _load_columns(window: str, seq: str, digest: str) -> str:
    """What both loads read per row: the game, its latest snapshot's seq, that snapshot's state on
    its first event's row unless the caller holds that state (seq and hash match), and the events."""
    return (
        f"{prepared.columns(Game, 'g')}, s.seq, CASE WHEN row_number() OVER ({window}ORDER BY e.seq) = 1"
        f" AND (s.seq = {seq} AND e.hash = {digest}) IS NOT TRUE THEN s.state END, {prepared.columns(Event, 'e')}"
    )


@lru_cache(maxsize=1)
def _game_load_sql() -> str:
    return (
        f"WITH s AS ({_SNAPSHOT_SQL}) SELECT {_load_columns('', '%s', '%s')}"
        " FROM campaigns_game g LEFT JOIN s ON true"
        f" LEFT JOIN campaigns_event e ON e.game_id = g.id AND {_FROM_SNAPSHOT_SEQ} WHERE g.id = %s ORDER BY e.seq"
    )


@lru_cache(maxsize=1)
def _preload_sql() -> str:
    """``_game_load_sql`` for many games at once (PostgreSQL): the rows of each game together."""
    return (
        f"SELECT {_load_columns('PARTITION BY g.id ', 'k.seq', 'k.hash')}"
        " FROM unnest(%s::bigint[], %s::bigint[], %s::text[]) AS k(id, seq, hash)"
        " JOIN campaigns_game g ON g.id = k.id"
        " LEFT JOIN LATERAL (SELECT seq, state FROM campaigns_snapshot WHERE game_id = g.id ORDER BY seq DESC LIMIT 1)"
        " s ON true LEFT JOIN LATERAL (SELECT * FROM campaigns_event WHERE game_id = g.id"
        f" AND seq BETWEEN coalesce(s.seq, 0) AND {_NO_BOUND} OFFSET 0) e ON true"  # planned apart: s.seq bounds its scan
        " ORDER BY g.id, e.seq"
    )


def _preload(ids: list[int]) -> dict[int, tuple[_Loaded, _Thawed | None]]:
    """What a locked load of each of ``ids`` would read now, in one statement: {game id: (its
    read, the kept state it was read with)}."""
    kept = _thawed_states()
    known = [kept.get(game_id) for game_id in ids]
    rows = prepared.fetchall(
        _preload_sql(),
        [ids, [k.seq if k else -1 for k in known], [k.hash if k else "" for k in known]],
    )
    by_game: dict[int, list[tuple[Any, ...]]] = {}
    for row in rows:
        by_game.setdefault(row[0], []).append(row)  # row[0]: the game's id, its first column
    return {
        game_id: (_game_load(by_game[game_id]), k) for game_id, k in zip(ids, known, strict=True) if game_id in by_game
    }


@contextmanager
def holding_locks(game_ids: Iterable[int], *, preload: bool = False) -> Iterator[None]:
    """Lock the rows of ``game_ids`` now, in id order, for the rest of the caller's transaction;
    inside the block a ``load(lock=True)`` of one of them reads it without locking it again, in
    one statement instead of two (mail-in's batches: a round trip less per message).

    ``preload`` (on PostgreSQL): those loads read now, all in one statement, and each game's
    read taken by its first locked load in the block, unless the game was appended to before
    (``append`` drops it): a round trip less per game. Read under the locks, so nothing but
    this transaction's own appends can change what it read: every other writer of a game row
    or log locks the row first (commands, ``rebuild_snapshots``), and within the batch a
    message writes to its own game only.

    The locks are taken at the level of the enclosing atomic block: a savepoint opened inside
    this block and rolled back (mail's per message) does not let them go, as it would locks
    taken after it (which is why a load inside it takes its own)."""
    conn = transaction.get_connection()
    if not conn.in_atomic_block:
        raise RuntimeError("holding_locks: only inside a transaction (the locks last until it ends)")
    ids = sorted(set(game_ids))
    if ids:
        prepared.fetchall(
            f"SELECT id FROM campaigns_game WHERE id IN ({', '.join(['%s'] * len(ids))}) ORDER BY id"
            + prepared.for_update(),
            ids,
        )
    conn._kb_games_locked = frozenset(ids)
    conn._kb_games_preloaded = _preload(ids) if preload and ids and conn.vendor == "postgresql" else {}
    try:
        yield
    finally:
        conn._kb_games_locked = frozenset()
        conn._kb_games_preloaded = {}


def _preloaded(game_id: int) -> tuple[_Loaded, _Thawed | None] | None:
    """The game's preloaded read (``holding_locks``), taken: a later load reads for itself."""
    preloaded: dict[int, tuple[_Loaded, _Thawed | None]] = getattr(
        transaction.get_connection(), "_kb_games_preloaded", {}
    )
    return preloaded.pop(game_id, None)


def _held(game_id: int) -> bool:
    return game_id in getattr(transaction.get_connection(), "_kb_games_locked", ())


Projection = Callable[[State], dict[str, Any]]  # state -> the Game columns it determines
# An append's drafts from fresh state; a pure function of the state (append_retrying).
Build = Callable[["Stream"], Sequence[Draft]]


class EventStore:
    """Games' logs folded with ``fold``; ``projection(state) -> dict`` gives Game columns to keep in
    step with the log (written only when an append changes them)."""

    def __init__(self, fold: Fold, projection: Projection | None = None):
        self.fold, self.projection = fold, projection

    def load(self, game: Game | int, *, lock: bool = False) -> Stream:
        """Current state: the latest snapshot plus the events after it.

        With ``lock`` the game row is locked first (inside the caller's
        transaction), so the returned state stays current until commit. Without
        it the result is still a consistent prefix of the log: an event can only
        commit after its predecessor has (see recorders.py).
        """
        game_id = game if isinstance(game, int) else game.pk
        # Prepared statements: every command loads, and the ORM's compile and the
        # server's planning cost more than these queries (see campaigns.prepared).
        known = None
        if lock and _held(game_id):
            pre = _preloaded(game_id)
            if pre is not None:
                (game, snap, events), known = pre
            else:
                known = _thawed_states().get(game_id)
                game, snap, events = _game_snapshot_and_events(game_id, known)
        else:
            if lock or isinstance(game, int):
                game = _game(game_id, lock)
            snap, events = _snapshot_and_events(game_id)
        state, texts = self._thaw(snap, known)
        seq, head_hash = (snap[0], None) if snap else (0, "")
        # From the snapshot's own event on: its hash is the head if nothing follows.
        for ev in events:
            if ev.seq > seq:
                state = self.fold.event(state, ev)
                seq = ev.seq
            head_hash = ev.hash
        if head_hash is None:
            raise ValueError(f"game {game_id}: snapshot at seq {seq} has no event (was the log imported partly?)")
        return Stream(game=game, seq=seq, head_hash=head_hash, state=state, texts=texts, thawed=texts)

    def _thaw(self, snap: tuple[int, str | None] | None, known: _Thawed | None) -> tuple[Any, Any]:
        """(state, spans) of the snapshot ``snap`` read, or of ``known`` if the load left its text out."""
        if snap is None:
            return self.fold.empty(), None
        if snap[1] is not None:
            return self.fold.thaw_spans(snap[1])
        if known is None or known.seq != snap[0]:  # the statement leaves out only what it was told of
            raise RuntimeError(f"snapshot at seq {snap[0]} read without its state")
        if getattr(settings, "EVENTSTORE_CHECK_THAWED", False):
            self._check_thawed(known)
        return known.state, known.spans

    def _check_thawed(self, known: _Thawed) -> None:
        """The tests' check of a kept state: unchanged since it was kept (it still writes its
        snapshot's text) and what a thaw of that text makes (the same reprs: types, dict order)."""
        if self.fold.snapshot(known.state) != known.text:
            raise AssertionError(f"the kept state of snapshot {known.seq} was changed in place")
        state, spans = self.fold.thaw_spans(known.text)
        if repr(state) != repr(known.state) or repr(spans) != repr(known.spans):
            raise AssertionError(f"the kept state of snapshot {known.seq} is not what its thaw makes")

    def state_at(self, game_id: int, seq: int) -> State:
        """The state right after event ``seq``: the latest snapshot at or before it plus the events up to it
        (a past turn as it stood, for history pages)."""
        snap = (
            Snapshot.objects.filter(game_id=game_id, seq__lte=seq).order_by("-seq").values_list("seq", "state").first()
        )
        state, start = (self.fold.thaw(snap[1]), snap[0]) if snap else (self.fold.empty(), 0)
        for ev in Event.objects.filter(game_id=game_id, seq__gt=start, seq__lte=seq).order_by("seq"):
            state = self.fold.event(state, ev)
        return state

    def replay(self, game_id: int, upto: int | None = None) -> Iterator[tuple[Event, State]]:
        """Fold the whole log from the start, yielding each event with the state after it."""
        state = self.fold.empty()
        qs = Event.objects.filter(game_id=game_id).order_by("seq")
        if upto is not None:
            qs = qs.filter(seq__lte=upto)
        for ev in qs.iterator(chunk_size=2000):
            state = self.fold.event(state, ev)
            yield ev, state

    def append(self, stream: Stream, drafts: Sequence[Draft]) -> Stream:
        """Append ``drafts`` after ``stream.seq`` in one transaction; return the new stream."""
        if not drafts:
            return stream
        game = stream.game
        _preloaded(game.pk)  # what was read of the game before this append is out of date
        now = timezone.now()
        state, seq, prev, texts = stream.state, stream.seq, stream.head_hash, stream.texts
        rows: list[recorders.Row] = []
        snaps: list[Snapshot] = []
        for draft in drafts:
            seq += 1
            ev = draft.event
            payload_json = canonical_json(dict(ev.payload))
            payload = json.loads(payload_json)  # plain JSON, no tuples
            digest = event_hash(
                prev,
                game.uid,
                seq,
                draft.turn,
                ev.type,
                ev.version,
                payload,
                ev.audience,
                now,
                payload_json=payload_json,
            )
            rows.append(
                recorders.Row(
                    seq, draft.turn, ev.type, ev.version, payload, payload_json, ev.audience, now, prev, digest
                )
            )
            state = self.fold.apply(state, ev.type, payload, seq, now.isoformat())
            if self.fold.snapshot_due(ev.type, state):
                text, texts = self.fold.snapshot_spans(state, texts)
                snaps.append(Snapshot(game_id=game.pk, seq=seq, state=text))
            prev = digest
        columns: dict[str, Any] = {}
        if self.projection is not None:
            after = self.projection(state)
            # The game row holds projection(stream.state): this stream is the only
            # one that can append after stream.seq, so compare with that, not
            # with a possibly older copy of the row.
            before = self.projection(stream.state)
            columns = {k: v for k, v in after.items() if before.get(k) != v}
        recorder = recorders.for_connection()
        # One statement needs no transaction of its own; anything more does. Inside a
        # caller's transaction no savepoint (two round trips, on every command's append): a
        # stale writer (its head is not the log's, or a successor has committed) is refused by
        # the recorder's guard without an error, so the caller's transaction goes on; only a
        # writer racing another one still in flight (neither holding the game lock) meets the
        # unique index, and that leaves the caller's transaction marked for rollback, undone
        # whole or by the caller's own savepoint (mail's per message; ``append_retrying``'s).
        # A recorder that writes the snapshots in the events' statement saves a round trip.
        together = [(s.seq, s.state) for s in snaps] if recorder.writes_snapshots else []
        single = (
            recorder.single_statement_atomic
            and not columns
            and not connection.in_atomic_block
            and len(together) == len(snaps)
        )
        try:
            with nullcontext() if single else transaction.atomic(savepoint=False):
                written = recorder.write(game.pk, stream.seq, stream.head_hash, rows, together)
                if written and columns:
                    Game.objects.filter(pk=game.pk).update(**columns)
                if written and snaps and not together:
                    Snapshot.objects.bulk_create(snaps, ignore_conflicts=True)
        except IntegrityError:
            raise ConcurrencyConflict(game.pk, stream.seq, head(game.pk)[0]) from None
        if not written:  # the guard refused it: nothing was written
            raise ConcurrencyConflict(game.pk, stream.seq, head(game.pk)[0])
        for key, value in columns.items():
            setattr(game, key, value)
        thawed = stream.thawed
        if texts is not None and snaps and snaps[-1].seq == seq and _held(game.pk):
            # Kept for the next load of this game in a batch that holds it (``_Thawed``).
            kept, thawed = self.fold.rethaw(texts, thawed)
            _thawed_states().keep(game.pk, _Thawed(seq, prev, kept, thawed, snaps[-1].state))
        return Stream(game=game, seq=seq, head_hash=prev, state=state, texts=texts, thawed=thawed)

    def append_retrying(self, game_id: int, build: Build, attempts: int = 20) -> Stream:
        """Load, build drafts from fresh state, append; on a conflict start again.

        ``build(stream) -> list[Draft]`` must be a pure function of the state.
        """
        for _ in range(attempts):
            try:
                with transaction.atomic() if connection.in_atomic_block else nullcontext():
                    stream = self.load(game_id)
                    return self.append(stream, build(stream))
            except ConcurrencyConflict:
                continue
        raise ConcurrencyConflict(game_id, -1, -1)

    def rebuild_snapshots(self, game_id: int, progress: Callable[[int], object] | None = None) -> int:
        """Drop a game's snapshots and write them again from the events; safe while the game is played.

        The game row is locked against commands (which lock it FOR UPDATE before they append), so
        none appends meanwhile; NO KEY UPDATE, so that lock-free appends (``append_retrying``),
        whose inserts only share the row's key, are not blocked into a deadlock. Such an append
        may write the snapshot of an event this replay also reached: the same state, byte for
        byte, so a conflicting row is skipped, not an error."""
        with transaction.atomic():
            list(Game.objects.select_for_update(no_key=True).filter(pk=game_id).values_list("pk"))
            Snapshot.objects.filter(game_id=game_id).delete()
            made = []
            for ev, state in self.replay(game_id):
                if self.fold.snapshot_due(ev.type, state):
                    made.append(Snapshot(game_id=game_id, seq=ev.seq, state=self.fold.snapshot(state)))
                if progress:
                    progress(1)
            Snapshot.objects.bulk_create(made, batch_size=500, ignore_conflicts=True)
        return len(made)
