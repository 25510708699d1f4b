"""No template tag may be broken over lines: Django's lexer does not read a tag that spans a
newline, so it would reach the reader as text ("{{ legal_operations|join:" on the game page)."""

from pathlib import Path

import pytest
from django.conf import settings
from django.template import engines
from django.template.base import Lexer, TokenType

ROOTS = [Path(d) for d in settings.TEMPLATES[0]["DIRS"]] + list(Path(settings.BASE_DIR).glob("campaigns/**/templates"))
TEMPLATES = sorted(t for root in ROOTS for t in root.rglob("*") if t.suffix in {".html", ".txt"})


def test_templates_were_found():
    assert any(t.name == "game.html" for t in TEMPLATES)


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: str(p.relative_to(settings.BASE_DIR)))
def test_no_template_tag_is_left_as_text(path):
    engines["django"]  # settings loaded, lexer ready
    for token in Lexer(path.read_text()).tokenize():
        if token.token_type is TokenType.TEXT:
            for opener in ("{{", "{%", "{#"):
                assert opener not in token.contents, f"{path.name}:{token.lineno}: a tag broken over lines"
