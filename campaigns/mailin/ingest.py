"""The one ingestion function every way in ends at (stdin, webhook, IMAP).

1. ``store``: the raw bytes (up to MAIL_KEEP_MAX_BYTES) are written and
   committed first, one row per delivery: keyed by Message-ID (sha256 of the
   bytes when there is none) and the envelope recipient, so a redelivery
   changes nothing and nothing accepted can be lost; the same Message-ID with
   another body is stored as a message of its own, and so is the same message
   delivered to another seat address (each game reads only its own delivery).
   A way in without one envelope recipient per delivery (IMAP, the webhook)
   splits a message into one delivery per seat address it went to.
2. ``process``: in a second transaction, with the row locked: size and MIME
   caps, automatic mail (recorded, never answered), the sender (exactly one
   From; the seat token in the recipient; From = the seat's registered
   address; our MTA's DMARC/DKIM verdict, and with MAIL_REQUIRE_AUTHENTICATION
   that verdict must be there), a replay check (``replay.py``: older than the
   seat's last applied mail is held), then orders and commands, and a reply. A
   refusal is answered only to a seat's registered address or to a sender
   our MTA found genuine (no backscatter to forged Froms). Any exception rolls the work back and marks the row FAILED with
   the error; ``retry_pending`` runs it again.

``ingest_many`` is the same for a batch (the IMAP poller's fetch): every raw
message of the batch is stored in one durable commit before anything else
happens to any of them; then each is processed as above inside one
transaction (a failure rolls back that message only and is recorded on its
row: the transaction is run again with a savepoint per message), committed
once, its replies handed to the broker in one publish after the commit
(``outbox.one_wakeup``). A message whose processing
queued work for after its commit other than mail (a turn it closed is
adjudicated after commit) commits the batch so far, so that work runs where
it would after that message alone. A crash mid-batch leaves its rows
RECEIVED, for ``retry_pending``. Three statements a message, the rest once a
batch: the batch's games are locked up front (``gamelog.holding_locks``), and
its replay checks read and its rows' results written once (batch.py).

Logs name rows by id and status only: addresses carry secret tokens.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, nullcontext
from datetime import timedelta
from email.parser import BytesHeaderParser
from email.policy import compat32

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from campaigns import prepared
from campaigns.i18n import for_seat, mail_language, render, seat_language
from campaigns.mailout import bouncemail, health, outbox
from campaigns.models import Profile
from campaigns.turns import addresses, gamelog
from rules.core.i18n import Msg, gettext_noop, message_of, to_data

from . import apply, batch, bounces, replay, replies, screen
from .mime import MimeError, Parsed, message_id_of, one_line, parse
from .mime import addresses as parse_addresses
from .models import InboundMessage

log = logging.getLogger(__name__)
Status = InboundMessage.Status
MAX_ATTEMPTS = 5
HEADER_KEEP = 64 * 1024
STORE_HEADER_BYTES = 256 * 1024  # read for the Message-ID and the recipients when a message is stored
RECIPIENT_HEADERS = ("Delivered-To", "X-Original-To", "Envelope-To", "To", "Cc")
RESULT_FIELDS = [
    "status",
    "error",
    "attempts",
    "processed_at",
    "seat",
    "from_addr",
    "subject",
    "thread_key",
    "replied_at",
    "result",
]
UNKNOWN_SENDER = gettext_noop(
    "Your message was not accepted: this address does not take mail from your address.\n"
    "Players send orders by replying to their own game reports, from the address they registered."
)
REVOKED = gettext_noop(
    "Your message was not accepted: this reply address has been revoked.\n"
    "Reply to your latest report instead: it carries your current address."
)


def ingest(raw: bytes, *, via: str, envelope_to: str = "") -> InboundMessage:
    """Store one delivery of a raw message (to ``envelope_to``, as an MTA pipe hands it over)
    and process it; a delivery seen before is returned untouched."""
    row, created = store(raw, via=via, envelope_to=envelope_to)
    if created:
        row = process(row.pk)
    return row


def ingest_deliveries(raw: bytes, *, via: str, envelope_to: str = "") -> list[InboundMessage]:
    """``ingest`` for a way in that hands over a message once for all its recipients (the
    webhook): one delivery per seat address it went to (``deliveries``), each stored, then
    processed on its own, so that every game reads and answers its own."""
    stored = [_insert(row) for row in _new_rows(raw, via=via, envelope_to=envelope_to, split=True)]
    return [process(row.pk) if created else row for row, created in stored]


def ingest_many(raws: list[bytes], *, via: str) -> list[InboundMessage]:
    """``ingest`` for a batch, one row per delivery (``store_many``) in order: all stored in one
    commit, then processed in one transaction (a savepoint each), with the outcome of each
    exactly as ``ingest`` one by one would give it. Not inside a caller's transaction."""
    stored = store_many(raws, via=via)
    done = process_many([row.pk for row, created in stored if created])
    return [done.get(row.pk, row) for row, _ in stored]


