"""Mail in the tests: real MIME messages built for mail-in, and what the SMTP sink received read back."""

from __future__ import annotations

import itertools
import time
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import formatdate

from campaigns.models import OutboxMail
from campaigns.turns import addresses

_ids = itertools.count(1)
_last_date = [0.0]


def _date() -> str:
    """Now, but a second after the last message built here at the least: a person's messages carry
    rising Dates, and two of the same text in one second look like a replay (campaigns/mailin/replay.py)."""
    _last_date[0] = max(time.time(), _last_date[0] + 1)
    return formatdate(_last_date[0])


def mail(
    *,
    to: str,
    frm: str,
    body: str = "",
    subject: str = "Re: turn report",
    html: str | None = None,
    headers: dict | None = None,
    attachments=(),
    msgid: str | None = None,
    charset: str = "utf-8",
) -> bytes:
    msg = EmailMessage()
    msg["From"] = frm
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = _date()
    msg["Message-ID"] = msgid or f"<test-{next(_ids)}-{id(msg)}@client.example>"
    for name, value in (headers or {}).items():
        msg[name] = value
    if html is not None and not body:
        msg.set_content(html, subtype="html", charset=charset)
    else:
        msg.set_content(body, charset=charset)
        if html is not None:
            msg.add_alternative(html, subtype="html")
    for filename, content, mimetype in attachments:
        maintype, subtype = mimetype.split("/")
        if isinstance(content, str):
            msg.add_attachment(content, subtype=subtype, filename=filename)
        else:
            msg.add_attachment(content, maintype=maintype, subtype=subtype, filename=filename)
    return msg.as_bytes(policy=SMTP)


def seat_mail(seat, body: str = "", **kw) -> bytes:
    """A message from the seat's registered address to its reply address."""
    return mail(to=addresses.reply_address(seat), frm=f"Player <{seat.email}>", body=body, **kw)


def replies_to(addr: str, kind: str = "mail-reply") -> list[OutboxMail]:
    return list(OutboxMail.objects.filter(to=addr, kind=kind).order_by("pk"))


def last_reply(addr: str) -> OutboxMail:
    rows = replies_to(addr)
    assert rows, f"no reply to {addr}"
    return rows[-1]


# --- reading what the SMTP sink received ---


def all_text(msg) -> str:
    """Every header and every decoded text part of a message, as one string."""
    out = [f"{k}: {v}" for k, v in msg.items()]
    for part in msg.walk():
        if part.get_content_maintype() == "text":
            out.append(part.get_content())
        elif not part.is_multipart():
            out.append(part.get_filename() or "")
    return "\n".join(out)


def part(msg, content_type: str):
    found = [p for p in msg.walk() if p.get_content_type() == content_type]
    assert found, f"no {content_type} part in {[p.get_content_type() for p in msg.walk()]}"
    return found[0]


def plain(msg) -> str:
    """The text/plain body with the wire's CRLF line ends made plain newlines."""
    return msg.get_body(("plain",)).get_content().replace("\r\n", "\n")
