"""Replies to inbound mail: through the durable outbox, rate-limited per thread.

A thread is one (recipient, seat) pair; at most MAIL_REPLIES_PER_THREAD_HOUR
replies go to it per hour, so an auto-responder we failed to recognise still
cannot start a mail loop. Everything echoed into a header goes through
``mime.one_line``; the In-Reply-To we set is the sender's Message-ID only when
it has the syntax of one.
"""
from __future__ import annotations

import hashlib
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from campaigns import prepared
from campaigns.outbox import queue_mail

from .mime import MSGID_RE, one_line
from .models import InboundMessage


def thread_key(recipient: str, seat_id: int | None) -> str:
    return hashlib.sha256(f"{recipient.lower()}|{seat_id or ''}".encode()).hexdigest()[:32]


def reply_subject(subject: str) -> str:
    subject = one_line(subject, 120) or "your message"
    return subject if subject.lower().startswith("re:") else f"Re: {subject}"


def throttled(key: str) -> bool:
    since = InboundMessage(replied_at=timezone.now() - timedelta(hours=1))
    sent, = prepared.fetchone(  # prepared: this runs for every reply
        "SELECT count(*) FROM mailin_inboundmessage WHERE thread_key = %s AND replied_at >= %s",
        [key, prepared.db_value(since, "replied_at")])
    return sent >= settings.MAIL_REPLIES_PER_THREAD_HOUR


def reply(row: InboundMessage, *, to: str, body: str, purpose: str, seat=None, subject: str | None = None,
          reply_to: str | None = None) -> bool:
    """Queue one reply to ``row``; False when rate-limited. Idempotent per (row, purpose).

    ``reply_to``: the seat's live reply address when the caller already holds it
    (saves a query); otherwise the outbox looks it up for the seat."""
    key = thread_key(to, seat.pk if seat else None)
    row.thread_key = key
    if throttled(key):
        row.result.setdefault("replies", []).append(f"{purpose}: suppressed, too many replies in this thread")
        return False
    msgid = row.message_id if MSGID_RE.fullmatch(row.message_id or "") else None
    queue_mail(
        key=f"mailin:{row.pk}:{purpose}", to=to, subject=subject or reply_subject(row.subject), body=body,
        game=seat.game if seat else None, seat=seat, in_reply_to=msgid, references=(msgid,) if msgid else (),
        kind="mail-reply", reply_to=reply_to,
    )
    row.replied_at = timezone.now()
    row.result.setdefault("replies", []).append(purpose)
    return True


def notify(row: InboundMessage, *, seat, body: str, subject: str, purpose: str) -> None:
    """A message to another seat (the umpire, a side): not a reply, not throttled per sender thread."""
    queue_mail(key=f"mailin:{row.pk}:{purpose}", to=seat.email, subject=one_line(subject, 200), body=body,
               game=seat.game, seat=seat, kind="mail-forward")