def store(raw: bytes, *, via: str, envelope_to: str = "") -> tuple[InboundMessage, bool]:
    """Store the delivery of ``raw`` to ``envelope_to``: (its row, whether it is new)."""
    return _insert(_new_row(raw, via=via, envelope_to=envelope_to))


def _insert(row: InboundMessage) -> tuple[InboundMessage, bool]:
    # One INSERT ... ON CONFLICT DO NOTHING: in autocommit it is durable when it
    # returns; a duplicate is no error, so it needs no savepoint in a caller's transaction.
    if prepared.insert_unless_exists(row, "dedupe_key"):
        return row, True
    stored = InboundMessage.objects.defer("raw").get(dedupe_key=row.dedupe_key)
    return _store_if_distinct(row, stored)


def _store_if_distinct(row: InboundMessage, stored: InboundMessage) -> tuple[InboundMessage, bool]:
    """``row`` lost its insert to ``stored`` (the same Message-ID to the same recipient). A
    redelivery (the same body, whatever trace headers were added on the way) is ``stored``; a
    different body under the same Message-ID (a broken client, a script) is a message of its
    own, stored under the Message-ID, the recipient and its body's hash, and processed like any other."""
    if not row.message_id or _same_body(stored, bytes(row.raw)):
        return stored, False
    row.dedupe_key = f"{delivery_key(row.message_id, row.envelope_to)}#{replay.body_hash(bytes(row.raw))[:16]}"
    if prepared.insert_unless_exists(row, "dedupe_key"):
        return row, True
    return InboundMessage.objects.defer("raw").get(dedupe_key=row.dedupe_key), False


def _same_body(stored: InboundMessage, raw: bytes) -> bool:
    old = replay.body_of(bytes(InboundMessage.objects.values_list("raw", flat=True).get(pk=stored.pk)))
    new = replay.body_of(raw)
    # A message kept only in part (MAIL_KEEP_MAX_BYTES) is the same if the new one begins with what was kept.
    return new.startswith(old) if stored.size > settings.MAIL_KEEP_MAX_BYTES else new == old


def store_many(raws: list[bytes], *, via: str) -> list[tuple[InboundMessage, bool]]:
    """Store a batch (the IMAP poller's: no envelope) in one durable commit: (row, created) per
    delivery, in order: a raw message gives one delivery per seat address it went to
    (``deliveries``). A delivery stored before, or twice in the batch, is the row stored
    first, with created False."""
    rows = [row for raw in raws for row in _new_rows(raw, via=via, split=True)]
    with transaction.atomic(durable=True):
        created = prepared.insert_many_unless_exist(rows, "dedupe_key")
    first = {}
    for row, new in zip(rows, created, strict=True):
        if new:
            first.setdefault(row.dedupe_key, row)
    missing = {row.dedupe_key for row in rows} - first.keys()
    if missing:
        first.update((r.dedupe_key, r) for r in InboundMessage.objects.defer("raw").filter(dedupe_key__in=missing))
    # A duplicate Message-ID with a body of its own is a message of its own (``_store_if_distinct``).
    return [
        (row, True) if new else _store_if_distinct(row, first[row.dedupe_key])
        for row, new in zip(rows, created, strict=True)
    ]


