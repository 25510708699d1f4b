"""Celery application. Tasks are thin wrappers over commands (campaigns.turns.tasks,
campaigns.mailout.tasks, campaigns.mailin.tasks), found through campaigns/tasks.py and
campaigns/mailin/tasks.py by autodiscovery; their names are kept as deployed."""

import functools
import os

from celery import Celery, signals
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

    def on_connection_error_after_connected(self, exc):
        # Celery 5.7.0 collects the broken connection, then closes it; the close closes its default
        # channel, whose restore of unacknowledged messages goes through the client the collect
        # removed (AttributeError: 'NoneType' object has no attribute 'hostname'), which Celery
        # takes for an "Unrecoverable error" and stops the worker for good: worker-mail, whose
        # threads always hold sends in flight, after every Redis blip (bench/load.py --fault
        # redis-outage; tests/platform/test_broker_outage.py). Without the channel the close
        # releases the socket and nothing more, as 5.6 did: the unacknowledged messages stay in
        # Redis, and their work's leases hand it to the rescue.
        if self.connection is not None:
            self.connection._default_channel = None
        super().on_connection_error_after_connected(exc)


app = Celery("kriegsbrief")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@signals.task_prerun.connect
@signals.task_postrun.connect
def keep_healthy_connections(sender=None, **kwargs) -> None:
    """A task's database connections live as a request's do: kept for DATABASE_CONN_MAX_AGE, and
    checked before the next task uses them (CONN_HEALTH_CHECKS), so one broken by a database restart
    is replaced. Celery 5.7 closes every connection around every task (its Django fixup; the
    CONN_MAX_AGE behaviour was reverted upstream, celery/celery#9824) unless CELERY_DB_REUSE_MAX
    says otherwise, which settings.py does: a new connection per task cost each task a handshake and
    the server a backend process with cold caches (bench/load.py at its defaults: 17.7 sessions
    opened a second, 2.4 with them kept). Django's own request signal handler does this for the web."""
    if sender is not None and getattr(sender.request, "is_eager", False):
        return  # in-process (the demo, tests): the caller's connection, inside its transaction
    from django.db import close_old_connections

    close_old_connections()


@signals.worker_init.connect
def use_worker_timeouts(sender=None, **kwargs) -> None:
    """A worker's database timeouts are the workers' (kriegsbrief/dbtimeouts.py: longer than a web
    request's, and a session stopped inside a transaction still ends), set before it opens any
    connection; a prefork pool's children inherit them."""
    from django.conf import settings
    from django.db import connections

    if getattr(settings, "DATABASE_PGBOUNCER", False) or connections["default"].vendor != "postgresql":
        return
    from kriegsbrief import dbtimeouts

    dbtimeouts.apply(settings.DATABASES["default"], os.environ, "worker")
    connections["default"].settings_dict["OPTIONS"] = settings.DATABASES["default"]["OPTIONS"]
    connections.close_all()
