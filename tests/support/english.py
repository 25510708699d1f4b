"""Finding English left in what a Russian reader is shown: the catalogue's own English (its msgids,
placeholders read as "anything"), the rule sets' marked texts, and any run of plain English words
(untranslated text that was never marked). Proper names and the order language, shown as syntax,
are allowed."""

from __future__ import annotations

import importlib
import re
from functools import lru_cache
from html.parser import HTMLParser

from rules import catalog
from tests.i18n.catalogue import entries

# %(name)s, {name}, {name:g}: any text in their place.
_PLACEHOLDER = re.compile(r"%\(\w+\)[-#0 +]*\d*(?:\.\d+)?[sdifg]|\{\w+(?::[^}]*)?\}")
# A word of English prose: letters only (unit ids, points and coordinates such as foot1, C12, 24,18 are not).
_WORD = r"[A-Za-z][a-z]+(?:'[a-z]+)?"
_RUN = re.compile(rf"(?<![\w.-]){_WORD}(?:[ ,;:]+{_WORD}){{3,}}(?![\w-])")
# Words that are the same in both languages or are names: they never make a run English.
NAMES = {"Kriegsbrief", "Kriegspiel", "Wells", "Sykes", "UTC", "MIME", "DMARC", "DKIM", "From", "Date"}


# Syntax quoted in a sentence ('bob as commander, frank as cavalry'), shown as typed.
_QUOTED = re.compile(r"'[^'\n]{1,80}'|«[^»\n]{1,80}»|`[^`\n]{1,80}`")


@lru_cache(maxsize=1)
def order_words() -> frozenset[str]:
    """The English words of every rule set's order language (the values of its Russian table):
    a list of them is the order language shown as syntax, not English prose."""
    words: set[str] = set()
    for name in catalog.names():
        table = importlib.import_module(f"rules.{name}.orders").RU_WORDS
        for value in table.values():
            for text in value.values() if isinstance(value, dict) else [value]:
                words.update(str(text).split())
        desk = str(getattr(catalog.get(name), "umpire_help", ""))  # the desk's orders: each line's first column
        words.update(w for line in desk.splitlines() for w in re.split(r"\s{2,}", line)[0].split())
    return frozenset(words)


def _fixed_parts(msgid: str) -> list[str]:
    return [p.strip(" .,:;()") for p in _PLACEHOLDER.split(msgid)]


@lru_cache(maxsize=1)
def catalogue_english() -> tuple[re.Pattern[str], ...]:
    """A pattern for each translated msgid of three or more words outside its placeholders."""
    out = []
    for e in entries():
        if not e.msgstr and not e.msgstr_plural:
            continue
        for text in (e.msgid, e.msgid_plural):
            parts = [p for p in _fixed_parts(text or "") if len(re.findall(_WORD, p)) >= 3]
            for part in parts:
                ru = e.msgstr or next(iter(e.msgstr_plural.values()), "")
                if part and part not in ru:  # "Kriegsbrief" and the like read the same in both
                    out.append(re.compile(rf"(?<!\w){re.escape(part)}(?!\w)"))
    return tuple(out)


@lru_cache(maxsize=1)
def proper_names() -> tuple[str, ...]:
    """Rule sets' and scenarios' titles: names, shown as they are in any language."""
    names = set()
    for name in catalog.names():
        rs = catalog.get(name)
        names.add(str(rs.title))
        names.update(str(title) for _, title in rs.scenarios())
        names.add(str(rs.load_scenario(None).get("title") or rs.title))
    return tuple(sorted(names, key=len, reverse=True))


def without_names(text: str, extra: tuple[str, ...] = ()) -> str:
    for name in (*extra, *proper_names()):
        text = text.replace(name, " ")
    return text


def english(text: str, extra_names: tuple[str, ...] = ()) -> list[str]:
    """The English a Russian reader would find in ``text``: msgids of the catalogue, and runs of four
    or more plain English words (not counting names)."""
    text = _QUOTED.sub(" ", without_names(text, extra_names))
    found = [p.pattern for p in catalogue_english() if p.search(text)]
    for run in _RUN.findall(text):
        words = [w for w in re.findall(_WORD, run) if w not in NAMES]
        if len(words) >= 4 and not set(words) <= order_words():
            found.append(run)
    return found


class _Visible(HTMLParser):
    """The text of a page as read: text nodes and the labels of controls, not scripts, styles or
    the order box (the player's own text) or the map."""

    SYNTAX = ("script", "style", "textarea", "svg")

    def __init__(self):
        super().__init__()
        self.parts, self._hidden = [], 0

    def handle_starttag(self, tag, attrs):
        self._hidden += tag in self.SYNTAX
        if not self._hidden:
            self.parts += [v for k, v in attrs if k in ("title", "aria-label", "placeholder", "alt") and v]

    def handle_endtag(self, tag):
        self._hidden -= tag in self.SYNTAX

    def handle_data(self, data):
        if not self._hidden:
            self.parts.append(data)


def visible(html: str) -> str:
    parser = _Visible()
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())