def delivery_key(key: str, envelope_to: str) -> str:
    """The key of one delivery: the message's (its Message-ID, or the sha256 of its bytes) and,
    when there is one, the envelope recipient it was delivered to."""
    return f"{key} to {envelope_to.lower()}" if envelope_to else key


def _new_row(raw: bytes, *, via: str, envelope_to: str = "") -> InboundMessage:
    return _new_rows(raw, via=via, envelope_to=envelope_to)[0]


def _new_rows(raw: bytes, *, via: str, envelope_to: str = "", split: bool = False) -> list[InboundMessage]:
    """The rows of a raw message's deliveries: one to ``envelope_to`` (with none, to the first
    seat address the message names), or with ``split`` one to each seat address it went to
    (``deliveries``)."""
    try:
        headers = BytesHeaderParser(policy=compat32).parsebytes(raw[:STORE_HEADER_BYTES])
        mid = message_id_of(headers)
    except Exception:  # the header block itself is unreadable: key by content
        headers, mid = None, ""
    key = mid or "sha256:" + hashlib.sha256(raw).hexdigest()
    # Every message is kept byte for byte up to the hard cap MAIL_KEEP_MAX_BYTES (an oversized one
    # too: it is refused, not lost); beyond the cap only its beginning is kept, and ``size`` says how
    # large it was, so the row shows what is missing.
    kept = raw if len(raw) <= settings.MAIL_KEEP_MAX_BYTES else raw[: settings.MAIL_KEEP_MAX_BYTES]
    # Without an envelope (a file, a test) the delivery is to the first seat address it names, as
    # the same message taken over IMAP would be: one key for it whichever way it came.
    recipients = deliveries(headers, envelope_to) if split else [envelope_to or deliveries(headers)[0]]
    return [
        InboundMessage(
            dedupe_key=delivery_key(key, to[:300]),
            message_id=mid,
            raw=kept,
            size=len(raw),
            via=via[:20],
            envelope_to=to[:300],
        )
        for to in recipients
    ]


def deliveries(headers, envelope_to: str = "") -> list[str]:
    """Where a message handed over once for all its recipients was delivered: each seat address
    among the envelope recipients (``envelope_to``, comma-separated) and the recipient headers,
    once per token (the first spelling met); ``envelope_to`` alone (may be "") when none is one."""
    candidates = [a.strip() for a in envelope_to.split(",") if a.strip()]
    if headers is not None:
        for name in RECIPIENT_HEADERS:
            try:
                candidates += parse_addresses([str(v) for v in headers.get_all(name, [])])
            except Exception:  # a malformed header names nobody
                continue
    seen: dict[str, str] = {}
    for addr in candidates:
        token = addresses.parse_token(addr)
        if token is not None:
            seen.setdefault(token, addr)
    return list(seen.values()) or [envelope_to]


def process(pk: int) -> InboundMessage:
    """Process a stored message once; a failure rolls everything back and is recorded on the row."""
    try:
        with transaction.atomic():
            row = _process_locked(pk)
    except Exception as exc:
        return _failed(pk, exc)
    log.info("inbound message %s: %s", row.pk, row.status)
    return row


def process_many(pks: list[int]) -> dict[int, InboundMessage]:
    """``process`` for each stored message in turn, in one transaction; returns the rows by pk.
    Committed once, and also after any message that queued work for after its commit other
    than mail, which then runs before the next message.

    Optimistic: the messages of a transaction run without a savepoint each (two round trips
    and most of a millisecond of Python less per message). Should one of them raise, the
    whole transaction is rolled back, its mail and after-commit work with it, and the same
    messages run again from their stored rows with a savepoint each, so that the failure rolls
    back that message only and is recorded on its row, as ``process`` would."""
    done, todo = {}, list(pks)
    while todo:
        try:
            todo = _one_commit(todo, done, isolated=False)
        except _Redo:
            todo = _one_commit(todo, done, isolated=True)
    return done


