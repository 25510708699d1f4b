"""A request that waited too long on the database answers "busy, try again" (issue 32).

The web's ``lock_timeout`` and ``statement_timeout`` (kriegsbrief/dbtimeouts.py) end a wait on a
game a worker holds locked (adjudicating it, or stopped while it held it) within seconds. What the
person gets is a 503 with ``Retry-After`` that says the game is busy - JSON on the API, a page on
the web - never a 500, and nothing was taken: the request's transaction was rolled back whole, so
sending it again is safe. The answer names no game, table or statement.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import OperationalError
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

RETRY_AFTER_S = 5
# SQLSTATE: lock_not_available (lock_timeout), query_canceled (statement_timeout)
BUSY_STATES = {"55P03": "lock", "57014": "statement"}


def busy_kind(exc: BaseException) -> str | None:
    """ "lock" or "statement" when ``exc`` is a database wait that timed out, else None."""
    if not isinstance(exc, OperationalError):
        return None
    cause = exc.__cause__
    return BUSY_STATES.get(getattr(cause, "sqlstate", None) or "")


class DatabaseBusyMiddleware:
    def __init__(self, get_response: Callable[[Any], Any]) -> None:
        self.get_response = get_response

    def __call__(self, request: Any) -> Any:
        return self.get_response(request)

    def process_exception(self, request: Any, exc: Exception) -> HttpResponse | None:
        if busy_kind(exc) is None:
            return None
        message = _("The game is busy (a turn is being worked out). Nothing was taken: send it again in a few seconds.")
        if request.path.startswith("/api/"):
            response: HttpResponse = JsonResponse(
                {"detail": message, "code": "busy", "retry_after": RETRY_AFTER_S}, status=503
            )
        else:
            response = render(request, "web/busy.html", {"message": message, "retry_after": RETRY_AFTER_S}, status=503)
        response["Retry-After"] = str(RETRY_AFTER_S)
        return response
