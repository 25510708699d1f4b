"""What a batch of mail-in (``ingest.ingest_many``) keeps between its messages: three statements
a message fewer.

- The rows' results are written once, before the commit, in one ``executemany`` (one round
  trip), instead of an UPDATE after each message (``save``).
- The replay check and reply counts (``replay.suspect``) of every message whose seat the batch
  can tell from its address are read at the start, in one statement (``replay.prefetch``).
- The replies' outbox rows are written once, before the commit, in one multi-row INSERT
  (``outbox.writing_later``), instead of an INSERT each. Nothing reads them before the
  commit: the only reads of the outbox in a message's processing are of a seat's reports
  (mailin.apply), never a reply.

Nothing a message reads can differ from what it would read with a statement of its own: the
only reads of the inbound rows while a batch runs are the replay check and the reply counts
(campaigns.mailin.replay and replies). A message's prefetched check is used only while no
message processed before it in the batch has touched its seat or its reply threads (``fresh``:
those are the rows the check reads); otherwise, and for every message the prefetch could not
tell, the check reads the table as before, after the results held so far are written
(``flush``), as they would have been by then. Mail another process (the webhook, the pipe)
applies meanwhile is seen as by a message processed at the batch's start: the check was
never ordered with other processes' (no lock is held between a seat's two messages).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from django.db import transaction

from campaigns import prepared
from campaigns.mailout import outbox

from .models import InboundMessage


@dataclass
class Batch:
    fields: list[str]
    pending: list[InboundMessage] = field(default_factory=list)
    # row pk -> (seat id, thread keys counted, the row ``replay.suspect``'s statement reads)
    checks: dict[int, tuple[int, tuple[str, ...], tuple]] = field(default_factory=dict)
    seats: set[int] = field(default_factory=set)  # touched by a message processed in the batch
    threads: set[str] = field(default_factory=set)
    mail: outbox.Later | None = None  # the replies' outbox rows, written by ``finish``

    def save(self, row: InboundMessage) -> None:
        self.pending.append(row)

    def flush(self) -> None:
        if self.pending:
            prepared.update_many(self.pending, self.fields)
            self.pending = []

    def finish(self) -> None:
        """Write everything held, before the commit."""
        self.flush()
        if self.mail is not None:
            self.mail.finish()

    def processed(self, row: InboundMessage) -> None:
        if row.seat_id is not None:
            self.seats.add(row.seat_id)
        if row.thread_key:
            self.threads.add(row.thread_key)

    def fresh(self, pk: int, seat_id: int, threads: Sequence[str]) -> tuple | None:
        """The prefetched check of row ``pk`` for that seat and those threads, if still what a read would give."""
        found = self.checks.get(pk)
        if found is None or found[0] != seat_id or found[1] != tuple(threads):
            return None
        if seat_id in self.seats or not self.threads.isdisjoint(threads):
            return None
        return found[2]


@contextmanager
def opened(fields: list[str]) -> Iterator[Batch]:
    """A batch for the rest of the caller's transaction; what it holds is written on a normal exit."""
    conn = transaction.get_connection()
    conn._kb_mailin_batch = batch = Batch(fields)
    try:
        with outbox.writing_later() as batch.mail:
            yield batch
            batch.finish()
    finally:
        conn._kb_mailin_batch = None


def current() -> Batch | None:
    return getattr(transaction.get_connection(), "_kb_mailin_batch", None)


def flush() -> None:
    """Write the results held so far, before a statement that reads the inbound rows."""
    batch = current()
    if batch is not None:
        batch.flush()