class _Redo(Exception):
    """A message of an optimistic transaction raised: roll it all back and run it isolated."""


def _one_commit(todo: list[int], done: dict[int, InboundMessage], *, isolated: bool) -> list[int]:
    """Process messages of ``todo`` in one transaction (see ``process_many``); returns the rest."""
    todo, mine = list(todo), {}
    with transaction.atomic(durable=True):
        rows = _lock_all(todo)
        # The games the batch writes to are locked now, in one statement and in id order (as
        # every batch locks them: two never wait on each other in a cycle); each message's load
        # then reads its game without locking it again (gamelog.holding_locks). A game of a
        # message that turns out not to be applied is held till the commit too: as it would be
        # behind any message of the batch that was.
        games = _prefetch_addresses(rows.values())
        with gamelog.holding_locks(games, preload=True), nullcontext() if isolated else _optimistic(rows.values()):
            while todo:
                pk = todo.pop(0)
                queued = len(connection.run_on_commit)
                mine[pk] = _process_isolated(pk, rows.get(pk)) if isolated else _process_or_redo(pk, rows.get(pk))
                if not all(outbox.is_mail_wakeup(f) for _, f, _ in connection.run_on_commit[queued:]):
                    break
        outbox.one_wakeup()  # the batch's acknowledgements reach the broker in one publish
    done.update(mine)
    for pk, row in mine.items():
        log.info("inbound message %s: %s", pk, row.status)
    return todo


@contextmanager
def _optimistic(rows: Iterable[InboundMessage]) -> Iterator[None]:
    """The optimistic transaction's batch (batch.py): the replay checks of the messages whose
    seat their address tells read now, the results written at the end; a failure to write
    them is a message's failure like any other (run again isolated)."""
    with batch.opened(RESULT_FIELDS) as held:
        replay.prefetch(held, [check for check in map(_expected_check, rows) if check is not None])
        yield
        try:
            held.finish()
        except Exception as exc:
            raise _Redo() from exc


def _expected_check(row: InboundMessage) -> tuple[int, int, tuple[str, ...]] | None:
    """(row pk, seat id, thread keys) ``replay.suspect`` will be asked for, as far as the
    address the message went to tells (``_prefetch_addresses``); None if it does not."""
    if row.status not in (Status.RECEIVED, Status.FAILED) or "parsed" not in row.__dict__:
        return None
    address = _seat_address(row, row.parsed)
    row.prefetched_address = (row.parsed, address)  # ``_seat_address`` of this message: found once
    if address is None:
        return None
    return row.pk, address.seat_id, replies.lanes(address.seat.email, address.seat_id)


def _process_or_redo(pk: int, row: InboundMessage | None) -> InboundMessage:
    try:
        return _process_locked(pk, row)
    except Exception as exc:
        raise _Redo(pk) from exc


def _process_isolated(pk: int, row: InboundMessage | None) -> InboundMessage:
    try:
        with transaction.atomic():
            return _process_locked(pk, row)
    except Exception as exc:
        return _failed(pk, exc)


def _prefetch_addresses(rows: Iterable[InboundMessage]) -> set[int]:
    """Parse each message of a batch and read the seat addresses of all their recipients in one
    statement (``addresses.prefetch``), for ``_handle`` and ``_seat_address`` to use. The rows are
    those of this transaction's start, as a message processed at once would read them. A message
    that cannot be parsed here is left alone: its own processing parses it again and says why.
    Returns the ids of the games those addresses belong to."""
    todo = [row for row in rows if row.status in (Status.RECEIVED, Status.FAILED)]
    for row in todo:
        if row.size <= settings.MAIL_MAX_BYTES:
            try:
                row.parsed = parse(bytes(row.raw), max_parts=settings.MAIL_MAX_PARTS)
            except Exception:
                continue
    known = addresses.prefetch(a for row in todo if "parsed" in row.__dict__ for a in _recipients(row, row.parsed))
    for row in todo:
        row.known_addresses = known
    return addresses.games_of(known)


