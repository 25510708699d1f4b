"""The durable outbox: every outgoing message is a row before it is a send.

``queue_mail`` writes the row in the caller's transaction (so a rolled-back
command mails nothing) and queues a Celery send after commit (published from
a background thread when there is a broker: see ``_Publisher``).

One owner per retry: a row is owned by whoever holds its lease (``leased_until``): the queued
send task from the moment it is queued, the sender while it sends. ``send`` claims a row with
a conditional update only once it is due (``next_attempt_at``), so two workers never send one
row at once and an early duplicate message does nothing. A failure releases the lease and sets
``next_attempt_at`` to the END of the attempt plus the backoff (a slow failure is not due at
once); there is no Celery retry. ``requeue_due`` (the rescue, every few seconds, and the sweep)
queues the due rows no one holds - released after a failure or a failed hand-off to the broker,
or whose lease ran out (a lost message, a sender that died) - taking them with SKIP LOCKED.
After ``MAX_ATTEMPTS`` a row is marked DEAD, never deleted; ``resend`` queues it afresh.

Headers: a Message-ID of its own for every message, derived from the idempotency key,
under a real domain (MAIL_MESSAGE_ID_DOMAIN); In-Reply-To and References that put every
message of a game to one reader into one thread, whose root is the game's first mail that
reader got (``thread_root``); Reply-To (the seat's secret address), and
``Auto-Submitted: auto-generated`` (RFC 3834).

Envelope: a message to a seat goes out with the seat's own return path (VERP,
``bounces+<token>@INBOUND_DOMAIN``: health.py), so that a server that cannot deliver it sends its
delivery report back into mail-in's pipe; while the seat's address is failing its rows are parked
(PENDING, not due, ``last_error`` PAUSED) instead of sent, and the rescue queues them again once
the player has confirmed an address (``_resume_parked``).
Nothing here logs an address or a header: Reply-To carries a secret token.
"""

from __future__ import annotations

import atexit
import base64
import functools
import logging
import os
import queue
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime, timedelta
from email.utils import getaddresses

from celery import current_app
from django.conf import settings
from django.core import mail
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.crypto import salted_hmac

from campaigns import liveness, prepared, queued, transient
from campaigns.leases import LeaseHeartbeat
from campaigns.models import OutboxMail
from campaigns.turns.addresses import reply_address

from . import composing, health, pictures
from .mapmail import ComposedMail

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 10
BACKOFF_MAX = timedelta(hours=1)
RESCUE_BATCH = 1000
# The Celery tasks that send one row and several rows in turn (campaigns.mailout.tasks), queued
# by name: the task module imports this one, never the other way round.
SEND_TASK = "campaigns.tasks.send_outbox_mail"
SEND_MANY_TASK = "campaigns.tasks.send_outbox_mails"
# Rows per send-many task: one publish for a whole IMAP batch's acknowledgements (imap.FETCH_BATCH
# is 50), while a rescue of a thousand rows is still spread over several tasks (and workers).
SEND_MANY_MAX = 100
# A row held back because its seat's address fails (health.py): PENDING, not due, no lease.
PAUSED = "paused: mail to this seat's address bounces; sent once its player confirms an address"


class SendFailed(Exception):
    """One attempt failed; the row is recorded as FAILED and will be retried."""

    def __init__(self, row_id: int, attempts: int, error: str):
        super().__init__(f"outbox row {row_id}, attempt {attempts}: {error}")
        self.row_id, self.attempts = row_id, attempts


def thread_root(game, seat, version: int | None = None) -> str:
    """The Message-ID of the game's first mail to the holder of ``seat`` (as of the seat's
    ``version``: a handover to another player bumps it), which every later message of the game
    to that seat refers to: one thread per game and reader. Each reader's root is a message of
    its own (an umpire who also plays gets two first mails, and two threads); derived, so no
    later message needs to look it up."""
    version = seat.version if version is None else version
    return message_id_for(f"thread-root:{game.uid}:{seat.pk}:{version}")


def one_line(text: str) -> str:
    """Text fit for a header (e.g. a game name in a subject): whitespace runs become one space."""
    return " ".join(text.split())


def message_id_for(key: str) -> str:
    # Derived from the key, so a resent row keeps its Message-ID (receivers dedupe); by a
    # keyed hash, because keys hold database ids (``mailin:<inbound id>:ack``): a bare hash
    # could be inverted by trying ids, and the gap between the ids of two of a player's own
    # acknowledgements would count the mail that came in between, the enemy's included.
    digest = salted_hmac("kriegsbrief.outbox.message-id", key, algorithm="sha256").hexdigest()
    return f"<{digest[:32]}@{settings.MAIL_MESSAGE_ID_DOMAIN}>"


