"""The mail that confirms a user's own address (campaigns.turns.mailaddress holds the rest)."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.core import signing
from django.db import transaction
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from campaigns import ratelimit
from campaigns.i18n import mail_language
from campaigns.models import Profile
from campaigns.turns.mailaddress import MAX_AGE, SALT

from . import outbox


class TooManyConfirmations(Exception):
    """More confirmation mails than the hour allows, to this address or for this user."""

    def __init__(self, retry_after: int):
        super().__init__(retry_after)
        self.retry_after = retry_after


def _throttle(user, email: str) -> None:
    """At most CONFIRMATIONS_PER_ADDRESS_PER_HOUR mails to one address (nobody may make us mail a
    stranger's address twenty times) and CONFIRMATIONS_PER_USER_PER_HOUR asked for by one user."""
    for key, limit in (
        (f"confirm-to:{email.lower()}", settings.CONFIRMATIONS_PER_ADDRESS_PER_HOUR),
        (f"confirm-by:{user.pk}", settings.CONFIRMATIONS_PER_USER_PER_HOUR),
    ):
        limited = ratelimit.hit(key, limit, 3600)
        if limited:
            raise TooManyConfirmations(limited.retry_after)


def request_verification(user, email: str) -> str:
    """Make ``email`` the user's pending address and mail it a confirmation link (in the user's
    language); returns the token. TooManyConfirmations past the hour's limits: nothing is sent."""
    email = email.strip()
    _throttle(user, email)
    with transaction.atomic(), translation.override(mail_language(user)):
        profile = Profile.objects.select_for_update().get_or_create(user=user)[0]
        profile.pending_email = email
        profile.save(update_fields=["pending_email"])
        token = signing.dumps({"user": user.pk, "email": email}, salt=SALT)
        link = settings.SITE_URL + reverse("confirm_address", args=[token])
        outbox.queue_mail(
            key=f"verify-address:{user.pk}:{uuid.uuid4().hex}",
            to=email,
            kind="verify",
            reply_to="",
            subject="[Kriegsbrief] " + _("Confirm your mail address"),
            body="\n\n".join(
                [
                    _("Someone signed in as %(user)s on Kriegsbrief asked to use this address for their games.")
                    % {"user": user.get_username()},
                    _("If that was you, confirm it (signed in) within %(days)s days:") % {"days": MAX_AGE.days},
                    f"  {link}",
                    _("If it was not, ignore this message: nothing is sent here unless it is confirmed."),
                    "--\n" + _("Kriegsbrief. This is an automatic message.") + "\n",
                ]
            ),
        )
    return token
