"""Celery application. Tasks are thin wrappers over commands (campaigns.turns.tasks,
campaigns.mailout.tasks, campaigns.mailin.tasks), found through campaigns/tasks.py and
campaigns/mailin/tasks.py by autodiscovery; their names are kept as deployed."""

import functools
import os

from celery import Celery
from celery.worker.consumer import Consumer

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kriegsbrief.settings")


class QuickReconnectConsumer(Consumer):
    """A worker that reconnects to the broker within a second or two of its return.

    kombu waits 2, 4, 6 … up to 30 s between attempts, so after a 30 s Redis outage a worker
    could sit idle another 12 s or more; here the waits are 1, 2, 2 … s (settings:
    CELERY_WORKER_CONSUMER)."""

    def ensure_connected(self, conn):
        conn.ensure_connection = functools.partial(
            conn.ensure_connection, interval_start=1, interval_step=1, interval_max=2
        )
        return super().ensure_connected(conn)


app = Celery("kriegsbrief")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