def queue_mail(
    *,
    key: str,
    to: str,
    subject: str,
    body: str,
    game=None,
    seat=None,
    in_reply_to: str | None = None,
    references: Sequence[str] = (),
    reply_to: str | None = None,
    kind: str = "notice",
    attachments: Iterable[tuple[str, bytes | str, str]] = (),
    html: str = "",
    map_svg: str = "",
    thread_start: bool = False,
    later: bool = False,
) -> OutboxMail | None:
    """Write one outbox row (None if ``key`` was queued before) and send it after commit.

    ``thread_start``: the game's first message to a seat. Its Message-ID is that seat's thread
    root (``thread_root``), which every later message of the game to the seat refers to.

    ``attachments``: (filename, content, mimetype) triples. ``map_svg`` is
    attached as a PNG drawn outside the caller's transaction, once per drawing
    (pictures.py: on the render queue ahead of the send, else by the sender).
    A message to a seat gets the seat's secret reply address as Reply-To
    unless ``reply_to`` is given.

    ``later``: inside a ``writing_later`` block, the row is held to be written with others
    before the commit, and returned unwritten (its ``pk`` None).
    """
    _check(key=key, to=to, subject=subject, in_reply_to=in_reply_to, references=references, reply_to=reply_to)
    if seat is not None and seat.status != seat.Status.ACTIVE:
        # An invitation is not a seat: nothing of the game reaches an invitee before they accept.
        raise ValueError(f"queue_mail: seat {seat.pk} has not been accepted")
    if reply_to is None and seat is not None:
        reply_to = reply_address(seat)
    if thread_start and (game is None or seat is None):
        raise ValueError("queue_mail: only a game's mail to a seat starts a thread")
    refs, parent = ([], "") if thread_start else _threading(game, seat, in_reply_to, references)
    row = OutboxMail(
        key=key,
        game=game,
        seat=seat,
        kind=kind,
        to=to,
        reply_to=reply_to or "",
        subject=subject,
        body=body,
        html=html,
        svg=map_svg,
        attachments=[_attachment_json(a) for a in attachments],
        message_id=thread_root(game, seat) if thread_start else message_id_for(key),
        in_reply_to=parent,
        references=refs,
        next_attempt_at=timezone.now(),
        leased_until=timezone.now() + queued_lease(),
        held_by=holder_id(),
    )
    waiting = _waiting()
    if later and waiting is not None and waiting.hold(row):
        return row
    if waiting is not None:
        waiting.write()  # the rows queued before this one get the lower ids, as written one by one
    # One INSERT ... ON CONFLICT (key) DO NOTHING: a key queued before (or by a
    # concurrent transaction that commits first) inserts nothing and is no error,
    # so the caller's transaction needs no savepoint. Prepared: every reply runs it.
    if not prepared.insert_unless_exists(row, "key"):
        return None
    row_id = row.pk
    # The after-commit hand-off owns the row (its lease); a broker failure releases it for the
    # rescue and never undoes or fails the command that queued the mail. A map is drawn ahead of
    # the send, on the render queue (pictures.py).
    transaction.on_commit(_send_after_commit([[row_id]], render=[row_id] if map_svg else []), robust=True)
    return row


class Later:
    """The rows ``queue_mail(later=True)`` holds in a ``writing_later`` block, to be written
    together (one multi-row INSERT ... ON CONFLICT (key) DO NOTHING, the same rows written or
    not as a ``queue_mail`` each would write), each with the list its after-commit send reads
    its id from once it is written. Their sends are queued when they are: where ``queue_mail``
    queues one among the transaction's after-commit work (the same order, the same merging by
    ``one_wakeup``)."""

    def __init__(self) -> None:
        self.held: list[tuple[OutboxMail, list[int]]] = []
        # Written inside a savepoint, which may yet be rolled back: checked by ``finish``.
        self.unsure: list[tuple[OutboxMail, list[int]]] = []

    def hold(self, row: OutboxMail) -> bool:
        """Hold ``row``; False (not held) inside a savepoint, whose rollback would not undo a
        write made after it ended, or with a map, whose drawing is queued by row id."""
        if transaction.get_connection().savepoint_ids or row.svg:
            return False
        ids: list[int] = []
        transaction.on_commit(_send_after_commit([ids]), robust=True)
        self.held.append((row, ids))
        return True

    def write(self) -> None:
        """Write the rows held: at the end, or before another row, so that ids keep the order
        the rows were queued in."""
        if not self.held:
            return
        held, self.held = self.held, []
        for (row, ids), new in zip(held, prepared.insert_many_unless_exist([r for r, _ in held], "key"), strict=True):
            if new:
                ids.append(row.pk)
        if transaction.get_connection().savepoint_ids:
            self.unsure += held

    def finish(self) -> None:
        """Write what is held, and again what was written in a savepoint since rolled back (it
        was queued outside it: ``queue_mail`` would have written it there)."""
        self.write()
        if not self.unsure:
            return
        unsure, self.unsure = self.unsure, []
        there = set(OutboxMail.objects.filter(pk__in=[row.pk for row, _ in unsure]).values_list("pk", flat=True))
        for row, ids in unsure:
            if ids and ids[0] not in there:  # written, then undone with its savepoint
                ids.clear()
                row.pk = None
                self.held.append((row, ids))
        self.write()