def _process_locked(pk: int, row: InboundMessage | None = None) -> InboundMessage:
    """The work of ``process`` inside the caller's transaction; exceptions propagate.
    ``row``: the message as read with its row lock already taken in this transaction."""
    row = row if row is not None else _locked(pk)
    if row.status not in (Status.RECEIVED, Status.FAILED):
        return row
    row.attempts += 1
    row.result = {}
    _handle(row)
    row.processed_at = timezone.now()
    held = batch.current()
    if held is None:
        prepared.update(row, RESULT_FIELDS)  # never the raw bytes again
    else:
        held.save(row)  # written with the batch's others before the commit (batch.py)
        held.processed(row)
    return row


def _locked(pk: int) -> InboundMessage:
    """The stored message, its row locked until the end of the transaction (a prepared statement)."""
    sql = (
        f"SELECT {prepared.columns(InboundMessage, 'm')} FROM mailin_inboundmessage m WHERE m.id = %s"
        + prepared.for_update()
    )
    found = prepared.fetchone(sql, [pk])
    if found is None:
        raise InboundMessage.DoesNotExist(f"inbound message {pk} does not exist")
    return prepared.instance(InboundMessage, found)


def _lock_all(pks: list[int]) -> dict[int, InboundMessage]:
    """``_locked`` for many messages in one statement, locked in id order (as any other batch
    locks them, so two never wait on each other in a cycle)."""
    sql = (
        f"SELECT {prepared.columns(InboundMessage, 'm')} FROM mailin_inboundmessage m"
        f" WHERE m.id IN ({', '.join(['%s'] * len(pks))}) ORDER BY m.id" + prepared.for_update()
    )
    rows = (prepared.instance(InboundMessage, found) for found in prepared.fetchall(sql, list(pks)))
    return {row.pk: row for row in rows}


def _failed(pk: int, exc: Exception) -> InboundMessage:
    # The work of this attempt, its events and its mail were rolled back with
    # the transaction; what is left is the stored message and why it failed.
    error = f"{type(exc).__name__}: {exc}"[:4000]
    InboundMessage.objects.filter(pk=pk).update(
        status=Status.FAILED, error=error, attempts=F("attempts") + 1, processed_at=timezone.now(), result={}
    )
    log.error("inbound message %s failed (%s)", pk, type(exc).__name__)
    return InboundMessage.objects.defer("raw").get(pk=pk)


def retry_pending(now=None) -> int:
    """Process rows that failed, or that a crash left unprocessed; returns how many were tried."""
    now = now or timezone.now()
    stuck = InboundMessage.objects.filter(status=Status.RECEIVED, received_at__lte=now - timedelta(minutes=1))
    failed = InboundMessage.objects.filter(status=Status.FAILED, attempts__lt=MAX_ATTEMPTS)
    ids = list(stuck.values_list("pk", flat=True)) + list(failed.values_list("pk", flat=True))
    for pk in ids:
        process(pk)
    return len(ids)


# --- the checks --------------------------------------------------------------


def _finish(row: InboundMessage, status: str, error: str = "") -> None:
    """``error`` in English for the record; a marked one is kept too, for the umpire's page in their language."""
    row.status, row.error = status, str(error)
    if isinstance(error, Msg):
        row.result["why"] = to_data(error)


def _language(to: str, seat) -> str:
    """The language of a reply to ``to``: the seat's, else that of the user who confirmed that
    address, else the site's (a stranger's mail: nothing says more)."""
    if seat is not None:
        return seat_language(seat)
    profile = Profile.objects.filter(verified_email__iexact=to).select_related("user").first()
    return mail_language(profile.user if profile else None)


