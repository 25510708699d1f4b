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
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

from django.db.models.fields.json import KeyTextTransform

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
    return raw[min(cut):].lstrip(b"\r\n") if cut else b""


def body_hash(raw: bytes) -> str:
    return hashlib.sha256(body_of(raw)).hexdigest()


def record(row: InboundMessage, msg: Parsed) -> None:
    """Note an applied message's Date and body on its row, for the check of later ones."""
    when = message_date(msg)
    row.result["date"] = when.isoformat() if when else ""
    row.result["body_sha256"] = body_hash(bytes(row.raw))


def suspect(row: InboundMessage, seat, msg: Parsed) -> str | None:
    """Why this message looks like a replay of the seat's earlier mail (hold it), or None."""
    # Only mail stored before this one: a copy is stored after its original, while a message retried
    # after a failure, or taken in the same batch, may be processed after later ones.
    last = (InboundMessage.objects.filter(seat=seat, status=InboundMessage.Status.APPLIED, pk__lt=row.pk)
            .annotate(date=KeyTextTransform("date", "result"))
            .exclude(date__isnull=True).order_by("-date")
            .values_list("date", "result").first())
    # Undated rows hold "": they sort last, so "" here means no dated mail was applied. (Not
    # excluded in SQL: on SQLite Django compares a key transform with "" as JSON_EXTRACT('', '$').)
    if last is None or not last[0]:
        return None
    last_date, last_result = last
    when = message_date(msg)
    newest = datetime.fromisoformat(last_date)
    if when is None:
        return "it has no readable Date header, so it cannot be told from a replayed copy of earlier mail"
    if when < newest:
        return (f"its Date ({when:%Y-%m-%d %H:%M:%S} UTC) is older than the newest message already applied "
                f"from this seat ({newest:%Y-%m-%d %H:%M:%S} UTC): it may be a replayed copy")
    if when == newest and body_hash(bytes(row.raw)) == last_result.get("body_sha256"):
        return "it repeats the last message applied from this seat (same Date, same text) under a new Message-ID"
    return None