def _waiting() -> Later | None:
    later: Later | None = getattr(transaction.get_connection(), "_kb_outbox_later", None)
    return later


@contextmanager
def writing_later() -> Iterator[Later]:
    """A block in which ``queue_mail(later=True)`` holds its rows for the returned holder's
    ``finish`` to write together before the commit: mail-in's batches, a round trip less per
    reply. Nothing reads those rows before the commit (a reply is read only once sent). Left
    without ``finish`` (the transaction is being rolled back) the held rows are dropped."""
    conn = transaction.get_connection()
    conn._kb_outbox_later = later = Later()
    try:
        yield later
    finally:
        conn._kb_outbox_later = None


def _send_after_commit(id_lists: list[list[int]], render: list[int] = ()):
    """The after-commit send of the rows whose ids are in ``id_lists``, read when it runs: a
    held row's id is in its list only once ``Later.write`` wrote it, which may come
    after ``one_wakeup`` merged the sends (a copy of the ids taken then would leave it out)."""

    def send_after_commit():
        enqueue([pk for ids in id_lists for pk in ids], render=render)

    send_after_commit.id_lists = id_lists
    send_after_commit.render_ids = list(render)  # kept when one_wakeup merges the sends
    return send_after_commit


def is_mail_wakeup(callback) -> bool:
    """Whether an on-commit callback is only the send of outbox rows ``queue_mail`` queued
    (mail-in's batches tell it from other work queued for after a commit)."""
    return getattr(callback, "id_lists", None) is not None


def one_wakeup() -> None:
    """Merge the sends the current transaction queued for after its commit into one, so that
    they reach the broker in one publish (a send-many task) instead of one each: a publish costs
    Celery and kombu half a millisecond of Python, more than the rest of an acknowledgement.
    Call it at the end of a block: the sends of its rolled-back savepoints are already dropped
    (by Django), so what is merged is what its commit sends. Only sends queued at this level
    (in it, or in savepoints of it since released) are merged, and the merged send belongs to
    this level, so a rollback of an enclosing savepoint still drops it. It takes the place of
    the first; other after-commit work keeps its order."""
    level = set(connection.savepoint_ids)
    hooks = connection.run_on_commit
    mail = [i for i, (sids, func, _) in enumerate(hooks) if is_mail_wakeup(func) and sids & level == level]
    if len(mail) < 2:
        return
    id_lists = [ids for i in mail for ids in hooks[i][1].id_lists]
    render = [pk for i in mail for pk in hooks[i][1].render_ids]
    merged = (level, _send_after_commit(id_lists, render), True)
    connection.run_on_commit = [merged if i == mail[0] else h for i, h in enumerate(hooks) if i not in mail[1:]]


def _check(*, key, to, subject, in_reply_to, references, reply_to) -> None:
    """Refuse what would make a broken or injected header, naming the field."""
    if not key:
        raise ValueError("queue_mail needs a non-empty idempotency key")
    # Loose on purpose: replies go to whatever address wrote to us; the SMTP
    # server is the judge of deliverability. Strict on one bare address.
    if getaddresses([to]) != [("", to)] or "@" not in to or any(c.isspace() for c in to):
        raise ValueError(f"queue_mail: recipient {to!r} is not one mail address")
    headers = {
        "subject": subject,
        "in_reply_to": in_reply_to or "",
        "reply_to": reply_to or "",
        **{f"references[{i}]": r for i, r in enumerate(references)},
    }
    for name, value in headers.items():
        if "\r" in value or "\n" in value:
            raise ValueError(f"queue_mail: {name} must be one line (a line break would inject headers)")


