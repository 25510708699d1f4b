"""Rendering the rule sets' marked texts (``rules.core.i18n.Msg``) in the active language.

The rule sets return English ``Msg`` strings carrying their msgid and params; here, at display
time, Django's gettext turns them into the reader's language (pages: the request's; mail: the
seat's, under ``translation.override``). Anything else passes through unchanged.

Which language a reader reads is here too (their ``Profile.language``, else the browser's on pages
and the site's in mail), below every layer: turns (invitations), mail-out, and each channel use it,
and it imports nothing of the platform.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import gettext, ngettext, pgettext

from rules.core.i18n import Msg

log = logging.getLogger(__name__)


def render(text: Any) -> str:
    if not isinstance(text, Msg):
        return text if isinstance(text, str) else str(text)
    params = {k: render(v) if isinstance(v, str) else v for k, v in text.params.items()}
    if text.plural is not None:
        template = ngettext(text.msgid, text.plural, text.n)
        params["n"] = text.n
    elif text.context:
        template = pgettext(text.context, text.msgid)
    else:
        template = gettext(text.msgid)
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):  # a broken translation must not hide the message
        return str(text)


def map_language() -> str:
    """The language maps are drawn in now (``render_svg(view, lang=...)``, rules/core/MAPS.md): the
    active one — the request's on pages and API answers, the seat's inside ``for_seat``."""
    return translation.get_language() or settings.LANGUAGE_CODE


def localized(value: Any) -> Any:
    """A view (JSON-like) with each marked text in it rendered in the active language, the rest as it is."""
    if isinstance(value, Msg):
        return render(value)
    if isinstance(value, dict):
        return {k: localized(v) for k, v in value.items()}
    if isinstance(value, list):
        return [localized(v) for v in value]
    return value


def draw_map(ruleset: Any, board: Any, crop: bool = False) -> str:
    """One viewer's map in the active language: the rule set's own words by ``lang``, and the rule
    texts its view carries (a Civil War map's last operation) rendered here, from the catalogue.

    A rule set whose drawing raises gets a small map saying so, not a page or a mail that fails:
    the game goes on (campaigns/turns/failures.py for adjudication)."""
    try:
        return str(ruleset.render_svg(localized(board), crop=crop, lang=map_language()))
    except Exception:
        log.exception("%s: the map could not be drawn", getattr(ruleset, "name", ruleset))
        text = escape(gettext("The map could not be drawn."))
        return (
            '<svg xmlns="http://www.w3.org/2000/svg" width="480" height="60" viewBox="0 0 480 60">'
            f'<text x="10" y="35" font-family="sans-serif" font-size="14">{text}</text></svg>'
        )


def language_of(user: Any) -> str:
    """The user's chosen language, or "" when they follow the browser (or are anonymous)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return ""
    try:
        return str(user.profile.language)
    except ObjectDoesNotExist:  # no profile yet: nothing chosen
        return ""


def mail_language(user: Any) -> str:
    """The language a user's mail is written in: their choice, else the site's."""
    return language_of(user) or settings.LANGUAGE_CODE


def activate_for(request: Any, user: Any) -> None:
    """A signed-in user's own choice, over the browser's (pages; API answers for token users)."""
    chosen = language_of(user)
    if chosen:
        translation.activate(chosen)
        request.LANGUAGE_CODE = chosen


def seat_language(seat: Any) -> str:
    """The language a seat's mail is written in: its user's choice, else the site's."""
    return mail_language(seat.user if seat.user_id else None)


def for_seat(seat: Any) -> translation.override:
    """``with for_seat(seat):`` renders mail, subjects and rule texts in the seat's language
    (a Celery worker runs in LANGUAGE_CODE, so every mail names its own)."""
    return translation.override(seat_language(seat))
