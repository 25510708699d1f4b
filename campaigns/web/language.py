"""A signed-in user's own language on every page (campaigns.i18n says which it is).

LocaleMiddleware has already activated the browser's language (Accept-Language or the language
cookie) for everyone; it runs before authentication, so a signed-in user's own choice is applied
here, after AuthenticationMiddleware.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from campaigns.i18n import activate_for


class UserLanguageMiddleware:
    def __init__(self, get_response: Callable[[Any], Any]) -> None:
        self.get_response = get_response

    def __call__(self, request: Any) -> Any:
        activate_for(request, request.user)
        return self.get_response(request)  # LocaleMiddleware then sets Content-Language
