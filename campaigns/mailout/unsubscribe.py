"""One-click "mail me less" (List-Unsubscribe, RFC 2369 and RFC 8058) for a seat's mail.

Every message to a seat carries

    List-Unsubscribe: <SITE_URL/mail/unsubscribe/<token>/>
    List-Unsubscribe-Post: List-Unsubscribe=One-Click

where ``token`` is the seat's id and version signed with the site's secret (django.core.signing):
it names one seat, no login is needed, and it stops working for the old player once the seat is
handed over (the version changes). A mail provider's one-click POST, or the button on the page a GET
shows (campaigns/web/unsubscribe.py), sets the seat's mail to LESS: no reminders and no waiting
notices; the turn reports, the game's and the umpire's notices and the answers to the player's
own mail still come, since the game cannot be played without them. Done twice it is done once; the
page's other button sets it back to ALL.

No mailto: URI is offered: a mail to the seat's reply address is read as orders (mail-in), and
RFC 8058 needs only the HTTPS one.
"""

from __future__ import annotations

from django.conf import settings
from django.core import signing

from campaigns.models import Seat

SALT = "kriegsbrief.mail.unsubscribe"
# The body of a one-click POST (RFC 8058 3.1), and the header that says the URI takes it.
ONE_CLICK = "List-Unsubscribe=One-Click"


def token(seat: Seat) -> str:
    """The seat's signed token: ``<seat id>.<version>:<signature>`` (URL-safe)."""
    return signing.Signer(salt=SALT).sign(f"{seat.pk}.{seat.version}")


def url(seat: Seat) -> str:
    return f"{settings.SITE_URL.rstrip('/')}/mail/unsubscribe/{token(seat)}/"


def headers(seat: Seat) -> dict[str, str]:
    """The List-Unsubscribe headers of a message to ``seat``."""
    return {"List-Unsubscribe": f"<{url(seat)}>", "List-Unsubscribe-Post": ONE_CLICK}


def seat_for(value: str) -> Seat | None:
    """The active seat a token names, or None (a forged or damaged token, a seat handed over or gone)."""
    try:
        pk, version = signing.Signer(salt=SALT).unsign(value).split(".")
        seat = Seat.objects.select_related("game", "user__profile").get(pk=int(pk))
    except (signing.BadSignature, ValueError, Seat.DoesNotExist):
        return None
    if seat.version != int(version) or seat.status != Seat.Status.ACTIVE:
        return None
    return seat


def set_mail(seat: Seat, mail: str) -> bool:
    """Set the seat's mail (Seat.Mail); True if it changed. Idempotent: a second POST changes nothing."""
    if mail not in Seat.Mail.values:
        raise ValueError(f"unknown mail setting {mail!r}")
    changed = bool(Seat.objects.filter(pk=seat.pk).exclude(mail=mail).update(mail=mail))
    seat.mail = mail
    return changed


def mail_less(seat: Seat) -> bool:
    return set_mail(seat, Seat.Mail.LESS)


def mail_all(seat: Seat) -> bool:
    return set_mail(seat, Seat.Mail.ALL)
