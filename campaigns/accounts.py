"""Logins: the lockout backend, a per-address throttle, and API tokens revoked when a password changes.

``LoginLockoutBackend`` is django-axes' standalone backend (it checks only the lockout;
``ModelBackend`` checks the password) for logins that come from a request: the web and
admin login forms and the API's token endpoint all pass theirs. A call without a request
(the test client's ``login``, a script) has no client address to lock, so it is let
through to the password check instead of raising.

``LoginAttemptThrottle`` counts login attempts per client address, whatever the username
(the lockout is per username and address, so one address could otherwise try every
username): the web login and the API's token endpoint share its budget (DRF's
DEFAULT_THROTTLE_RATES["login"], kept in the shared cache).
"""

from __future__ import annotations

from axes.backends import AxesStandaloneBackend
from django.contrib.auth import get_user_model
from django.contrib.auth import views as auth_views
from django.db.models.signals import pre_save
from django.dispatch import receiver
from django.http import HttpResponse
from rest_framework.throttling import SimpleRateThrottle


class LoginLockoutBackend(AxesStandaloneBackend):
    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)


class LoginAttemptThrottle(SimpleRateThrottle):
    scope = "login"

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class LoginView(auth_views.LoginView):
    """Django's login page, with attempts throttled per address (429 past the rate)."""

    redirect_authenticated_user = True

    def post(self, request, *args, **kwargs):
        throttle = LoginAttemptThrottle()
        if not throttle.allow_request(request, self):
            wait = int(throttle.wait() or 60) + 1
            return HttpResponse(
                f"Too many login attempts from your address: try again in {wait} seconds.\n",
                status=429,
                content_type="text/plain; charset=utf-8",
                headers={"Retry-After": str(wait)},
            )
        return super().post(request, *args, **kwargs)


@receiver(pre_save, sender=get_user_model(), dispatch_uid="revoke-tokens-on-password-change")
def _revoke_tokens_on_password_change(sender, instance, update_fields=None, **kwargs):
    """Every API token of a user whose password changes (web, admin, changepassword, a script)
    stops working: whoever had the old password may have made one. Web sessions end by
    Django's own session hash, which includes the password."""
    from knox.models import get_token_model

    if instance.pk is None or (update_fields is not None and "password" not in update_fields):
        return
    old = sender.objects.filter(pk=instance.pk).values_list("password", flat=True).first()
    if old is not None and old != instance.password:
        get_token_model().objects.filter(user_id=instance.pk).delete()