def _threading(game, seat, in_reply_to: str | None, references: Sequence[str]) -> tuple[list[str], str]:
    """References and In-Reply-To: a game's message to a seat begins with the seat's thread root;
    mail of a game to no seat (an invitation's answer to the creator, say) has no root of its
    reader's, only what the caller gives."""
    refs = [r for r in references if r]
    if game is not None and seat is not None:
        root = thread_root(game, seat)
        if root not in refs:
            refs.insert(0, root)
    parent = in_reply_to or (refs[-1] if refs else "")
    if parent and parent not in refs:
        refs.append(parent)
    return refs, parent


def _attachment_json(item: tuple[str, bytes | str, str]) -> dict:
    filename, content, mimetype = item
    data = content.encode() if isinstance(content, str) else bytes(content)
    return {"filename": filename, "mimetype": mimetype, "content_b64": base64.b64encode(data).decode("ascii")}


def queued_lease() -> timedelta:
    """How long a queued send task owns its row before the rescue assumes the message lost."""
    return timedelta(seconds=settings.QUEUED_LEASE_SECONDS)


def holder_id() -> int | None:
    """This process's registry id, for the rows whose lease it holds (``OutboxMail.held_by``): rows
    it queued (its publisher thread publishes them after the commit) or started to send; None
    in-process (eager), where the send is made here and now."""
    return None if current_app.conf.task_always_eager else liveness.me()


def enqueue(ids: Iterable[int], render: Iterable[int] = ()) -> None:
    """Queue Celery sends for the rows: one task for one row, a send-many task for up to
    SEND_MANY_MAX rows (and first, for the ``render`` rows, the drawing of their maps). In-process
    (eager) mode sends here and now (the send draws the map); with a broker the publish is handed
    to this process's publisher thread."""
    ids, render = list(ids), list(render)
    if current_app.conf.task_always_eager:
        for pk in ids:
            _send_task([pk])
        return
    if ids or render:
        _Publisher.get().put(ids, render)


def release(ids: list[int]) -> None:
    """A hand-off to the broker failed: no one owns these rows now, so the rescue queues them
    within seconds (rather than when their lease would have run out)."""
    S = OutboxMail.Status
    try:
        OutboxMail.objects.filter(pk__in=ids, status__in=[S.PENDING, S.FAILED]).update(leased_until=None)
    except Exception as exc:  # the database is down too: the leases run out instead
        log.warning("outbox: releasing %s rows failed (%s); their leases run out", len(ids), type(exc).__name__)


def _send_task(ids: list[int]) -> None:
    # The task by its registered name (registered at start-up: campaigns.apps); runs in-process when eager.
    if len(ids) == 1:
        current_app.tasks[SEND_TASK].delay(ids[0])
    else:
        current_app.tasks[SEND_MANY_TASK].delay(ids)


def send_many(ids: list[int]) -> int:
    """``send`` for each row in turn (the send-many task) over one SMTP connection; returns how many
    were sent. Each row is claimed on its own as ``send`` does, so a row sent by someone else
    meanwhile is skipped; a row whose attempt failed is recorded and left to the rescue, the
    connection it broke is dropped, and the rest are still sent (on a fresh one).

    One connection for the batch: a new one per row cost its connect, EHLO and QUIT, nearly half
    the conversation, and that bounded how fast a backlog drained after an SMTP outage.

    Started, the task holds the rows it has not reached yet under the short send lease, renewed
    while it runs (``_hold``): so a message taken off the queue and not started (its worker killed
    whole) is told from a started one by its lease (``requeue_due``), and a task killed mid-batch
    frees its remaining rows within one send lease rather than the queued lease."""
    sent, reached = 0, [0]
    transient.retrying(_hold, ids)
    smtp = mail.get_connection()
    try:
        # The heartbeat renews only the rows not reached yet (a slice: read safely from its thread).
        with LeaseHeartbeat(lambda: _hold(ids[reached[0] :]), settings.SEND_LEASE_SECONDS, "send-many-lease"):
            for n, pk in enumerate(ids):
                reached[0] = n + 1  # this row's own claim and heartbeat hold it from here
                try:
                    sent += send(pk, smtp)
                except SendFailed:
                    continue
    finally:
        _quit(smtp)
    return sent


def _hold(ids: list[int]) -> None:
    """Cut the waiting rows' queued lease to a started sender's (send lease), from now. A row with
    no lease (released after a failure, so not this message's) is left alone."""
    if ids:
        OutboxMail.objects.filter(
            pk__in=ids, status__in=[OutboxMail.Status.PENDING, OutboxMail.Status.FAILED], leased_until__isnull=False
        ).update(leased_until=timezone.now() + send_lease(), held_by=holder_id())