def _reject(
    row: InboundMessage, reason: str, *, to: str | None, msg: Parsed | None, seat=None, detail: str | None = None
) -> None:
    """Record why the message was refused and tell the sender, if there is one to tell: a seat's
    registered address, or a stranger our MTA found genuine. Anyone else may be a forged From,
    and an answer would go to an innocent third party (backscatter): recorded silently."""
    _finish(row, Status.REJECTED, reason)
    if not to:
        row.result["replies"] = ["none: no sender address to answer"]
    elif seat is None and not _registered(row, msg, to) and not screen.sender_verified(msg, to, row.via):
        row.result["replies"] = ["none: the sender is no seat's and our mail server did not find it genuine"]
    else:
        with translation.override(_language(to, seat)):
            said = render(detail or Msg(gettext_noop("Your message was not accepted: {reason}"), reason=reason))
            replies.reply(row, to=to, seat=seat, purpose="rejected", body=said + "\n")


def _registered(row: InboundMessage, msg: Parsed | None, sender: str) -> bool:
    """Whether ``sender`` is the registered address of the seat whose reply address this went to."""
    address = _seat_address(row, msg) if msg is not None else None
    return address is not None and address.seat.email.lower() == sender.lower()


def _handle(row: InboundMessage) -> None:
    raw = bytes(row.raw)
    if row.message_id and row.dedupe_key != delivery_key(row.message_id, row.envelope_to):
        row.result["note"] = "a Message-ID seen before with another body: stored and processed as a message of its own"
    if row.size > settings.MAIL_MAX_BYTES:
        headers = _named(row, _headers_only(raw))
        token = bounces.token_of(row.envelope_to, headers) if headers is not None else None
        if token is not None:  # a report with a large original attached: its report part comes first
            return _bounced(row, raw[: settings.MAIL_MAX_BYTES], token)
        return _reject(row, _too_large(row, raw), to=_sender(headers), msg=headers)
    try:
        msg = row.__dict__.pop("parsed", None) or parse(raw, max_parts=settings.MAIL_MAX_PARTS)
    except MimeError as exc:
        headers = _named(row, _headers_only(raw))
        return _reject(row, message_of(exc), to=_sender(headers), msg=headers)
    row.subject = one_line(msg.first("Subject"), 300)
    row.from_addr = ", ".join(parse_addresses(msg.all("From")))[:300]
    token = bounces.token_of(row.envelope_to, msg)
    if token is not None:
        return _bounced(row, raw, token)
    auto = screen.automatic(msg)
    if auto:
        return _finish(row, Status.IGNORED, f"automatic mail ({auto}): recorded, not answered")
    _authenticated(row, msg)


def _bounced(row: InboundMessage, raw: bytes, token: str) -> None:
    """Mail to a seat's return path: a delivery report is recorded for the seat's address health
    (and the umpire told when it makes the address failing); never answered, like any automatic mail."""
    found = bounces.read(raw)
    recorded = health.record(token, found)
    row.seat = recorded.seat
    row.result["bounce"] = {"hard": recorded.hard, "soft": recorded.soft, "statuses": [b.status for b in found]}
    if recorded.became_failing and recorded.health is not None:
        bouncemail.tell_umpire(recorded.health)
        row.result["bounce"]["failing"] = True
    if recorded.seat is None:
        why = "mail to an unknown return path"
    elif not found:
        why = "mail to a return path that is no delivery report (an auto-reply?)"
    else:
        why = f"delivery report: {recorded.hard} permanent, {recorded.soft} temporary failure(s) recorded"
    _finish(row, Status.IGNORED, f"{why}: recorded, not answered")


