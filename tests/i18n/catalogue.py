"""Reading the Russian catalogue in the i18n tests."""

from __future__ import annotations

import re
from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "locale" / "ru" / "LC_MESSAGES" / "django.po"
# %(name)s / %(name).1f (Django's python-format) and {name} / {name:g} (the rule sets' brace format).
PLACEHOLDER = re.compile(r"%\((\w+)\)[-#0 +]*\d*(?:\.\d+)?[sdifg]|\{(\w+)(?::[^}]*)?\}")


def entries() -> list[polib.POEntry]:
    return [e for e in polib.pofile(str(PO)) if not e.obsolete]


def placeholders(text: str) -> set[str]:
    return {a or b for a, b in PLACEHOLDER.findall(text)}


def plain_msgids(min_words: int = 2) -> list[tuple[str, str]]:
    """(English, Russian) of the translated texts without placeholders or markup: a page or mail
    that shows one of these English texts to a Russian reader shows untranslated text."""
    out = []
    for e in entries():
        if e.msgid_plural or placeholders(e.msgid) or "<" in e.msgid or "&" in e.msgid or "\n" in e.msgid:
            continue
        words = e.msgid.split()
        if len(words) >= min_words and e.msgstr and e.msgstr != e.msgid:
            out.append((e.msgid, e.msgstr))
    return out
