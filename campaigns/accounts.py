"""Logins: the lockout backend, and API tokens revoked when a password changes.

``LoginLockoutBackend`` is django-axes' standalone backend (it checks only the lockout;
``ModelBackend`` checks the password) for logins that come from a request: the web and
admin login forms and the API's token endpoint all pass theirs. A call without a request
(the test client's ``login``, a script) has no client address to lock, so it is let
through to the password check instead of raising.
"""
from __future__ import annotations

from axes.backends import AxesStandaloneBackend
from django.contrib.auth import get_user_model
from django.db.models.signals import pre_save
from django.dispatch import receiver


class LoginLockoutBackend(AxesStandaloneBackend):
    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)


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