def _deliver(row: OutboxMail, smtp) -> None:
    """Send the row's message; ``row.envelope`` (set by ``send``): the seat's return path, or ""."""
    backend = smtp if smtp is not None else mail.get_connection()
    msg = composing.message_for(row, backend)
    envelope = getattr(row, "envelope", "")
    if envelope and composing.flattens(backend):
        # The seat's return path as the envelope sender (MAIL FROM); the From header stays
        # DEFAULT_FROM_EMAIL (composing.build_message writes it). An email API's backend keeps
        # its own sender: its provider reports bounces its own way.
        if not isinstance(msg, ComposedMail):  # composed bytes carry their From already
            msg.extra_headers.setdefault("From", msg.from_email)
        msg.from_email = envelope
    if smtp is not None:
        # Opened here (not by send_messages, which would close what it opened), it stays open for
        # the batch's next row; a no-op when it is open already.
        smtp.open()
    backend.send_messages([msg])


def _hang_up(smtp) -> None:
    """Drop a connection an attempt failed on, without QUIT: its state is unknown (a refusal, a
    timeout mid-DATA), and a frozen server would keep QUIT waiting too."""
    conn = getattr(smtp, "connection", None)  # only the SMTP backend keeps one
    if conn is not None:
        try:
            conn.close()
        except Exception:  # a broken socket may fail to close; it is dropped either way
            pass
        smtp.connection = None


def _quit(smtp) -> None:
    # The batch's rows are recorded already: a failure to say goodbye changes nothing.
    try:
        smtp.close()
    except Exception:
        _hang_up(smtp)


def _render_tasks(ids: list[int]) -> None:
    """Ask the render queue to draw these rows' maps. Only a head start: a row whose render is
    lost is drawn by its sender, so a failure here is logged and nothing more."""
    for pk in ids:
        try:
            current_app.tasks[pictures.RENDER_TASK].delay(pk)
        except Exception as exc:
            log.warning("outbox row %s: queueing its map failed (%s); the sender draws it", pk, type(exc).__name__)
            return


class _Publisher:
    """Publishes send tasks to the broker off the thread that committed the rows.

    A publish costs Celery and kombu most of a millisecond of Python per
    message, paid by every command that mails (an inbound message and its
    acknowledgement above all). The row is already committed PENDING, so the
    publish is only a wake-up call: one refused by the broker is released (``release``) and
    queued again by the rescue within seconds; one lost with the process is queued again when
    its lease runs out.
    The thread drains its queue at exit; a forked child starts its own.
    """

    _current: _Publisher | None = None
    _lock = threading.Lock()

    @classmethod
    def get(cls) -> _Publisher:
        with cls._lock:
            if cls._current is None:
                cls._current = cls()
            return cls._current

    def __init__(self):
        self.queue: queue.SimpleQueue = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._run, name="outbox-publisher", daemon=True)
        self.thread.start()

    def put(self, ids: list[int], render: list[int] = ()) -> None:
        self.queue.put((ids, render))

    def _run(self) -> None:
        while (item := self.queue.get()) is not None:
            try:
                self._publish(*item)
            finally:
                # This thread's own connection (a release; a task run in-process if the app turned
                # eager meanwhile): never kept open between items, where nothing would close it.
                connection.close()

    def _publish(self, ids: list[int], render: list[int]) -> None:
        _render_tasks(render)  # first: a render waits in its queue less than the send in its own
        failed = []
        for start in range(0, len(ids), SEND_MANY_MAX):
            chunk = ids[start : start + SEND_MANY_MAX]
            try:
                _send_task(chunk)
            except Exception as exc:  # the broker is down: recorded, the rescue queues the rows again
                log.warning(
                    "outbox rows %s: queueing failed (%s); the sweep retries",
                    ", ".join(map(str, chunk)),
                    type(exc).__name__,
                )
                failed += chunk
        if failed:
            release(failed)

    def stop(self, timeout: float = 10.0) -> None:
        self.queue.put(None)
        self.thread.join(timeout)


def flush_publisher(timeout: float = 10.0) -> None:
    """Publish everything handed to the publisher thread so far, then stop it (at exit, in benches)."""
    with _Publisher._lock:
        current, _Publisher._current = _Publisher._current, None
    if current is not None:
        current.stop(timeout)


def _forget_publisher() -> None:
    # A forked child has no thread (and maybe a lock taken mid-fork): it starts afresh.
    _Publisher._current, _Publisher._lock = None, threading.Lock()


atexit.register(flush_publisher)
os.register_at_fork(after_in_child=_forget_publisher)


# --- sending ----------------------------------------------------------------


def backoff(attempts: int) -> timedelta:
    """30 s, 1 min, 2 min, … doubling per failed attempt, at most an hour
    (the base is settings.OUTBOX_RETRY_BASE_SECONDS, 30 by default)."""
    base = timedelta(seconds=settings.OUTBOX_RETRY_BASE_SECONDS)
    return min(base * (2 ** max(attempts - 1, 0)), BACKOFF_MAX)


