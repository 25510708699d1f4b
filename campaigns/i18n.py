"""Rendering the rule sets' marked texts (``rules.core.i18n.Msg``) in the active language.

The rule sets return English ``Msg`` strings carrying their msgid and params; here, at display
time, Django's gettext turns them into the reader's language (pages: the request's; mail: the
seat's, under ``translation.override``). Anything else passes through unchanged.
"""
from __future__ import annotations

from typing import Any

from django.utils import translation
from django.utils.translation import gettext, ngettext, pgettext

from rules.core.i18n import Msg


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


def seat_language(seat) -> str:
    """The language a seat's mail is written in: its user's choice, else the site's."""
    from campaigns.web.language import mail_language

    return mail_language(seat.user if seat.user_id else None)


def for_seat(seat):
    """``with for_seat(seat):`` renders mail, subjects and rule texts in the seat's language
    (a Celery worker runs in LANGUAGE_CODE, so every mail names its own)."""
    return translation.override(seat_language(seat))
