"""./kb compiles the Russian catalogue on a machine without GNU gettext too (polib, pure Python)."""

import gettext
import shutil
from pathlib import Path

from django.core.management import call_command

from campaigns.management.commands import compile_catalogues

ROOT = Path(__file__).resolve().parents[2]


def test_without_msgfmt_the_catalogue_compiles_with_polib_and_reads_back(tmp_path, settings, monkeypatch):
    shutil.copytree(ROOT / "locale", tmp_path / "locale")
    settings.BASE_DIR = tmp_path
    monkeypatch.setattr(compile_catalogues.shutil, "which", lambda name: None)  # as on a bare machine
    call_command("compile_catalogues")
    catalogue = gettext.GNUTranslations((tmp_path / "locale/ru/LC_MESSAGES/django.mo").open("rb"))
    one, many = (
        "Turn %(turn)s adjudicated (%(count)s result event)",
        "Turn %(turn)s adjudicated (%(count)s result events)",
    )
    assert catalogue.ngettext(one, many, 1) == "Ход %(turn)s разобран (%(count)s событие итогов)"
    assert catalogue.ngettext(one, many, 5) == "Ход %(turn)s разобран (%(count)s событий итогов)"
    assert catalogue.gettext("map as SVG") == "карта в SVG"