def send_lease() -> timedelta:
    """How long a sender holds a row without renewing it; its heartbeat renews it every third of
    that while the SMTP conversation lasts, so a sender that died frees its row within it."""
    return timedelta(seconds=settings.SEND_LEASE_SECONDS)


def _renew_send(row_id: int, attempt: int) -> None:
    # Only this attempt's lease: a row the rescue took back (and maybe another sender claimed) is not ours.
    OutboxMail.objects.filter(pk=row_id, status=OutboxMail.Status.SENDING, attempts=attempt).update(
        leased_until=timezone.now() + send_lease()
    )


def claim(row_id: int, now: datetime) -> tuple | None:
    """Take the row for one attempt if it is PENDING or FAILED and due: then its (composed, to,
    attempts, kind, seat id), what a composed row's send needs; None if not ours to send.

    ``next_attempt_at`` is honoured here too: a message that arrives early (a duplicate, a
    redelivery) finds the row backing off and does nothing.
    """
    S, at = OutboxMail.Status, connection.ops.adapt_datetimefield_value
    params = [S.SENDING, at(now + send_lease()), holder_id(), row_id, S.PENDING, S.FAILED, MAX_ATTEMPTS, at(now)]
    # UPDATE ... RETURNING (PostgreSQL; SQLite from 3.35, when Django can return columns from an
    # INSERT): the claim and the read of what was claimed in one statement, not two.
    if connection.features.can_return_columns_from_insert:
        return prepared.fetchone(_claim_sql() + _claimed_columns("RETURNING"), params)
    return prepared.fetchone(_composed_sql(), [row_id]) if prepared.execute(_claim_sql(), params) else None


# The claim, the read of a composed row and the mark of a sent one are every send's own statements:
# prepared (campaigns/prepared.py), not compiled by the ORM each time, which cost the mail worker
# ~4 ms of its ~12 ms of CPU for a composed report (bench/load.py --fault smtp-freeze's drain).
@functools.cache
def _claim_sql() -> str:
    t, c = prepared.q(OutboxMail._meta.db_table), _column
    return (
        f"UPDATE {t} SET {c('status')} = %s, {c('attempts')} = {c('attempts')} + 1, {c('leased_until')} = %s, "
        f"{c('held_by')} = %s "
        f"WHERE {c('id')} = %s AND {c('status')} IN (%s, %s) AND {c('attempts')} < %s "
        f"AND ({c('next_attempt_at')} IS NULL OR {c('next_attempt_at')} <= %s)"
    )


@functools.cache
def _claimed_columns(verb: str) -> str:
    return f" {verb} " + ", ".join(_column(name) for name in ("composed", "to", "attempts", "kind", "seat"))


@functools.cache
def _composed_sql() -> str:
    t, c = prepared.q(OutboxMail._meta.db_table), _column
    return _claimed_columns("SELECT").lstrip() + f" FROM {t} WHERE {c('id')} = %s"


@functools.cache
def _sent_sql() -> str:
    t, c = prepared.q(OutboxMail._meta.db_table), _column
    cleared = ", ".join(f"{c(name)} = NULL" for name in ("next_attempt_at", "leased_until", "composed"))
    return f"UPDATE {t} SET {c('status')} = %s, {c('sent_at')} = %s, {c('last_error')} = '', {cleared} WHERE {c('id')} = %s"


def _column(name: str) -> str:
    return prepared.q(OutboxMail._meta.get_field(name).column)


def _claimed(row_id: int, now: datetime) -> OutboxMail | None:
    """The row this attempt claimed, or None. A composed row is read as its bytes, address, attempt
    and kind only (what its send needs); ``composing.message_for`` reads the rest if it must build."""
    claimed = claim(row_id, now)
    if claimed is None:
        if not _claimed_before(row_id, now):
            return None
        claimed = prepared.fetchone(_composed_sql(), [row_id])
    composed, to, attempts, kind, seat_id = claimed
    if composed is not None:
        return OutboxMail(pk=row_id, to=to, attempts=attempts, kind=kind, seat_id=seat_id, composed=bytes(composed))
    return OutboxMail.objects.select_related("game", "seat__user__profile").get(pk=row_id)


def _claimed_before(row_id: int, now: datetime) -> bool:
    """Whether this attempt's own claim is already in: ``_claimed`` is tried again after a database
    error (transient.retrying, with the same ``now``), and the error may have come after the claim
    committed (the read after it failed, or its answer was lost in a restart). The row then holds
    the very lease this attempt wrote; without this check it was left SENDING, unsent, until the
    send lease ran out and the rescue took it back."""
    return OutboxMail.objects.filter(
        pk=row_id, status=OutboxMail.Status.SENDING, leased_until=now + send_lease()
    ).exists()


