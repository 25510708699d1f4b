"""A user's own mail address, confirmed by a link sent to it.

A seat's mail (the game's first mail with its secret reply address, reports, acknowledgements)
goes to its holder's verified address, taken when they accept the seat; nobody can type an
address for someone else. A user names an address on their settings page; it stays *pending*
until they follow the link mailed to it, signed in as themself. The link works once (the pending
address is cleared when it is confirmed; a newer request replaces the older one) and for
``MAX_AGE``. A confirmed address also becomes the address of the user's active seats.
The confirmation mail is mail-out's (campaigns.mailout.verification.request_verification).
"""

from __future__ import annotations

from datetime import timedelta

from django.core import signing
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.models import Profile, Seat

SALT = "kb.verify-address"
MAX_AGE = timedelta(days=3)


class AddressError(ValueError):
    """A confirmation that cannot be made; the message says why."""


def verified_address(user) -> str:
    """The user's confirmed address, or "" (never the unconfirmed ``User.email``)."""
    if user is None:
        return ""
    profile = Profile.objects.filter(user=user).first()
    return profile.verified_email if profile else ""


def confirm(token: str, user) -> str:
    """Confirm the pending address a link names; it must be this user's and still pending."""
    try:
        data = signing.loads(token, salt=SALT, max_age=MAX_AGE)
    except signing.SignatureExpired:
        raise AddressError(_("This confirmation link has expired. Ask for a new one on your settings page.")) from None
    except signing.BadSignature:
        raise AddressError(_("This is not a valid confirmation link.")) from None
    if data.get("user") != user.pk:
        raise AddressError(_("This link confirms another user's address. Sign in as that user to confirm it."))
    with transaction.atomic():
        profile = Profile.objects.select_for_update().get_or_create(user=user)[0]
        email = data.get("email", "")
        if not email or profile.pending_email != email:
            raise AddressError(_("This link has been used already, or a newer address was asked for since."))
        profile.verified_email, profile.email_verified_at, profile.pending_email = email, timezone.now(), ""
        profile.save(update_fields=["verified_email", "email_verified_at", "pending_email"])
        user.email = email
        user.save(update_fields=["email"])
        Seat.objects.active().filter(user=user).update(email=email)
    return email
