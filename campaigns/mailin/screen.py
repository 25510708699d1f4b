"""Checks on who sent a message, in the order they are applied.

``automatic``: mail no one must answer (RFC 3834 and the usual practice:
Auto-Submitted other than ``no``, Precedence bulk/list/junk, list headers,
a null return path, MAILER-DAEMON/postmaster senders, delivery reports).

``authentication``: Authentication-Results (RFC 8601) are read with
``authres`` (authresults.py) from one header only: the topmost one that carries
the authserv-id of the server of ours on the message's way in (``trusted_id``).
Our MTA (the pipe's) adds its header on top and removes any copy with its id
that came from outside (RFC 8601 §5); should one be left below, it is ignored,
as is every header with another id. The webhook has no MTA of ours on its way:
its view writes our header on top itself, from the provider's own verified
fields (webhook.py), so a copy with our id in the posted message is never read.
Over IMAP only the receiving server's header (MAIL_IMAP_AUTHSERV_ID) is read;
with none configured, none is. A DMARC or DKIM failure holds a message for the
umpire; so, with MAIL_REQUIRE_AUTHENTICATION, does a message our server did
not find genuine: no verdict of ours at all, or one with no pass for the From
(``dmarc=none; spf=softfail; dkim=none`` authenticates no one).
``sender_verified``: whether our MTA found the
From address genuine (DMARC pass, or SPF/DKIM pass aligned with its domain),
the condition for answering a stranger automatically: anything else may be a
forged From, and answering it would send our mail to an innocent third party
(backscatter).
"""

from __future__ import annotations

import re

from django.conf import settings

from rules.core.i18n import Msg, gettext_noop

from . import authresults
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
    r"автоответ|автоматический ответ|нет на месте|в отпуске)",
    re.IGNORECASE,
)


def automatic_subject(subject: str) -> bool:
    """A subject an auto-responder writes ("Automatic reply: …", "Автоответ: …"): not proof enough to
    ignore the message (headers are, ``automatic``), but its acknowledgement is braked as a loop's would be."""
    return bool(AUTOMATIC_SUBJECT.match(subject or ""))


def trusted_id(via: str) -> str:
    """The authserv-id whose Authentication-Results are read for mail that came in ``via``
    ("" when none is): the receiving server's over IMAP, else our own (our MTA's on the pipe,
    the webhook view's, which writes it from the provider's fields)."""
    return settings.MAIL_IMAP_AUTHSERV_ID if via == "imap" else settings.MAIL_AUTHSERV_ID


_COMMENT = re.compile(r"\([^()]*\)")


def _authserv_id(value: str) -> str:
    """The authserv-id a header value begins with (comments dropped), lower case."""
    head = _COMMENT.sub(" ", value.split(";", 1)[0]).split()
    return head[0].lower() if head else ""


def _our_results(msg: Parsed, via: str = "pipe") -> dict[str, list] | None:
    """Our server's results by method (lower case), from the topmost header with its authserv-id
    (``trusted_id``); None when there is none (or it cannot be read: nothing then is trusted,
    not even a copy below it)."""
    ours = trusted_id(via).lower()
    value = next((v for v in msg.all("Authentication-Results") if ours and _authserv_id(v) == ours), None)
    if value is None:
        return None
    try:
        header = authresults.parse_value(value)
    except Exception:
        return None
    if str(header.authserv_id).lower() != ours:
        return None
    results = {}
    for r in header.results:
        results.setdefault(str(r.method).lower(), []).append(r)
    return results


def _verdicts(results: dict[str, list], method: str) -> list[str]:
    return [str(r.result).lower() for r in results.get(method, [])]


def _aligned(domain: str, other: str) -> bool:
    """Relaxed alignment: the same domain, or one a subdomain of the other."""
    domain, other = domain.lower().rstrip("."), other.lower().rstrip(".").rsplit("@", 1)[-1]
    return bool(other) and (domain == other or domain.endswith("." + other) or other.endswith("." + domain))


def _passed_for(results: dict[str, list], method: str, ptype: str, name: str, domain: str) -> bool:
    return any(
        str(r.result).lower() == "pass"
        and any(
            str(p.type).lower() == ptype and str(p.name).lower() == name and _aligned(domain, str(p.value))
            for p in r.properties
        )
        for r in results.get(method, [])
    )


def sender_verified(msg: Parsed | None, sender: str, via: str = "pipe") -> bool:
    """Whether our MTA found ``sender`` genuine: DMARC pass, or DKIM/SPF pass for its domain,
    and neither DMARC nor SPF failed. Without our header: no."""
    results = _our_results(msg, via) if msg is not None else None
    return results is not None and _genuine(results, sender)


def _genuine(results: dict[str, list], sender: str) -> bool:
    if "@" not in sender:
        return False
    if "fail" in _verdicts(results, "dmarc") or "fail" in _verdicts(results, "spf"):
        return False
    domain = sender.rsplit("@", 1)[1]
    return (
        "pass" in _verdicts(results, "dmarc")
        or _passed_for(results, "dkim", "header", "d", domain)
        or _passed_for(results, "spf", "smtp", "mailfrom", domain)
    )


def authentication(msg: Parsed, sender: str = "", via: str = "pipe") -> Msg | None:
    """Why this message from ``sender`` must be held for the umpire (DMARC/DKIM failure; while
    MAIL_REQUIRE_AUTHENTICATION is on, no verdict of our server, or one that finds no pass for
    the sender), or None."""
    found = _our_results(msg, via)
    if found is None:
        return (
            gettext_noop("no Authentication-Results from our mail server (the message did not come through it)")
            if settings.MAIL_REQUIRE_AUTHENTICATION
            else None
        )
    results = {method: _verdicts(found, method) for method in found}
    if "fail" in results.get("dmarc", []):
        return gettext_noop("DMARC check failed at our mail server")
    dkim = results.get("dkim", [])
    if "fail" in dkim and "pass" not in dkim:
        return gettext_noop("DKIM signature failed at our mail server")
    if settings.MAIL_REQUIRE_AUTHENTICATION and not _genuine(found, sender):
        # A verdict is not an authentication: "dmarc=none; spf=softfail; dkim=none" vouches for no one.
        return gettext_noop(
            "our mail server did not find the sender genuine (no DMARC, DKIM or SPF pass for the sender's domain)"
        )
    return None