def send(row_id: int, smtp=None) -> bool:
    """Send one row; True once sent, False if not claimable. Raises SendFailed after recording it.

    ``smtp``: an open mail connection to send on and keep open (send_many's), else one of its own.
    The database steps before and after the SMTP conversation ride out a short database outage
    (transient.retrying); the conversation itself is never repeated here."""
    row = transient.retrying(_claimed, row_id, timezone.now())
    if row is None:
        return False
    way = transient.retrying(health.route, row.seat_id) if row.seat_id else None
    if way is not None and way.paused:
        transient.retrying(_park, row)
        return False
    row.envelope = way.envelope if way is not None else ""
    try:
        with LeaseHeartbeat(lambda: _renew_send(row_id, row.attempts), settings.SEND_LEASE_SECONDS, "send-lease"):
            _deliver(row, smtp)
    except Exception as exc:  # any failure: record it, never drop the row
        if smtp is not None:
            _hang_up(smtp)
        # The backoff counts from the END of the attempt: a slow failure is not due at once.
        transient.retrying(_record_failure, row, timezone.now(), f"{type(exc).__name__}: {exc}"[:2000])
        raise SendFailed(row_id, row.attempts, type(exc).__name__) from exc
    transient.retrying(_mark_sent, row_id)
    return True


def _park(row: OutboxMail) -> None:
    """Hold a claimed row back, unsent, while its seat's address fails: PENDING and not due (the
    rescue passes it by), its attempt given back; ``_resume_parked`` queues it again."""
    OutboxMail.objects.filter(pk=row.pk, status=OutboxMail.Status.SENDING, attempts=row.attempts).update(
        status=OutboxMail.Status.PENDING,
        attempts=row.attempts - 1,
        next_attempt_at=None,
        leased_until=None,
        held_by=None,
        last_error=PAUSED,
    )
    log.info("outbox row %s (%s) parked: its seat's address bounces", row.pk, row.kind)


def _resume_parked(now: datetime) -> int:
    """Make the parked rows due again whose seat's mail is no longer paused (its player confirmed
    an address, or the seat has another); returns how many. The rescue runs it before it looks
    for due rows: one indexed statement when nothing is parked."""
    parked = OutboxMail.objects.filter(
        status=OutboxMail.Status.PENDING, next_attempt_at__isnull=True, last_error=PAUSED
    )
    seats = set(parked.values_list("seat_id", flat=True).distinct())
    if not seats:
        return 0
    going = seats - health.paused_seats(s for s in seats if s is not None)
    return parked.filter(seat_id__in=[s for s in going if s is not None]).update(next_attempt_at=now, last_error="")


def paused_rows(game=None):
    """The rows parked because their seat's address fails (all, or one game's)."""
    rows = OutboxMail.objects.filter(status=OutboxMail.Status.PENDING, next_attempt_at__isnull=True, last_error=PAUSED)
    return rows.filter(game=game) if game is not None else rows


def _mark_sent(row_id: int) -> None:
    # The flattened copy (composed) was only for the send (composing.py): dropped with the lease.
    prepared.execute(
        _sent_sql(), [OutboxMail.Status.SENT, connection.ops.adapt_datetimefield_value(timezone.now()), row_id]
    )


def _record_failure(row: OutboxMail, ended: datetime, error: str) -> None:
    # The log gets the exception type only: an SMTP error can echo addresses.
    log.warning("outbox row %s (%s) failed on attempt %s: %s", row.pk, row.kind, row.attempts, error.split(":")[0])
    # Only this attempt's row: a sender that stalled (a paused host) may find its row taken back by
    # the rescue and sent by another since; its late failure must not set a SENT row back to FAILED
    # (issue 32: the row was then sent a third time).
    mine = OutboxMail.objects.filter(pk=row.pk, status=OutboxMail.Status.SENDING, attempts=row.attempts)
    if row.attempts >= MAX_ATTEMPTS:
        _give_up(mine, last_error=error)
    else:
        # Released: no one owns the row until the rescue queues it, once it is due.
        mine.update(
            status=OutboxMail.Status.FAILED,
            last_error=error,
            next_attempt_at=ended + backoff(row.attempts),
            leased_until=None,
        )


def _give_up(rows, **fields) -> None:
    for row_id, kind in rows.values_list("pk", "kind"):
        log.error("outbox row %s (%s) gave up after %s attempts", row_id, kind, MAX_ATTEMPTS)
    rows.update(status=OutboxMail.Status.DEAD, next_attempt_at=None, leased_until=None, composed=None, **fields)


