"""The umpire's mail when a seat's address fails (health.py records it; mail-in reads the DSNs)."""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from campaigns.i18n import for_seat
from campaigns.models import Seat
from campaigns.turns.seats import seat_label

from . import outbox
from .health import SOFT_WINDOW, AddressHealth


def why(health: AddressHealth) -> str:
    """Why the address counts as failing, in the active language."""
    if health.hard_bounces:
        return _("the receiving mail server refused it permanently (%(status)s)") % {"status": health.last_status}
    n = len(health.soft_bounces)
    return ngettext(
        "it was refused for the time being %(n)s time within %(days)s days (last %(status)s)",
        "it was refused for the time being %(n)s times within %(days)s days (last %(status)s)",
        n,
    ) % {"n": n, "days": SOFT_WINDOW.days, "status": health.last_status}


def tell_umpire(health: AddressHealth) -> None:
    """Mail every umpire of the seat's game (each in their language) that its address fails; once
    a failure (the key names it)."""
    seat = health.seat
    game = seat.game
    for umpire in game.seats.active().filter(role=Seat.Role.UMPIRE):
        with for_seat(umpire):
            who = seat_label(seat)
            outbox.queue_mail(
                key=f"bounce:{seat.pk}:{health.failing_since.isoformat()}:{umpire.pk}",
                to=umpire.email,
                subject="[Kriegsbrief] "
                + _("%(game)s: mail to the %(seat)s seat does not arrive") % {"game": game.name, "seat": who},
                body="\n\n".join(
                    [
                        _("Mail to the %(seat)s seat (%(address)s) could not be delivered: %(why)s.")
                        % {"seat": who, "address": health.email, "why": why(health)},
                        _("The server said: %(diagnostic)s") % {"diagnostic": health.last_diagnostic or "-"},
                        _(
                            "Their mail is held back until they confirm an address on their settings page; "
                            "the game page tells them so. Orders they send still count."
                        ),
                        _("Umpire page: %(url)s") % {"url": settings.SITE_URL + reverse("umpire", args=[game.pk])},
                    ]
                )
                + "\n",
                game=game,
                seat=umpire,
                kind="notice",
            )
