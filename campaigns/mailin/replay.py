"""Replays: a captured message sent again under a new Message-ID.

Deduplication by Message-ID stops a redelivery, not someone who re-sends a
seat's old message (DKIM still passes: the signed headers and body are the
same) with a new Message-ID. The defence: every applied message records its
Date (UTC) and the hash of its body; a message from the same seat stored
after it is held for the umpire, not applied, when

- its Date is older than the newest Date applied from that seat, or
- its Date equals that Date and its body is byte for byte the same (the last
  message itself, replayed), or
- it has no readable Date while dated mail from that seat was applied before.

A person writes later than they wrote before, so their mail is never held by
this; a client whose clock runs behind the one they wrote from last (a phone,
then a laptop) can be, and the umpire releases it. The first message from a
seat is never held by this.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime
from functools import lru_cache

from django.db import connection
from django.utils import timezone as django_timezone

from campaigns import prepared
from rules.core.i18n import _, gettext_noop

from . import batch
from .mime import Parsed
from .models import InboundMessage


def message_date(msg: Parsed) -> datetime | None:
    """The Date header in UTC, whole seconds; None when missing or unreadable."""
    try:
        when = parsedate_to_datetime(msg.first("Date"))
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    if when.tzinfo is None:  # "-0000": the zone is unknown, RFC 5322 says read it as UTC
        when = when.replace(tzinfo=UTC)
    return when.astimezone(UTC).replace(microsecond=0)


def body_of(raw: bytes) -> bytes:
    """The bytes after the header block: the same in a copy that gathered other trace headers."""
    cut = [i for i in (raw.find(b"\r\n\r\n"), raw.find(b"\n\n")) if i >= 0]
    return raw[min(cut) :].lstrip(b"\r\n") if cut else b""


def body_hash(raw: bytes) -> str:
    return hashlib.sha256(body_of(raw)).hexdigest()


def record(row: InboundMessage, msg: Parsed) -> None:
    """Note an applied message's Date and body on its row, for the check of later ones."""
    when = message_date(msg)
    row.result["date"] = when.isoformat() if when else ""
    row.result["body_sha256"] = body_hash(bytes(row.raw))


def suspect(row: InboundMessage, seat, msg: Parsed, *, also_count: Sequence[str] = ()) -> str | None:
    """Why this message looks like a replay of the seat's earlier mail (hold it), or None.

    ``also_count``: reply threads (``replies.thread_key``) whose replies of the last hour are
    counted in the same statement, one round trip less per message: left on the row as
    ``sent_counts`` for ``replies.sent_last_hour``."""
    # Only mail stored before this one: a copy is stored after its original, while a message retried
    # after a failure, or taken in the same batch, may be processed after later ones.
    held = batch.current()
    found = held.fresh(row.pk, seat.pk, also_count) if held is not None else None
    if found is None:
        batch.flush()  # the results of the batch's messages so far are there to read
        counts = [p for key in also_count for p in (key, _hour_ago())]
        found = prepared.fetchone(
            _suspect_sql(len(also_count)), [*counts, seat.pk, InboundMessage.Status.APPLIED, row.pk]
        )
    row.sent_counts = dict(zip(also_count, found[2:], strict=True))
    last = found[:2] if found[0] is not None else None
    if last is None or not last[0]:
        return None
    last_date, last_hash = last
    when = message_date(msg)
    newest = datetime.fromisoformat(last_date)
    if when is None:
        return gettext_noop("it has no readable Date header, so it cannot be told from a replayed copy of earlier mail")
    if when < newest:
        return _(
            "its Date ({when} UTC) is older than the newest message already applied from this seat ({newest} UTC): "
            "it may be a replayed copy",
            when=f"{when:%Y-%m-%d %H:%M:%S}",
            newest=f"{newest:%Y-%m-%d %H:%M:%S}",
        )
    if when == newest and body_hash(bytes(row.raw)) == last_hash:
        return gettext_noop(
            "it repeats the last message applied from this seat (same Date, same text) under a new Message-ID"
        )
    return None