def requeue_due(now: datetime) -> int:
    """Queue every due row no one holds: failed past its backoff, pending whose hand-off failed or
    whose message was lost (lease run out), or left in SENDING by a lost sender (lease run out).
    Also, at once, the rows queued by a process that died (campaigns/liveness.py): its publish may
    never have been made; and the rows whose message a consumer took and never started (a worker
    killed whole): a queued lease MAIL_TAKEN_SECONDS old, never cut to a sender's (``send_many``,
    ``claim``), whose message the mail queue no longer holds (campaigns/queued.py). A row whose
    message the queue shows waiting is not queued again, even past its lease (a long backlog): its
    lease is renewed instead. Each is leased to the message queued for it, so it is queued once.
    Returns how many."""
    S = OutboxMail.Status
    _resume_parked(now)
    dead = liveness.dead(now)
    me = holder_id()
    orphaned = Q(held_by__in=dead) if dead else Q(pk__in=[])
    free = Q(leased_until__isnull=True) | Q(leased_until__lte=now) | orphaned
    # A queued lease is longer than a sender's; how long it has left tells its age.
    doubtful = queued_lease() - timedelta(seconds=settings.MAIL_TAKEN_SECONDS)
    taken = Q(leased_until__gt=now + send_lease(), leased_until__lte=now + doubtful)
    with transaction.atomic():
        lost = list(
            OutboxMail.objects.select_for_update(skip_locked=True)
            .filter(Q(leased_until__lte=now) | Q(held_by__in=liveness.dead(now, certain=True)), status=S.SENDING)
            .values_list("pk", flat=True)
        )
        OutboxMail.objects.filter(pk__in=lost).update(
            status=S.FAILED,
            last_error="sender lost before it finished (lease expired or sender dead)",
            leased_until=None,
        )
    _give_up(OutboxMail.objects.filter(status=S.FAILED, attempts__gte=MAX_ATTEMPTS))
    due = OutboxMail.objects.filter(status__in=[S.PENDING, S.FAILED], next_attempt_at__lte=now)
    # The broker is read before any row is locked, and only when a row is in doubt.
    waiting = _waiting_rows() if due.filter(free | taken).exists() else None
    with transaction.atomic():
        found = list(
            due.select_for_update(skip_locked=True)
            .filter(free | taken if waiting is not None else free)
            .order_by("next_attempt_at")
            .values_list("pk", flat=True)[:RESCUE_BATCH]
        )
        renewed = [pk for pk in found if waiting is not None and pk in waiting]
        ids = [pk for pk in found if waiting is None or pk not in waiting]
        OutboxMail.objects.filter(pk__in=renewed).update(leased_until=now + queued_lease())
        OutboxMail.objects.filter(pk__in=ids).update(leased_until=now + queued_lease(), held_by=me)
    enqueue(ids)
    if dead:  # forgotten once nothing waits in their name
        held = OutboxMail.objects.filter(status__in=[S.PENDING, S.FAILED, S.SENDING], held_by__in=dead)
        liveness.forget(sorted(set(dead) - set(held.values_list("held_by", flat=True))))
    return len(ids)


def _waiting_rows() -> set[int] | None:
    """The rows whose send or send-many message waits in the mail queue; None if unknown."""
    found = queued.waiting_all([SEND_TASK, SEND_MANY_TASK])
    if found is None:
        return None
    return {args[0] for args in found[SEND_TASK]} | {pk for args in found[SEND_MANY_TASK] for pk in args[0]}


def resend(rows) -> int:
    """Queue DEAD rows afresh (the operator's ``resend_mail``, the umpire's button): attempts start
    again; the Message-ID is kept, so a receiver that did get it once drops the copy."""
    S = OutboxMail.Status
    now, me = timezone.now(), holder_id()
    with transaction.atomic():
        ids = list(rows.select_for_update(skip_locked=True).filter(status=S.DEAD).values_list("pk", flat=True))
        OutboxMail.objects.filter(pk__in=ids).update(
            status=S.PENDING,
            attempts=0,
            next_attempt_at=now,
            leased_until=now + queued_lease(),
            held_by=me,
            composed=None,  # built afresh, with today's Date
        )
        transaction.on_commit(_send_after_commit([ids]), robust=True)
    return len(ids)


def dead(game=None):
    """The rows given up on (all, or one game's), newest first."""
    rows = OutboxMail.objects.filter(status=OutboxMail.Status.DEAD)
    return (rows.filter(game=game) if game is not None else rows).order_by("-created_at")