def _too_large(row: InboundMessage, raw: bytes) -> str:
    """Why an oversized message is refused, and how much of it is kept (the record and the reply say so)."""
    row.result["kept_bytes"] = len(raw)
    kept = (
        Msg(gettext_noop("it is kept whole ({size} bytes)"), size=row.size)
        if len(raw) >= row.size
        else Msg(
            gettext_noop("only its first {kept} bytes are kept (the store keeps at most {most})"),
            kept=len(raw),
            most=settings.MAIL_KEEP_MAX_BYTES,
        )
    )
    return Msg(
        gettext_noop(
            "the message is too large ({size} bytes; at most {most} are read), so nothing in it was applied; "
            "{kept}. Send your orders as plain text without attachments"
        ),
        size=row.size,
        most=settings.MAIL_MAX_BYTES,
        kept=kept,
    )


def _named(row: InboundMessage, msg: Parsed | None) -> Parsed | None:
    """A message that cannot be read still has a Subject and a From: the record and the reply keep them."""
    if msg is not None:
        row.subject = one_line(msg.first("Subject"), 300)
        row.from_addr = ", ".join(parse_addresses(msg.all("From")))[:300]
    return msg


def _headers_only(raw: bytes) -> Parsed | None:
    try:
        headers = BytesHeaderParser(policy=compat32).parsebytes(raw[:HEADER_KEEP])
        return Parsed(headers=[(k, str(v)) for k, v in headers.items()])
    except Exception:
        return None


def _sender(msg: Parsed | None) -> str | None:
    """Whom to answer: the one From address, else a single envelope sender, else nobody."""
    if msg is None:
        return None
    froms = parse_addresses(msg.all("From"))
    if len(msg.all("From")) == 1 and len(froms) == 1:
        return froms[0]
    paths = parse_addresses(msg.all("Return-Path"))
    return paths[0] if len(paths) == 1 else None


def _authenticated(row: InboundMessage, msg: Parsed) -> None:
    froms = parse_addresses(msg.all("From"))
    if len(msg.all("From")) != 1 or len(froms) != 1:
        return _reject(
            row, gettext_noop("a message must have exactly one From header with one address"), to=_sender(msg), msg=msg
        )
    sender = froms[0]
    address = _seat_address(row, msg)
    if address is None or address.seat.status != "active" or sender.lower() != address.seat.email.lower():
        # Unknown token and wrong sender get the same words: nothing about any game.
        return _reject(row, gettext_noop("unknown reply address or sender"), to=sender, msg=msg, detail=UNKNOWN_SENDER)
    seat = address.seat
    row.seat = seat
    if address.revoked_at is not None:
        return _reject(
            row,
            gettext_noop("this reply address has been revoked"),
            to=sender,
            msg=msg,
            seat=seat,
            detail=REVOKED,
        )
    held = screen.authentication(msg, sender, row.via)
    if held:
        return _hold(row, seat, held)
    _apply(row, seat, msg, reply_to=addresses.address_of(address))


def _recipients(row: InboundMessage, msg: Parsed) -> list[str]:
    """Where the message went, in the order its seat's address is looked for. A delivery to one
    of our seat addresses is read by that seat's game alone: the other recipients of the
    message are deliveries of their own."""
    if addresses.parse_token(row.envelope_to) is not None:
        return [row.envelope_to]
    candidates = [row.envelope_to] if row.envelope_to else []
    for name in RECIPIENT_HEADERS:
        candidates += parse_addresses(msg.all(name))
    return candidates


def _seat_address(row: InboundMessage, msg: Parsed):
    stashed = row.__dict__.get("prefetched_address")
    if stashed is not None and stashed[0] is msg:
        return stashed[1]
    known = row.__dict__.get("known_addresses")  # read for the whole batch (``_prefetch_addresses``)
    for addr in _recipients(row, msg):
        found = addresses.lookup(addr, known)
        if found is not None:
            return found
    return None


