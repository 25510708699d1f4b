"""An outbox row's message: built from the row, and flattened ahead of its send where it can be.

Building a report's message (its text, its HTML and its map in base64) and flattening it
cost the mail worker about 12 ms of CPU a report, more than half of its work per mail; after an
SMTP outage that bounded how fast the backlog drained (bench/load.py --fault smtp-freeze). So the
render queue, which draws a report's map ahead of its send (pictures.py), flattens the whole
message right after (``compose``) and keeps the bytes on the row (``OutboxMail.composed``): while
the SMTP server is down or slow the waiting mail is composed, and once it answers the sender only
claims each row and hands its bytes over. A row with no composed bytes (no map, a render lost or
still to come, a mail backend that takes fields rather than MIME) is built at its send as before.

The Date header is written when the message is composed, i.e. when it was ready to go out (RFC
5322 3.6.1), not when an outage ended. ``outbox.resend`` drops the bytes so a resent row is
composed afresh; a row SENT or DEAD drops them too.
"""

from __future__ import annotations

import base64

from django.conf import settings
from django.core import mail
from django.core.mail.backends.smtp import EmailBackend as SmtpBackend
from django.utils import timezone

from campaigns.i18n import seat_language
from campaigns.models import OutboxMail
from campaigns.turns.localtime import local_date, seat_timezone

from . import pictures, unsubscribe
from .eml_backend import EmlFileBackend
from .mapmail import ComposedMail, MapMail

WAITING = (OutboxMail.Status.PENDING, OutboxMail.Status.FAILED)


def list_id(game) -> str:
    """The game's List-Id (RFC 2919): its uid under MAIL_MESSAGE_ID_DOMAIN, one list per game, so a
    reader's filters and a provider's reputation can tell one game's mail from another's."""
    return f"{game.uid}.{settings.MAIL_MESSAGE_ID_DOMAIN}"


def build_message(row: OutboxMail) -> MapMail:
    headers = {
        "Message-ID": row.message_id,
        "Auto-Submitted": "auto-generated",
        # Asks Exchange/Outlook not to answer with out-of-office replies.
        "X-Auto-Response-Suppress": "All",
    }
    if row.in_reply_to:
        headers["In-Reply-To"] = row.in_reply_to
    if row.references:
        headers["References"] = " ".join(row.references)
    if row.game_id:
        headers["X-Kriegsbrief-Game"] = str(row.game.uid)
    if row.seat_id:
        # What large providers want of mail they deliver (issue 30): a one-click way to get less
        # (unsubscribe.py), and the language the seat's mail is written in (i18n.for_seat).
        headers.update(unsubscribe.headers(row.seat))
        headers["Content-Language"] = seat_language(row.seat)
    headers["Date"] = local_date(seat_timezone(row.seat if row.seat_id else None), timezone.now())
    picture = pictures.map_attachment(row.svg) if row.svg else None
    # The map once: in the HTML text (by Content-ID), or attached to a message without HTML (mapmail.py).
    msg = MapMail(
        subject=row.subject,
        body=row.body,
        to=[row.to],
        headers=headers,
        reply_to=[row.reply_to] if row.reply_to else None,
        inline_map=picture if row.html else None,
        list_id=(row.game.name, list_id(row.game)) if row.game_id else None,
    )
    if row.html:
        msg.attach_alternative(row.html, "text/html")
    elif picture:
        msg.attach(*picture)
    for a in row.attachments:
        msg.attach(a["filename"], base64.b64decode(a["content_b64"]), a["mimetype"])
    return msg


def flattens(backend) -> bool:
    """Whether a mail backend sends the flattened MIME message (SMTP, the .eml folder), so that bytes
    composed ahead can stand in for it. An email API's backend (anymail) sends the fields instead."""
    return isinstance(backend, (SmtpBackend, EmlFileBackend))


def message_for(row: OutboxMail, backend) -> MapMail | ComposedMail:
    """What to send for a claimed row over ``backend``: its composed bytes where it has them and the
    backend sends bytes, else the message built now."""
    if row.composed is not None:
        if flattens(backend):
            return ComposedMail(bytes(row.composed), row.to)
        # Read as its bytes alone (outbox._claimed): the whole row, to build it from its fields.
        row = OutboxMail.objects.select_related("game", "seat__user__profile").get(pk=row.pk)
    return build_message(row)


def compose(row_id: int) -> bool:
    """Flatten a waiting row's message and keep it on the row (the render task, after the map);
    False if the row is being sent or sent already, is composed already, or the backend sends fields.

    Written only while the row still waits: a sender that claimed it meanwhile builds its own, and
    the bytes are never put on a row that is sending or sent."""
    if not flattens(mail.get_connection()):
        return False
    rows = OutboxMail.objects.filter(pk=row_id, status__in=WAITING, composed__isnull=True)
    row = rows.select_related("game", "seat__user__profile").first()
    if row is None:
        return False
    raw = build_message(row).message().as_bytes(linesep="\r\n")
    return bool(rows.update(composed=raw))
