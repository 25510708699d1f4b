"""One recorder per database: the single INSERT that appends rows after the event a writer saw.

The log is its own stream head, so an append is a single INSERT, as cheap
as a bare one. Two guards make it safe without a lock: the insert happens
only if event ``expected`` exists with the hash this writer chained to (no
gap, no fork) and no event follows it yet (a stale writer inserts nothing and
gets no error), and the unique (game, seq) index makes a concurrent writer
wait for the first and then fail (IntegrityError: a conflict), so a seq is
never written twice. An event can therefore only commit after its
predecessor has. What differs between databases is how the statement is
bound: that is all a recorder holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from django.db import connection, transaction

from campaigns import prepared


@dataclass(frozen=True)
class Row:
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


def _insert(
    game_id: int, expected: int, expected_hash: str, rows: list[Row], payload_cast: str
) -> tuple[str, list[Any]]:
    values = ", ".join([f"(%s, %s, %s, %s, %s, %s{payload_cast}, %s, %s, %s, %s)"] * len(rows))
    # The predecessor is there with the hash we chained to, and nothing follows it yet: a writer
    # behind a committed successor is refused without an error (no savepoint needed to go on).
    guard = (
        "(%s = 0 OR EXISTS (SELECT 1 FROM campaigns_event WHERE game_id = %s AND seq = %s AND hash = %s))"
        " AND NOT EXISTS (SELECT 1 FROM campaigns_event WHERE game_id = %s AND seq > %s)"
    )
    sql = f"INSERT INTO campaigns_event ({_COLUMNS}) SELECT v.* FROM (VALUES {values}) AS v WHERE {guard}"
    params: list[Any] = []  # SQL parameters: ints, strings, datetimes
    for r in rows:
        params += [
            game_id,
            r.seq,
            r.turn,
            r.type,
            r.version,
            r.payload_json,
            r.audience,
            r.created_at,
            r.prev_hash,
            r.hash,
        ]
    params += [expected, game_id, expected, expected_hash, game_id, expected]
    return sql, params


class Recorder(Protocol):
    # Whether one INSERT outside a transaction is atomic on this database (no savepoint needed).
    single_statement_atomic: bool
    # Whether ``write`` can keep the snapshots in the events' own statement.
    writes_snapshots: bool

    def write(
        self,
        game_id: int,
        expected: int,
        expected_hash: str,
        rows: list[Row],
        snapshots: Sequence[tuple[int, str]] = (),
    ) -> bool: ...

    def latest_snapshots(self, game_ids: Sequence[int]) -> dict[int, str]:
        """{game id: the state JSON of its latest snapshot} for those of ``game_ids`` that have one."""
        ...


class PostgresRecorder:
    # One INSERT is atomic on its own: outside a caller's transaction an append
    # that writes nothing else needs no transaction (and no savepoint) of its own.
    single_statement_atomic = True
    # The snapshots go in the same statement as the events (``write``'s ``snapshots``).
    writes_snapshots = True

    def write(
        self,
        game_id: int,
        expected: int,
        expected_hash: str,
        rows: list[Row],
        snapshots: Sequence[tuple[int, str]] = (),
    ) -> bool:
        """Insert ``rows`` after event ``expected``; False if that event is not the head we saw.
        ``snapshots``: (seq, state) kept with them, in the same statement (a round trip less per
        command), and only if the events were written; one there already is left as it is."""
        sql, params = _insert(game_id, expected, expected_hash, rows, "::jsonb")
        if snapshots:
            values = ", ".join(["(%s, %s, %s)"] * len(snapshots))
            sql = (
                f"WITH ev AS ({sql} RETURNING 1), sn AS (INSERT INTO campaigns_snapshot (game_id, seq, state)"
                f" SELECT s.* FROM (VALUES {values}) AS s WHERE (SELECT count(*) FROM ev) = %s"
                " ON CONFLICT DO NOTHING) SELECT count(*) FROM ev"
            )
            params += [p for seq, state in snapshots for p in (game_id, seq, state)] + [len(rows)]
        # Django binds parameters client-side, so the server would parse and plan
        # this hot statement on every append. A plain psycopg cursor on the same
        # connection (same transaction) binds on the server, and psycopg keeps it
        # prepared (settings: DATABASE_PREPARE_THRESHOLD). The connection's kept cursor
        # (campaigns.prepared): making a cursor costs more Python than running the statement.
        conn = transaction.get_connection()
        conn.ensure_connection()
        with conn.wrap_database_errors:
            cur = prepared.kept_cursor(conn)
            cur.execute(sql, params)
            if not snapshots:
                return cur.rowcount == len(rows)
            written = cur.fetchone()
            return written is not None and written[0] == len(rows)

    # One index lookup per game (the latest snapshot by (game, seq)): DISTINCT ON would read every one.
    _LATEST = (
        "SELECT g.id, s.state FROM unnest(%s::bigint[]) AS g(id) CROSS JOIN LATERAL "
        "(SELECT state FROM campaigns_snapshot WHERE game_id = g.id ORDER BY seq DESC LIMIT 1) s"
    )

    def latest_snapshots(self, game_ids: Sequence[int]) -> dict[int, str]:
        if not game_ids:
            return {}
        with connection.cursor() as cur:
            cur.execute(self._LATEST, [list(game_ids)])
            return {int(game_id): str(state) for game_id, state in cur.fetchall()}


class SqliteRecorder:
    single_statement_atomic = False
    writes_snapshots = False  # no INSERT inside WITH: the event store writes them after the events

    def write(
        self,
        game_id: int,
        expected: int,
        expected_hash: str,
        rows: list[Row],
        snapshots: Sequence[tuple[int, str]] = (),
    ) -> bool:
        """Insert ``rows`` after event ``expected``; False if that event is not the head we saw."""
        if snapshots:
            raise ValueError("SQLite writes no snapshots with the events (writes_snapshots is False)")
        sql, params = _insert(game_id, expected, expected_hash, rows, "")
        adapt = connection.ops.adapt_datetimefield_value
        params = [adapt(p) if isinstance(p, datetime) else p for p in params]
        with connection.cursor() as cur:
            cur.execute(sql, params)
            return bool(cur.rowcount == len(rows))

    # No LATERAL join here: a query per game, each still one lookup in the (game, seq) index.
    _LATEST = "SELECT state FROM campaigns_snapshot WHERE game_id = %s ORDER BY seq DESC LIMIT 1"

    def latest_snapshots(self, game_ids: Sequence[int]) -> dict[int, str]:
        out: dict[int, str] = {}
        with connection.cursor() as cur:
            for game_id in game_ids:
                cur.execute(self._LATEST, [game_id])
                found = cur.fetchone()
                if found is not None:
                    out[game_id] = str(found[0])
        return out


RECORDERS: dict[str, Recorder] = {"postgresql": PostgresRecorder(), "sqlite": SqliteRecorder()}


def for_connection() -> Recorder:
    """The recorder for the database Django is connected to."""
    try:
        return RECORDERS[connection.vendor]
    except KeyError:
        raise RuntimeError(f"no event recorder for the {connection.vendor} database") from None
