"""Replies to inbound mail: through the durable outbox, with a brake against mail loops.

A thread is one (recipient, seat) pair. The brake is for loops, so it is
strict only for traffic that could be one: rejections, holds, and
acknowledgements of mail in which nothing was read or whose subject says it
is automatic ("Automatic reply", "Автоответ"): at most
MAIL_REPLIES_PER_THREAD_HOUR of those an hour, then silence. A person's mail
(orders or commands were found in it) is acknowledged every time up to
MAIL_ACKS_PER_THREAD_HOUR an hour (a loop that echoes commands still ends);
past that, the next acknowledgement says once that acknowledgements are
paused and that their mail is still applied, and the rest of that hour's are
not sent. Everything echoed into a header goes through ``mime.one_line``; the
In-Reply-To we set is the sender's Message-ID only when it has the syntax of one.
"""

from __future__ import annotations

import hashlib
from contextlib import nullcontext
from datetime import timedelta

from django.conf import settings
from django.utils import timezone
from django.utils.translation import ngettext

from campaigns import prepared
from campaigns.i18n import for_seat
from campaigns.mailout.outbox import queue_mail

from . import batch
from .mime import MSGID_RE, one_line
from .models import InboundMessage


def thread_key(recipient: str, seat_id: int | None, lane: str = "") -> str:
    """The thread's key for one lane of replies: "" suspect traffic, "acks" a person's, "paused" the notice."""
    lane = f"|{lane}" if lane else ""
    return hashlib.sha256(f"{recipient.lower()}|{seat_id or ''}{lane}".encode()).hexdigest()[:32]


def lanes(recipient: str, seat_id: int | None) -> tuple[str, ...]:
    """Every thread key ``reply`` may count for one recipient and seat (see ``replay.suspect``)."""
    return tuple(thread_key(recipient, seat_id, lane) for lane in ("acks", "paused", ""))


def reply_subject(subject: str) -> str:
    subject = one_line(subject, 120) or "your message"
    return subject if subject.lower().startswith("re:") else f"Re: {subject}"


def sent_last_hour(key: str, row: InboundMessage | None = None) -> int:
    """Replies in thread ``key`` in the last hour; counted already when ``row`` carries the count
    (``replay.suspect`` counts them in its statement: one round trip less), used once."""
    counted = row.__dict__.get("sent_counts", {}).pop(key, None) if row is not None else None
    if counted is not None:
        return counted
    batch.flush()  # the replies of the batch's messages so far count
    since = InboundMessage(replied_at=timezone.now() - timedelta(hours=1))
    (sent,) = prepared.fetchone(  # prepared: this runs for every reply
        "SELECT count(*) FROM mailin_inboundmessage WHERE thread_key = %s AND replied_at >= %s",
        [key, prepared.db_value(since, "replied_at")],
    )
    return sent


def throttled(key: str, row: InboundMessage | None = None) -> bool:
    return sent_last_hour(key, row) >= settings.MAIL_REPLIES_PER_THREAD_HOUR


def reply(
    row: InboundMessage,
    *,
    to: str,
    body: str,
    purpose: str,
    seat=None,
    subject: str | None = None,
    reply_to: str | None = None,
    person: bool = False,
) -> bool:
    """Queue one reply to ``row``; False when the brake held it back. Idempotent per (row, purpose).

    ``person``: the reply acknowledges mail a person wrote (see the module's words on the brake).
    ``reply_to``: the seat's live reply address when the caller already holds it
    (saves a query); otherwise the outbox looks it up for the seat."""
    seat_id = seat.pk if seat else None
    key = thread_key(to, seat_id, "acks" if person else "")
    row.thread_key = key
    if person and sent_last_hour(key, row) >= settings.MAIL_ACKS_PER_THREAD_HOUR:
        if sent_last_hour(thread_key(to, seat_id, "paused"), row):
            return _suppressed(row, purpose)
        row.thread_key = thread_key(to, seat_id, "paused")
        body += paused_note(seat, settings.MAIL_ACKS_PER_THREAD_HOUR)
    elif not person and throttled(key, row):
        return _suppressed(row, purpose)
    msgid = row.message_id if MSGID_RE.fullmatch(row.message_id or "") else None
    queue_mail(
        key=f"mailin:{row.pk}:{purpose}",
        to=to,
        subject=subject or reply_subject(row.subject),
        body=body,
        game=seat.game if seat else None,
        seat=seat,
        in_reply_to=msgid,
        references=(msgid,) if msgid else (),
        kind="mail-reply",
        reply_to=reply_to,
        later=True,  # in a batch, written with the batch's others (batch.py)
    )
    row.replied_at = timezone.now()
    row.result.setdefault("replies", []).append(purpose)
    return True


def paused_note(seat, n: int) -> str:
    """The acknowledgement's last words when the next ones this hour are not sent, in the seat's language."""
    with for_seat(seat) if seat is not None else nullcontext():
        return (
            "\n"
            + ngettext(
                "ACKNOWLEDGEMENTS PAUSED: you have had %(n)s acknowledgement in the last hour, so the next ones "
                "this hour are not sent (a guard against mail loops). Your mail is still read and applied exactly "
                "as before; acknowledgements resume within the hour, and STATUS then shows your orders in force.",
                "ACKNOWLEDGEMENTS PAUSED: you have had %(n)s acknowledgements in the last hour, so the next ones "
                "this hour are not sent (a guard against mail loops). Your mail is still read and applied exactly "
                "as before; acknowledgements resume within the hour, and STATUS then shows your orders in force.",
                n,
            )
            % {"n": n}
            + "\n"
        )


def _suppressed(row: InboundMessage, purpose: str) -> bool:
    row.result.setdefault("replies", []).append(f"{purpose}: suppressed, too many replies in this thread")
    return False


def notify(row: InboundMessage, *, seat, body: str, subject: str, purpose: str) -> None:
    """A message to another seat (the umpire, a side): not a reply, not throttled per sender thread."""
    queue_mail(
        key=f"mailin:{row.pk}:{purpose}",
        to=seat.email,
        subject=one_line(subject, 200),
        body=body,
        game=seat.game,
        seat=seat,
        kind="mail-forward",
        later=True,  # in a batch, written with the batch's others (batch.py)
    )
