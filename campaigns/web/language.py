"""Which language a user reads: their own choice (Profile.language), else the browser's.

LocaleMiddleware has already activated the browser's language (Accept-Language or the language
cookie) for everyone; it runs before authentication, so a signed-in user's own choice is applied
here, after AuthenticationMiddleware. Mail and API answers use ``language_of`` the same way.
"""
from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.utils import translation


def language_of(user) -> str:
    """The user's chosen language, or "" when they follow the browser (or are anonymous)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return ""
    try:
        return user.profile.language
    except ObjectDoesNotExist:  # no profile yet: nothing chosen
        return ""


def mail_language(user) -> str:
    """The language a user's mail is written in: their choice, else the site's."""
    return language_of(user) or settings.LANGUAGE_CODE


def activate_for(request, user) -> None:
    chosen = language_of(user)
    if chosen:
        translation.activate(chosen)
        request.LANGUAGE_CODE = chosen


class UserLanguageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        activate_for(request, request.user)
        return self.get_response(request)  # LocaleMiddleware then sets Content-Language
