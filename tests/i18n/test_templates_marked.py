"""Every word a template shows is marked for translation: outside {% translate %} and
{% blocktranslate %}, a template's text holds markup, punctuation and names only."""

import re
from pathlib import Path

import pytest
from django.template.base import Lexer, TokenType

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"
# The project's templates and those an app keeps beside its code (campaigns/mailin/templates).
ALL = sorted([*TEMPLATES.rglob("*.*"), *ROOT.glob("campaigns/*/templates/**/*.*")])
# Words that are names, not text: the brand, and map units written as symbols.
NAMES = {"Kriegsbrief"}
WORD = re.compile(r"[A-Za-z]{2,}")


def bare_words(source: str) -> list[str]:
    # The template's own text, each tag or variable a placeholder (an HTML tag may hold some),
    # blocktranslate's contents dropped.
    text, inside_block = [], 0
    for token in Lexer(source).tokenize():
        if token.token_type == TokenType.BLOCK:
            name = token.contents.split()[0]
            inside_block += name == "blocktranslate"
            inside_block -= name == "endblocktranslate"
        if token.token_type == TokenType.TEXT and not inside_block:
            text.append(token.contents)
        else:
            text.append("\x00")
    text = re.sub(r"<(style|script)\b.*?</\1>", " ", "".join(text), flags=re.S | re.I)
    found = []
    for part in re.split(r"(<[^>]*>)", text):
        if part.startswith("<"):
            found += [
                v
                for v in re.findall(r'\b(?:title|aria-label|placeholder|data-label)="([^"\x00]*)"', part)
                if WORD.search(v)
            ]
        else:
            part = re.sub(r"\S*/\S*|&\w+;", " ", part)  # links ({{ site_url }}/games/…) and &times; entities
            found += [w for w in WORD.findall(part) if w not in NAMES]
    return found


@pytest.mark.parametrize("path", ALL, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_bare_words_in_a_template(path):
    assert bare_words(path.read_text()) == []


def test_the_check_finds_a_bare_word():
    assert bare_words("<p>Deadline passed</p>{% translate 'ok' %}") == ["Deadline", "passed"]
    assert bare_words('<button title="Zoom in">+</button>') == ["Zoom in"]
    assert bare_words("{% blocktranslate %}Turn {{ n }}{% endblocktranslate %}<style>.a { color: red }</style>") == []