def _hold(row: InboundMessage, seat, reason: Msg) -> None:
    _finish(row, Status.HELD, reason)
    with for_seat(seat):
        replies.reply(
            row,
            to=seat.email,
            seat=seat,
            purpose="held",
            body=_("Your message is held for the umpire and not applied yet: %(reason)s.") % {"reason": render(reason)}
            + "\n"
            + _("The umpire will release or reject it; you will hear either way.")
            + "\n",
        )
    umpire = seat.game.seats.active().filter(role="umpire").first()
    if umpire is not None:
        with for_seat(umpire):
            who = pgettext("side", seat.side) if seat.side else _(seat.role)
            replies.notify(
                row,
                seat=umpire,
                purpose="held-umpire",
                subject="[Kriegsbrief] "
                + _("%(game)s: a message from %(seat)s is held") % {"game": seat.game.name, "seat": who},
                body=_("Inbound message #%(number)s from the %(seat)s seat is held: %(reason)s.")
                % {"number": row.pk, "seat": who, "reason": render(reason)}
                + "\n"
                + _("Release or reject it here: %(url)s")
                % {"url": settings.SITE_URL + reverse("mailin_held", args=[seat.game_id])}
                + "\n",
            )


def _apply(row: InboundMessage, seat, msg: Parsed, reply_to: str | None = None, *, released: bool = False) -> None:
    replayed = None if released else replay.suspect(row, seat, msg, also_count=replies.lanes(seat.email, seat.pk))
    if replayed:
        return _hold(row, seat, replayed)
    replay.record(row, msg)
    with for_seat(seat):  # the acknowledgement in the seat's language
        outcome = apply.carry_out(row, seat, msg)
        head = _("Your message to %(game)s (%(seat)s) was read as follows.") % {
            "game": seat.game.name,
            "seat": pgettext("side", seat.side) if seat.side else _(seat.role),
        }
    _finish(row, Status.APPLIED, f"{outcome.errors} error(s) reported to the sender" if outcome.errors else "")
    row.result["sections"] = len(outcome.sections)
    body = "\n\n".join([head, *outcome.sections]) + "\n"
    automatic = screen.automatic_subject(row.subject)
    if automatic and (outcome.orders_accepted is False or not outcome.read_anything):
        # An auto-responder without auto headers (an Outlook client rule: "Automatic reply: …"): its
        # template's lines read as orders were refused, or nothing was read. Nothing was applied, and
        # an answer would only feed the loop: recorded, not answered.
        row.result["replies"] = ["none: an automatic reply (by its subject) in which nothing was applied"]
        return
    person = outcome.read_anything and not automatic
    replies.reply(row, to=seat.email, seat=seat, purpose="ack", body=body, reply_to=reply_to, person=person)


def release(row: InboundMessage) -> InboundMessage:
    """Umpire: apply a held message as if it had passed authentication."""
    with transaction.atomic():
        row = InboundMessage.objects.select_for_update().get(pk=row.pk)
        if row.status != Status.HELD:
            raise ValueError(f"inbound message {row.pk} is {row.status}, not held")
        msg = parse(bytes(row.raw), max_parts=settings.MAIL_MAX_PARTS)
        _apply(row, row.seat, msg, released=True)
        row.result["released"] = True
        row.save(update_fields=RESULT_FIELDS)
    return row


def reject_held(row: InboundMessage, reason: str | None = None) -> InboundMessage:
    """Umpire: refuse a held message, telling its sender why (``reason``, the umpire's own words)."""
    why = reason or gettext_noop("rejected by the umpire")
    with transaction.atomic():
        row = InboundMessage.objects.select_for_update().get(pk=row.pk)
        if row.status != Status.HELD:
            raise ValueError(f"inbound message {row.pk} is {row.status}, not held")
        _finish(row, Status.REJECTED, why)
        with for_seat(row.seat):
            body = _("Your held message was not applied: %(reason)s.") % {"reason": render(why)} + "\n"
        replies.reply(row, to=row.seat.email, seat=row.seat, purpose="held-rejected", body=body)
        row.save(update_fields=RESULT_FIELDS)
    return row
