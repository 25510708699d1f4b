"""The Russian catalogue is complete, its placeholders match, and gettext accepts it."""

import os
import shutil
import subprocess
import sys

import polib
import pytest
from django.utils import translation

from campaigns.i18n import render
from rules.core.i18n import ngettext

from .catalogue import PO, ROOT, entries, placeholders

SOURCES = ("api", "campaigns", "kriegsbrief", "rules", "templates", "manage.py")


def test_every_msgid_makemessages_extracts_has_a_russian_translation(tmp_path):
    # Extract from a copy of the sources, so the committed catalogue is compared, never rewritten.
    for name in SOURCES:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
        else:
            shutil.copy(src, tmp_path / name)
    (tmp_path / "locale").mkdir()
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "kriegsbrief.settings", "KRIEGSBRIEF_VAR_DIR": str(tmp_path / "var")}
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "ru", "-e", "html,txt,py", "--no-location"],
        cwd=tmp_path,
        check=True,
        capture_output=True,
        env=env,
    )
    extracted = polib.pofile(str(tmp_path / "locale" / "ru" / "LC_MESSAGES" / "django.po"))
    committed = {(e.msgctxt, e.msgid): e for e in entries()}
    assert len(extracted) > 500
    missing = []
    for e in extracted:
        ours = committed.get((e.msgctxt, e.msgid))
        forms = [] if ours is None else list(ours.msgstr_plural.values()) if ours.msgid_plural else [ours.msgstr]
        if ours is None or "fuzzy" in ours.flags or not forms or not all(f.strip() for f in forms):
            missing.append(e.msgid)
    assert not missing, f"{len(missing)} texts without a Russian translation, e.g. {missing[:5]}"


def test_the_catalogue_has_the_russian_three_plural_forms_and_no_fuzzy_entry():
    po = polib.pofile(str(PO))
    assert po.metadata["Plural-Forms"].startswith("nplurals=3;")
    assert not po.metadata_is_fuzzy
    assert not [e.msgid for e in po if "fuzzy" in e.flags]
    assert all(len(e.msgstr_plural) == 3 for e in po if e.msgid_plural)


@pytest.mark.parametrize("entry", entries(), ids=lambda e: e.msgid[:40])
def test_each_translation_keeps_the_placeholders_of_its_english(entry):
    if entry.msgid_plural:
        for form in entry.msgstr_plural.values():
            assert placeholders(form) == placeholders(entry.msgid_plural), (entry.msgid, form)
    else:
        assert placeholders(entry.msgstr) == placeholders(entry.msgid), (entry.msgid, entry.msgstr)


def test_msgfmt_checks_the_catalogue(tmp_path):
    result = subprocess.run(
        ["msgfmt", "--check", "-o", str(tmp_path / "ru.mo"), str(PO)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    "n, word",
    [
        (0, "фигур"),
        (1, "фигура"),
        (2, "фигуры"),
        (5, "фигур"),
        (11, "фигур"),
        (21, "фигура"),
        (22, "фигуры"),
        (25, "фигур"),
        (111, "фигур"),
    ],
)
def test_counted_words_take_the_russian_plural_form(n, word):
    with translation.override("ru"):
        assert render(ngettext("{n} figure", "{n} figures", n)) == f"{n} {word}"
    with translation.override("en"):
        assert render(ngettext("{n} figure", "{n} figures", n)) == f"{n} {'figure' if n == 1 else 'figures'}"
