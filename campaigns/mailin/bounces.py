"""Delivery status notifications (RFC 3464) that came back to a seat's return path.

Every message to a seat goes out with ``bounces+<token>@INBOUND_DOMAIN`` as its envelope sender
(campaigns/mailout/health.py), so a server that cannot deliver it mails its report there, and the
MTA pipes it in like any other mail. ``token_of`` finds that address (the envelope recipient, or
over IMAP the recipient headers); ``read`` reads the report with the standard library's email
package: a ``multipart/report; report-type=delivery-status`` whose ``message/delivery-status``
part holds one block of fields for the message and one per recipient (Final-Recipient, Action,
Status, Diagnostic-Code), as Postfix, Exim, Sendmail, Exchange and the large providers write it.
Anything else sent to a return path (an out-of-office reply, which RFC 3834 sends to the return
path too, a spammer's guess) has no such part and counts for nothing.
"""

from __future__ import annotations

import re
from email.message import Message
from email.parser import BytesParser
from email.policy import compat32

from campaigns.mailout import health
from campaigns.mailout.health import Bounce

from .mime import Parsed
from .mime import addresses as parse_addresses

TOKEN_HEADERS = ("Delivered-To", "X-Original-To", "Envelope-To", "To")
STATUS = re.compile(r"\b([245])\.(\d{1,3})\.(\d{1,3})\b")
MAX_RECIPIENTS = 50


def token_of(envelope_to: str, msg: Parsed) -> str | None:
    """The token of the return path a message was delivered to: the envelope recipient's, else
    (no envelope: IMAP, a file) the first recipient header's that names one."""
    if envelope_to:
        return health.parse_token(envelope_to)
    for name in TOKEN_HEADERS:
        for addr in parse_addresses(msg.all(name)):
            token = health.parse_token(addr)
            if token is not None:
                return token
    return None


def _text(value) -> str:
    return " ".join(str(value or "").split())


def _address(value: str) -> str:
    """``rfc822; red@example.org`` -> ``red@example.org`` (RFC 3464 §2.3.2: address type; address)."""
    return value.split(";", 1)[1].strip() if ";" in value else value.strip()


def _status(block: Message) -> str:
    """The recipient's status code (``5.1.1``); from the Diagnostic-Code when Status is missing
    or has no code in it."""
    for name in ("Status", "Diagnostic-Code"):
        found = STATUS.search(_text(block.get(name)))
        if found:
            return found.group(0)
    return ""


def _blocks(raw: bytes) -> list[Message]:
    """The per-recipient field blocks of the message's delivery-status part ([] if it has none)."""
    try:
        msg = BytesParser(policy=compat32).parsebytes(raw)
    except Exception:
        return []
    if msg.get_content_type() != "multipart/report":
        return []
    for part in msg.walk():
        if part.get_content_type() in ("message/delivery-status", "message/global-delivery-status"):
            payload = part.get_payload()
            if isinstance(payload, list):  # the parser reads its blocks as header blocks
                return [b for b in payload[1:] if isinstance(b, Message)][:MAX_RECIPIENTS]
            if isinstance(payload, str):  # a base64 or unparsed body: read it as blocks ourselves
                data = part.get_payload(decode=True) or b""
                text = data.decode("utf-8", "replace").replace("\r\n", "\n")
                return [
                    BytesParser(policy=compat32).parsebytes(chunk.strip().encode() + b"\n\n")
                    for chunk in re.split(r"\n\s*\n", text.strip())[1:MAX_RECIPIENTS]
                    if chunk.strip()
                ]
    return []


def read(raw: bytes) -> list[Bounce]:
    """The recipients a delivery status notification reports on: address, action, status,
    diagnostic ([] when the message is no DSN)."""
    out = []
    for block in _blocks(raw):
        action = _text(block.get("Action")).lower().split(" ")[0]
        recipient = _address(_text(block.get("Final-Recipient") or block.get("Original-Recipient")))
        status = _status(block)
        if not action or not status:
            continue
        out.append(
            Bounce(recipient=recipient, action=action, status=status, diagnostic=_text(block.get("Diagnostic-Code")))
        )
    return out
