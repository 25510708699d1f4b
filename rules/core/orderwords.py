"""Order words in two languages: a Russian order line read as its English, canonical words.

Each rule set keeps a table of the Russian words of its order language (documented in its
RULES.md) and reads every line through ``canonical`` before its own parser, so one parser serves
both languages and the orders are echoed back in canonical words. A table maps a word to its
English word, or to ``{verb: word, "*": word}`` where the same Russian word means two things
("в": "at" after "attacked" or in a deploy order, "to" elsewhere). Words are compared case-folded, NFC, with ё as е.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Mapping

from .i18n import _

Table = Mapping[str, "str | Mapping[str, str]"]

# A run of letters standing alone (not glued to digits or "_": "С5" is a point, not the word "с").
_WORD = re.compile(r"(?<![\w])[^\W\d_]+(?![\w])")
_TOKEN = re.compile(r"\w+")
# Cyrillic letters that look like Latin ones: a point id typed on a Russian keyboard ("С5").
_HOMOGLYPHS = str.maketrans("АВСЕНКМОРТХасеорх", "ABCEHKMOPTXaceopx")


class MixedScript(ValueError):
    """A word mixing Latin and Cyrillic letters: it would silently match nothing."""


def normal(word: str) -> str:
    return unicodedata.normalize("NFC", word).casefold().replace("ё", "е")


def _cyrillic(ch: str) -> bool:
    return "CYRILLIC" in unicodedata.name(ch, "")


def _latin(ch: str) -> bool:
    return "LATIN" in unicodedata.name(ch, "")


def _check_script(token: str) -> None:
    letters = [c for c in token if c.isalpha()]
    if any(map(_cyrillic, letters)) and any(map(_latin, letters)):
        odd = (
            [c for c in letters if _cyrillic(c)]
            if sum(map(_latin, letters)) >= sum(map(_cyrillic, letters))
            else [c for c in letters if _latin(c)]
        )
        raise MixedScript(
            _(
                "'{word}' mixes Latin and Cyrillic letters ('{letter}' is from the other alphabet)",
                word=token,
                letter=odd[0],
            )
        )


def _id(token: str) -> str:
    """A point or figure id typed in Cyrillic look-alikes ("С5") as the Latin id it looks like."""
    if any(c.isdigit() for c in token) and all(not c.isalpha() or c in "АВСЕНКМОРТХасеорх" for c in token):
        return token.translate(_HOMOGLYPHS)
    return token


def canonical(line: str, table: Table) -> str:
    """``line`` with every word of ``table`` replaced by its English word; any other word stays.
    Raises MixedScript for a word that mixes the two alphabets."""
    for token in _TOKEN.findall(line):
        _check_script(token)
    line = _TOKEN.sub(lambda m: _id(m.group(0)), line)
    verb = previous = None
    out, last = [], 0
    for m in _WORD.finditer(line):
        word = m.group(0)
        english = table.get(normal(word))
        if isinstance(english, Mapping):  # by the word before it, else by the line's verb
            english = english.get(previous or "") or english.get(verb or "") or english.get("*")
        out.append(line[last : m.start()] + (english or word))
        last = m.end()
        previous = normal(english or word)
        verb = verb or previous
    return "".join(out) + line[last:]


def heads(table: Table, english_heads: Collection[str]) -> tuple[str, ...]:
    """The Russian words that may begin an order line: those whose English word begins one."""
    return tuple(ru for ru, en in table.items() if isinstance(en, str) and en in english_heads)
