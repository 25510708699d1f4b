"""The embedded server: Django's server plus an in-process deadline sweeper.

With no broker, Celery tasks run eagerly in the calling thread; deadlines
still need a clock, so a daemon thread calls the same sweep that Celery beat
runs in production.
"""

import logging
import threading

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

from campaigns.turns import deadlines

log = logging.getLogger(__name__)


def sweeper(interval: float, stop: threading.Event) -> None:
    from django.db import close_old_connections

    while not stop.wait(interval):
        try:
            deadlines.sweep()
        except Exception:  # keep sweeping: one bad game must not stop the clock
            log.exception("deadline sweep failed")
        finally:
            close_old_connections()


class Command(BaseCommand):
    help = "Serve the site with an in-process deadline sweeper (embedded mode)."

    def add_arguments(self, parser):
        parser.add_argument("port", nargs="?", default="8000")

    def handle(self, *args, **opts):
        stop = threading.Event()
        thread = threading.Thread(target=sweeper, args=(float(settings.SWEEP_INTERVAL_SECONDS), stop), daemon=True)
        thread.start()
        url = f"http://127.0.0.1:{opts['port']}/"
        self.stdout.write(self.style.SUCCESS(f"Kriegsbrief is running at {url}"))
        self.stdout.write("Demo logins (password 'kriegsbrief'): umpire, red, blue")
        self.stdout.write(f"Mail goes to {settings.OUTBOX_DIR} as .eml files. Ctrl-C stops.")
        try:
            call_command("runserver", f"127.0.0.1:{opts['port']}", use_reloader=False)
        finally:
            stop.set()
