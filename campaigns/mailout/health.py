"""Whether mail to a seat's address arrives: the seat's return path and its bounces.

Every message to a seat goes out with the seat's own envelope sender (VERP):
``bounces+<token>@INBOUND_DOMAIN``, the token random and the seat's alone (not its reply
address's: knowing where a DSN goes must not let anyone order, and the reply token must not
sit in a header that every server on the way reads as the bounce address). A server that cannot
deliver the message sends its delivery status notification (RFC 3464) there, into the same pipe
as the players' orders; mail-in reads it (``campaigns/mailin/bounces.py``) and records it here
(``record``).

``AddressHealth`` is one row per seat (made at the seat's first send): the address its bounces
are about, how many permanent failures (5.x.x) came back, when temporary ones (4.x.x) came back
in the last ``SOFT_WINDOW``, the last status and diagnostic, and ``failing_since``: set by a hard
bounce or by ``SOFT_LIMIT`` soft ones within the window. From then on the seat's mail is paused:
a row due to it is parked (``outbox.send``) instead of sent, and the umpire is told (by mail
once, on the umpire page, in the API's seat data: ``summary``), the player on the game page.
The pause ends when the player confirms an address on their settings page (the confirmation is
newer than the failure: the same address again or another), or the seat's address changes
otherwise (a handover); the parked rows are then queued by the rescue (``outbox.requeue_due``),
and the next bounce starts a new count.

This module is mail-out's (the layer below the channels): mail-in writes it, the web, the API
and the outbox read it. Its table is mail-in's app's (``mailin_addresshealth``), like the seat
addresses'.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, models, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from campaigns.models import Profile, Seat

TOKEN_BYTES = 16
SOFT_LIMIT = 3  # temporary failures (4.x.x) ...
SOFT_WINDOW = timedelta(days=7)  # ... within this long make an address failing
BOUNCE_LOCAL_PART = "bounces"


class AddressHealth(models.Model):
    """How mail to one seat's address fares (see the module's words)."""

    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, primary_key=True, related_name="mail_health")
    token = models.CharField(max_length=64, unique=True, help_text="The seat's return path: bounces+<token>@…")
    email = models.CharField(max_length=320, blank=True, help_text="The address the bounces below are about.")
    hard_bounces = models.IntegerField(default=0)
    soft_bounces = models.JSONField(default=list, blank=True, help_text="When temporary failures came back (ISO)")
    last_status = models.CharField(max_length=32, blank=True)
    last_diagnostic = models.CharField(max_length=500, blank=True)
    last_bounce_at = models.DateTimeField(null=True, blank=True)
    failing_since = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "mailin"  # its table and migrations are mail-in's (mailin_addresshealth)
        verbose_name_plural = "address health"

    def __str__(self):
        # Never the token nor the address: this string ends up in logs and the admin.
        return f"mail health of seat {self.seat_id}{' (failing)' if self.failing_since else ''}"

    @property
    def soft_recent(self) -> int:
        """Temporary failures within the window, as of now."""
        since = timezone.now() - SOFT_WINDOW
        return sum(1 for at in self.soft_bounces if (parse_datetime(at) or since) > since)

    @property
    def paused(self) -> bool:
        """Whether the seat's mail is held back now (reads the seat and its holder's profile)."""
        return _paused(self.failing_since, self.email, self.seat.email, _confirmed_at(self.seat))

    @property
    def failing(self) -> bool:
        """For pages: failing and still paused (a confirmation since ended it)."""
        return self.paused

    @property
    def troubled(self) -> bool:
        """For pages: not failing, but temporary failures came back lately (the umpire is shown them)."""
        return not self.paused and self.soft_recent > 0 and self.email.lower() == (self.seat.email or "").lower()


def return_path(token: str) -> str:
    return f"{BOUNCE_LOCAL_PART}+{token}@{settings.INBOUND_DOMAIN.lower()}"


def parse_token(addr: str) -> str | None:
    """The token of one of our bounce addresses (``bounces+<token>@INBOUND_DOMAIN``), else None."""
    local, at, domain = (addr or "").strip().strip("<>").rpartition("@")
    if not at or domain.lower() != settings.INBOUND_DOMAIN.lower():
        return None
    prefix, sep, token = local.partition("+")
    if not sep:
        prefix, sep, token = local.partition(".")
    token = token.lower()
    if prefix.lower() != BOUNCE_LOCAL_PART or len(token) != TOKEN_BYTES * 2:
        return None
    return token if all(c in "0123456789abcdef" for c in token) else None


def _confirmed_at(seat: Seat) -> datetime | None:
    if seat.user_id is None:
        return None
    return Profile.objects.filter(user_id=seat.user_id).values_list("email_verified_at", flat=True).first()


def _paused(failing_since, health_email: str, seat_email: str, confirmed_at) -> bool:
    if failing_since is None or (health_email or "").lower() != (seat_email or "").lower():
        return False  # never failing, or about an address the seat no longer uses
    return confirmed_at is None or confirmed_at <= failing_since


@dataclass(frozen=True)
class Route:
    """How a seat's mail goes out now: its envelope sender, and whether it is paused."""

    envelope: str
    paused: bool


