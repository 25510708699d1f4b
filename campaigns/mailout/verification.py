"""The mail that confirms a user's own address (campaigns.turns.mailaddress holds the rest)."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.core import signing
from django.db import transaction
from django.urls import reverse

from campaigns.models import Profile
from campaigns.turns.mailaddress import MAX_AGE, SALT

from . import outbox


def request_verification(user, email: str) -> str:
    """Make ``email`` the user's pending address and mail it a confirmation link; returns the token."""
    email = email.strip()
    with transaction.atomic():
        profile, _ = Profile.objects.select_for_update().get_or_create(user=user)
        profile.pending_email = email
        profile.save(update_fields=["pending_email"])
        token = signing.dumps({"user": user.pk, "email": email}, salt=SALT)
        link = settings.SITE_URL + reverse("confirm_address", args=[token])
        outbox.queue_mail(
            key=f"verify-address:{user.pk}:{uuid.uuid4().hex}",
            to=email,
            kind="verify",
            reply_to="",
            subject="[Kriegsbrief] Confirm your mail address",
            body=(
                f"Someone signed in as {user.get_username()} on Kriegsbrief asked to use this address for "
                f"their games.\nIf that was you, confirm it (signed in) within {MAX_AGE.days} days:\n\n"
                f"  {link}\n\nIf it was not, ignore this message: nothing is sent here unless it is confirmed.\n\n"
                "--\nKriegsbrief. This is an automatic message.\n"
            ),
        )
    return token