def _hour_ago():
    return prepared.db_value(InboundMessage(replied_at=django_timezone.now() - timedelta(hours=1)), "replied_at")


def prefetch(held: batch.Batch, wanted: Sequence[tuple[int, int, tuple[str, ...]]]) -> None:
    """What ``suspect`` reads, for each (row pk, seat id, thread keys) of ``wanted``, in one
    statement: kept in ``held`` for ``suspect`` to use while it is fresh (see batch.py).
    PostgreSQL only (arrays); elsewhere each message reads its own."""
    if not wanted or connection.vendor != "postgresql" or len({len(keys) for _, _, keys in wanted}) != 1:
        return
    lanes = len(wanted[0][2])
    columns = [[w[0] for w in wanted], [w[1] for w in wanted]] + [[w[2][i] for w in wanted] for i in range(lanes)]
    since = _hour_ago()
    # In the statement's order: the counts' times, the rows, the status of the last applied one.
    rows = prepared.fetchall(_prefetch_sql(lanes), [*[since] * lanes, *columns, InboundMessage.Status.APPLIED])
    for pk, seat_id, *found in rows:
        keys = next(w[2] for w in wanted if w[0] == pk)
        held.checks[pk] = (seat_id, keys, tuple(found))


@lru_cache(maxsize=4)
def _prefetch_sql(lanes: int) -> str:
    # ``_suspect_sql`` for many rows at once: the same last applied message and counts, per row.
    keys = ", ".join("%s::text[]" for _ in range(lanes))
    names = ", ".join(f"k{i}" for i in range(lanes))
    counts = "".join(
        f", (SELECT count(*) FROM mailin_inboundmessage WHERE thread_key = v.k{i} AND replied_at >= %s)"
        for i in range(lanes)
    )
    last = _last_applied_sql("v.seat", "v.id")
    return (
        f"SELECT v.id, v.seat, last.date, last.body{counts}"
        f" FROM unnest(%s::bigint[], %s::bigint[], {keys}) AS v(id, seat, {names})"
        f" LEFT JOIN LATERAL ({last}) AS last ON true"
    )


def _key(name: str) -> str:
    """A key of ``result`` as text, in the database's own JSON syntax."""
    return f"result ->> '{name}'" if connection.vendor == "postgresql" else f"json_extract(result, '$.{name}')"


def _last_applied_sql(seat: str, row: str) -> str:
    """The seat's newest dated applied message before ``row`` (SQL expressions; a status parameter).

    The seat's own rows are picked first, behind OFFSET 0 (which keeps the planner from merging
    the two): most rows of the table are applied ones, and without statistics (a new table,
    before its first ANALYZE) the planner also reads the status index, every applied row's
    entry for each check (~1 ms at 40,000 rows, measured on bench/mail_ingest.py's database)."""
    fence = " OFFSET 0" if connection.vendor == "postgresql" else ""
    return (
        f"SELECT {_key('date')} AS date, {_key('body_sha256')} AS body FROM"
        f" (SELECT id, status, result FROM mailin_inboundmessage WHERE seat_id = {seat}{fence}) AS mine"
        f" WHERE status = %s AND id < {row} AND {_key('date')} IS NOT NULL ORDER BY date DESC LIMIT 1"
    )


@lru_cache(maxsize=8)
def _suspect_sql(counts: int) -> str:
    # The seat's newest dated applied message (undated rows hold "": they sort last, so "" here
    # means no dated mail was applied), and the replies of the last hour in each thread asked for.
    # Prepared: it runs for every message (campaigns.prepared).
    last = _last_applied_sql("%s", "%s")
    count = "(SELECT count(*) FROM mailin_inboundmessage WHERE thread_key = %s AND replied_at >= %s)"
    return (
        f"SELECT last.date, last.body{''.join(', ' + count for _ in range(counts))}"
        f" FROM (SELECT 1) AS one LEFT JOIN ({last}) AS last ON true"
    )
