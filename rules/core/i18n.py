"""Texts the rule sets hand the players, readable in any language the platform speaks.

``rules/`` has no Django, so it cannot translate; it marks instead. ``_("{side} passed.",
side="red")`` returns a ``Msg``: the English text itself (a ``str``, so every caller, test and
log that reads English keeps working), carrying its msgid and params so that the platform can
render it again in the reader's language at display time (``campaigns.i18n.render``).

The name ``_`` is one of xgettext's Python keywords, so Django's ``makemessages`` extracts these
msgids into the catalogue with no option (it has none for extra keywords); ``{name}`` params give
them the ``python-brace-format`` flag, which ``msgfmt --check`` holds every translation to.
A param may itself be a ``Msg`` (a side's name, a reason): it is rendered in the same language.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any


class Msg(str):
    msgid: str
    plural: str | None  # with ``n``: a counted text (ngettext)
    n: int | None
    params: dict[str, Any]
    context: str | None = None  # pgettext's: one English word, two meanings

    def __new__(cls, msgid: str, /, plural: str | None = None, n: int | None = None, **params: Any) -> Msg:
        english = plural if plural is not None and n != 1 else msgid
        self = super().__new__(cls, english.format(n=n, **params) if params or n is not None else english)
        self.msgid, self.plural, self.n, self.params = msgid, plural, n, params
        return self

    def __reduce__(self) -> tuple[Any, ...]:  # pickles (Celery, caches) keep the msgid
        return (_rebuild, (self.msgid, self.plural, self.n, self.params, self.context))


def _rebuild(msgid: str, plural: str | None, n: int | None, params: dict[str, Any], context: str | None = None) -> Msg:
    msg = Msg(msgid, plural, n, **params)
    msg.context = context
    return msg


def _(msgid: str, /, **params: Any) -> Msg:
    """Mark ``msgid`` for translation and fill in its ``{params}`` (English now, any language later)."""
    return Msg(msgid, **params)


def gettext_noop(msgid: str, /) -> Msg:
    """Mark a text with no params (a table's entry, a side's name) for the catalogue."""
    return Msg(msgid)


def pgettext(context: str, msgid: str, /) -> Msg:
    """A word whose translation depends on what it names ("red" a side, "red" a token)."""
    msg = Msg(msgid)
    msg.context = context
    return msg


def ngettext(singular: str, plural: str, n: int, /, **params: Any) -> Msg:
    """A counted text: "{n} gun" / "{n} guns" (and Russian's three forms), ``{n}`` filled in."""
    return Msg(singular, plural, n, **params)


def joined(parts: Iterable[str], sep: str = "; ") -> Msg:
    """Several messages as one, each rendered in the reader's language."""
    items = list(parts)
    params: dict[str, Any] = {f"p{i}": p for i, p in enumerate(items)}
    return Msg(sep.join(f"{{p{i}}}" for i in range(len(items))), **params)


@lru_cache(maxsize=512)
def _pattern(msgid: str) -> re.Pattern[str]:
    """The English a msgid writes, as a regex whose named groups are its ``{params}``."""
    parts = re.split(r"\{(\w+)\}", msgid)
    body = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)" for i, p in enumerate(parts))
    return re.compile(f"^{body}$")


def reread(text: Any, msgids: Sequence[str], sides: Iterable[str] = ("side", "winner", "loser")) -> Any:
    """An English text a payload kept (a game-over reason, a cause) marked again for translation:
    the first of ``msgids`` whose English it is, its params read back from it (those named in
    ``sides`` as side names); anything else unchanged. The log keeps its English, so old games
    read alike and re-adjudicate byte for byte."""
    for msgid in msgids:
        found = _pattern(msgid).match(str(text or ""))
        if found:
            params: dict[str, Any] = found.groupdict()
            for key in set(sides) & params.keys():
                params[key] = pgettext("side", params[key])
            return Msg(msgid, **params)
    return text


def word(table: Mapping[str, Msg], value: Any) -> Any:
    """A payload's English word as readers see it (``table``: its ``gettext_noop`` marks)."""
    return table.get(str(value), value)


# The sides of every rule set, as names (capitalised in English, «Красные» in Russian).
SIDE_NAMES = {"red": gettext_noop("Red"), "blue": gettext_noop("Blue")}


def side_name(side: Any) -> Msg:
    """A side as a sentence names it; "Nobody" for none."""
    if not side:
        return gettext_noop("Nobody")
    return SIDE_NAMES.get(str(side)) or Msg(str(side).capitalize())


def message_of(exc: BaseException) -> str:
    """An exception's message, still marked if it was raised with a ``Msg`` (``str(exc)`` drops the mark)."""
    return exc.args[0] if exc.args and isinstance(exc.args[0], Msg) else str(exc)


def to_data(text: Any) -> dict[str, Any] | None:
    """A marked text as plain data an event payload can keep (None for an unmarked one), so that it
    can be shown in any language long after the event: ``from_data`` makes it a ``Msg`` again."""
    if not isinstance(text, Msg):
        return None
    params = {k: to_data(v) or v for k, v in text.params.items()}
    return {"msgid": text.msgid, "params": params, "plural": text.plural, "n": text.n, "context": text.context}


def marked(key: str, text: Any) -> dict[str, Any]:
    """``{key: to_data(text)}`` for a payload when ``text`` is marked, else nothing."""
    data = to_data(text)
    return {key: data} if data else {}


# Payloads keep marked texts (``marked``) only in games set up since this version: a game set up
# before stored none, and verify_game re-runs its adjudications and compares the events exactly,
# so its rule set must not add them (its lines read in English, as it was played).
MARKED_TEXTS_VERSION = 2


def with_marked_texts(scenario: Mapping[str, Any]) -> dict[str, Any]:
    """A scenario as a new game stores it at setup: its payloads will keep marked texts."""
    return {**scenario, "texts_version": MARKED_TEXTS_VERSION}


def marked_in(scenario: Mapping[str, Any], key: str, text: Any) -> dict[str, Any]:
    """``marked(key, text)`` in a game set up with marked texts; nothing in an older one."""
    return marked(key, text) if scenario.get("texts_version", 1) >= MARKED_TEXTS_VERSION else {}


def kept(payload: Mapping[str, Any], key: str, fallback: str) -> Any:
    """A payload's text in the reader's language: its marked form under ``key`` if it has one."""
    data = payload.get(key)
    return from_data(data) if isinstance(data, dict) else payload.get(fallback)


def from_data(data: Mapping[str, Any]) -> Msg:
    params = {k: from_data(v) if isinstance(v, dict) and "msgid" in v else v for k, v in data["params"].items()}
    msg = Msg(data["msgid"], data.get("plural"), data.get("n"), **params)
    msg.context = data.get("context")
    return msg
