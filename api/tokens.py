"""API token authentication in one query per request, and expired tokens cleared by the sweep.

knox's TokenAuthentication costs a poll two round trips and a third for the reader's language:
its token query, then (``_cleanup_token``) every other token of the user, read to delete the
expired ones, then ``user.profile`` when the answer is put in the user's language. Here the
token's query refuses an expired token in SQL (``expiry > now``: enforced on every request, as
before) and joins the user and their profile; the expired tokens are deleted by the deadline
sweep instead (``clear_expired``, on ``turns.signals.swept``). Under contention a request waits
to be scheduled again after each round trip, so each one saved is latency saved (issue 18).
"""

from __future__ import annotations

import binascii
from functools import cache
from hmac import compare_digest

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from knox.crypto import hash_token
from knox.models import get_token_model
from knox.settings import CONSTANTS
from rest_framework import exceptions

from campaigns import prepared
from campaigns.models import Profile
from campaigns.turns import signals


def live_tokens():
    """Tokens that may still be used: unexpired, or made without an expiry."""
    return get_token_model().objects.filter(Q(expiry__gt=timezone.now()) | Q(expiry__isnull=True))


class TokenAuthentication(KnoxTokenAuthentication):
    """knox's, less the scan of the user's other tokens and with the profile joined.

    knox's AUTO_REFRESH is off here (tokens are not renewed by use), so nothing is written."""

    def authenticate_credentials(self, token: bytes):
        # DRF's own words ("Incorrect authentication credentials."), which it translates.
        text = token.decode("utf-8")
        try:
            digest = hash_token(text)
        except (TypeError, binascii.Error):
            raise exceptions.AuthenticationFailed() from None
        for auth_token in _candidates(text[: CONSTANTS.TOKEN_KEY_LENGTH]):
            if compare_digest(digest, auth_token.digest):
                return self.validate_user(auth_token)
        raise exceptions.AuthenticationFailed()


@cache
def _token_sql() -> str:
    token, user = get_token_model(), get_user_model()
    return (
        f"SELECT {prepared.columns(token, 't')}, {prepared.columns(user, 'u')}, {prepared.columns(Profile, 'p')}"
        f" FROM {prepared.q(token._meta.db_table)} t"
        f" JOIN {prepared.q(user._meta.db_table)} u ON u.id = t.user_id"
        f" LEFT JOIN {prepared.q(Profile._meta.db_table)} p ON p.user_id = u.id"
        " WHERE t.token_key = %s AND (t.expiry > %s OR t.expiry IS NULL)"
    )


def _candidates(key: str) -> list:
    """The live tokens with this key, each with its user and the user's profile joined: what
    ``live_tokens().filter(token_key=key).select_related("user__profile")`` gives, by a prepared
    statement (the ORM's compile of that join cost a poll about 0.8 ms of CPU, issue 18). A
    missing profile is remembered as missing, as select_related does: no query for it later."""
    token_model, user_model = get_token_model(), get_user_model()
    out = []
    for row in prepared.fetchall(_token_sql(), [key, timezone.now()]):
        auth_token, user, profile = prepared.instances(row, token_model, user_model, Profile)
        profile = None if profile.pk is None else profile
        if profile is not None:
            Profile._meta.get_field("user").set_cached_value(profile, user)
        user_model._meta.get_field("profile").set_cached_value(user, profile)
        token_model._meta.get_field("user").set_cached_value(auth_token, user)
        out.append(auth_token)
    return out


def clear_expired(now, **_) -> dict:
    """Expired tokens deleted (they are refused anyway): once a sweep, not on every request."""
    deleted, _by_model = get_token_model().objects.filter(expiry__lte=now).delete()
    return {"expired_tokens": deleted}


def connect() -> None:
    signals.swept.connect(clear_expired, dispatch_uid="api-clear-expired-tokens")
