"""Checks on who sent a message, in the order they are applied.

``automatic``: mail no one must answer (RFC 3834 and the usual practice:
Auto-Submitted other than ``no``, Precedence bulk/list/junk, list headers,
a null return path, MAILER-DAEMON/postmaster senders, delivery reports).

``authentication``: Authentication-Results (RFC 8601) are read with
``authres`` and trusted only in the topmost header, and only when it carries
our own authserv-id: our MTA adds its header on top and strips any older one
with its id, so anything below or with another id may be forged.
"""
from __future__ import annotations

import re

import authres
from django.conf import settings

from .mime import Parsed, addresses

AUTOMATIC_SENDERS = ("mailer-daemon", "postmaster", "noreply", "no-reply", "donotreply", "do-not-reply")
LIST_HEADERS = ("List-Id", "List-Unsubscribe", "List-Post", "X-Autoreply", "X-Autorespond")


def automatic(msg: Parsed) -> str | None:
    """Why this message is automatic (never to be answered), or None."""
    auto = msg.first("Auto-Submitted").split(";")[0].strip().lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}"
    precedence = msg.first("Precedence").strip().lower()
    if precedence in ("bulk", "list", "junk", "auto_reply"):
        return f"Precedence: {precedence}"
    for name in LIST_HEADERS:
        if msg.all(name):
            return f"{name} header"
    return_path = msg.all("Return-Path")
    if return_path and return_path[0].strip() in ("<>", ""):
        return "null return path"
    for addr in addresses(msg.all("From") + msg.all("Sender")):
        if addr.split("@")[0].lower() in AUTOMATIC_SENDERS:
            return f"sent by {addr.split('@')[0]}"
    ctype = msg.first("Content-Type").lower()
    if "multipart/report" in ctype:
        return "delivery or read report"
    return None


AUTOMATIC_SUBJECT = re.compile(
    r"^\s*(auto(matic)?[ -]?(reply|response|antwort)|auto:|out of (the )?office|abwesenheitsnotiz|vacation reply|"
    r"автоответ|автоматический ответ|нет на месте|в отпуске)", re.IGNORECASE)


def automatic_subject(subject: str) -> bool:
    """A subject an auto-responder writes ("Automatic reply: …", "Автоответ: …"): not proof enough to
    ignore the message (headers are, ``automatic``), but its acknowledgement is braked as a loop's would be."""
    return bool(AUTOMATIC_SUBJECT.match(subject or ""))


def authentication(msg: Parsed) -> str | None:
    """Why this message must be held for the umpire (DMARC/DKIM failure), or None."""
    values = msg.all("Authentication-Results")
    if not values:
        return None
    try:
        header = authres.AuthenticationResultsHeader.parse_value(values[0])
    except Exception:
        return None  # the topmost header is not ours (or not readable): nothing to trust
    if str(header.authserv_id).lower() != settings.MAIL_AUTHSERV_ID.lower():
        return None
    results = {}
    for r in header.results:
        results.setdefault(str(r.method).lower(), []).append(str(r.result).lower())
    if "fail" in results.get("dmarc", []):
        return "DMARC check failed at our mail server"
    dkim = results.get("dkim", [])
    if "fail" in dkim and "pass" not in dkim:
        return "DKIM signature failed at our mail server"
    return None