def route(seat_id: int) -> Route:
    """The envelope sender of a message to the seat and whether its mail is paused; makes the
    seat's row (and its token) on its first message. One statement when the row exists."""
    found = (
        Seat.objects.filter(pk=seat_id)
        .values_list("mail_health__token", "mail_health__failing_since", "mail_health__email", "email", "user_id")
        .first()
    )
    if found is None:
        return Route(envelope="", paused=False)
    token, failing_since, health_email, seat_email, user_id = found
    if token is None:
        token = _create(seat_id, seat_email)
        return Route(envelope=return_path(token), paused=False)
    paused = False
    if failing_since is not None:
        confirmed = Profile.objects.filter(user_id=user_id).values_list("email_verified_at", flat=True).first()
        paused = _paused(failing_since, health_email, seat_email, confirmed)
    return Route(envelope=return_path(token), paused=paused)


def _create(seat_id: int, email: str) -> str:
    try:
        with transaction.atomic():
            return AddressHealth.objects.create(
                seat_id=seat_id, token=secrets.token_hex(TOKEN_BYTES), email=email or ""
            ).token
    except IntegrityError:  # made meanwhile by another sender
        return AddressHealth.objects.values_list("token", flat=True).get(seat_id=seat_id)


def paused_seats(seat_ids) -> set[int]:
    """Which of these seats' mail is paused now (the rescue asks before it queues parked rows)."""
    rows = AddressHealth.objects.filter(seat_id__in=list(seat_ids), failing_since__isnull=False).values_list(
        "seat_id", "failing_since", "email", "seat__email", "seat__user__profile__email_verified_at"
    )
    return {
        seat_id for seat_id, since, email, seat_email, confirmed in rows if _paused(since, email, seat_email, confirmed)
    }


# --- recording bounces ---------------------------------------------------------


@dataclass(frozen=True)
class Bounce:
    """One recipient's line of a delivery status notification (RFC 3464 §2.3)."""

    recipient: str
    action: str  # failed, delayed, delivered, relayed, expanded
    status: str  # "5.1.1"
    diagnostic: str = ""

    @property
    def hard(self) -> bool:
        return self.action == "failed" and self.status.startswith("5.")

    @property
    def soft(self) -> bool:
        return self.action in ("failed", "delayed") and self.status.startswith("4.")


@dataclass
class Recorded:
    seat: Seat | None
    hard: int = 0
    soft: int = 0
    became_failing: bool = False  # the umpire is to be told (bouncemail.tell_umpire)
    health: AddressHealth | None = None


def record(token: str, bounces: list[Bounce], now: datetime | None = None) -> Recorded:
    """Record a DSN that came back to ``token``'s return path (in the caller's transaction): its
    hard and soft failures counted for the seat. ``became_failing``: this DSN made the address
    failing (the caller tells the umpire: ``bouncemail.tell_umpire``)."""
    now = now or timezone.now()
    health = AddressHealth.objects.select_for_update().select_related("seat__game").filter(token=token).first()
    if health is None:
        return Recorded(seat=None)
    seat = health.seat
    out = Recorded(seat=seat, hard=sum(b.hard for b in bounces), soft=sum(b.soft for b in bounces))
    if not out.hard and not out.soft:
        return out
    confirmed = _confirmed_at(seat)
    if (health.email or "").lower() != (seat.email or "").lower() or (
        health.failing_since is not None and confirmed is not None and confirmed > health.failing_since
    ):
        # About another address, or the player confirmed one since it failed: a new count begins.
        health.email, health.hard_bounces, health.soft_bounces, health.failing_since = seat.email, 0, [], None
    since = now - SOFT_WINDOW
    soft = [at for at in health.soft_bounces if (parse_datetime(at) or since) > since]
    soft += [now.isoformat()] * out.soft
    health.soft_bounces = soft[-20:]
    health.hard_bounces += out.hard
    last = next((b for b in bounces if b.hard), None) or next(b for b in bounces if b.soft)
    health.last_status, health.last_diagnostic, health.last_bounce_at = last.status, last.diagnostic[:500], now
    if health.failing_since is None and (health.hard_bounces or len(soft) >= SOFT_LIMIT):
        health.failing_since = now
        out.became_failing = True
    health.save()
    out.health = health
    return out


def summary(seat: Seat) -> dict | None:
    """What the umpire (and the seat's own player) is shown of a seat's mail, for the API's seat
    data: None when nothing ever came back."""
    health = AddressHealth.objects.filter(seat=seat).first()
    if health is None or health.last_bounce_at is None:
        return None
    paused = health.paused
    return {
        "state": "failing" if paused else ("soft_bounces" if health.troubled else "ok"),
        "paused": paused,
        "address": health.email,
        "hard_bounces": health.hard_bounces,
        "soft_bounces_7d": health.soft_recent,
        "last_status": health.last_status,
        "last_diagnostic": health.last_diagnostic,
        "last_bounce_at": health.last_bounce_at.isoformat(),
        "failing_since": health.failing_since.isoformat() if health.failing_since else None,
    }
