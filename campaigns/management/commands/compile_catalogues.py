"""Compile the translation catalogues (locale/*/LC_MESSAGES/django.po -> .mo).

GNU gettext's msgfmt (Django's compilemessages) when it is installed; otherwise polib, in pure
Python, so the first command of the README works on a machine that has only Python.
"""

import shutil
from pathlib import Path

import polib
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Compile the .po catalogues to .mo (msgfmt if installed, else polib)."

    def handle(self, *args, **options):
        if shutil.which("msgfmt"):
            call_command("compilemessages", ignore_patterns=[".venv", "var", "node_modules"], verbosity=0)
            return
        for po in sorted(Path(settings.BASE_DIR, "locale").glob("*/LC_MESSAGES/*.po")):
            polib.pofile(str(po)).save_as_mofile(str(po.with_suffix(".mo")))
