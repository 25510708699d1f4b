"""With a broker, the after-commit publish of a send task runs on the outbox's publisher
thread: the task reaches Redis, a rolled-back row publishes nothing, and a publish that
fails leaves the row PENDING for the sweep."""

import base64
import json
import os
import subprocess
import sys
import textwrap

import pytest
import redis
from django.db import transaction
from django.utils import timezone

from campaigns.mailout import outbox
from campaigns.models import OutboxMail
from tests.services import REDIS_URL, needs_redis
from tests.support.workers import PREFIX, QUEUE, ROOT, queue_of  # noqa: F401

pytestmark = [needs_redis, pytest.mark.django_db(transaction=True)]


def tasks_on_broker() -> list[int]:
    """The row ids of the send tasks waiting on the test's queue (Celery protocol 2, JSON)."""
    out = []
    for raw in redis.Redis.from_url(REDIS_URL).lrange(queue_of("mail"), 0, -1):
        message = json.loads(raw)
        assert message["headers"]["task"] == "campaigns.tasks.send_outbox_mail"
        out.append(json.loads(base64.b64decode(message["body"]))[0][0])
    return sorted(out)


def queue(game, key):
    return outbox.queue_mail(key=key, to="bob@example.org", subject="Hello", body="x", game=game)


def test_committed_rows_reach_the_broker_and_a_rolled_back_one_does_not(game, broker):
    with transaction.atomic():
        first = queue(game, "pub-1")
        second = queue(game, "pub-2")
    with pytest.raises(RuntimeError), transaction.atomic():
        queue(game, "pub-3")
        raise RuntimeError("the command failed")
    outbox.flush_publisher()
    assert tasks_on_broker() == sorted([first.pk, second.pk])
    assert set(OutboxMail.objects.exclude(kind="start").values_list("status", flat=True)) == {"pending"}  # no worker


def test_a_failed_publish_leaves_the_row_for_the_sweep(game, broker, monkeypatch, caplog):
    from campaigns.tasks import send_outbox_mail

    def down(*args, **kwargs):
        raise ConnectionRefusedError("broker down")

    monkeypatch.setattr(send_outbox_mail, "delay", down)
    row = queue(game, "pub-down")
    outbox.flush_publisher()
    assert "queueing failed (ConnectionRefusedError); the sweep retries" in caplog.text
    monkeypatch.undo()
    assert tasks_on_broker() == []
    row.refresh_from_db()
    assert row.status == "pending" and row.leased_until is None  # the failed hand-off released it
    assert outbox.requeue_due(timezone.now()) == 1  # so the rescue queues it at once
    assert outbox.requeue_due(timezone.now()) == 0  # and once
    outbox.flush_publisher()
    assert tasks_on_broker() == [row.pk]


def test_a_process_that_exits_right_after_committing_still_publishes(game, broker):
    """The MTA pipe's case: the command exits as soon as the message is processed."""
    from tests.services import database_url

    script = textwrap.dedent(f"""
        import django, os
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kriegsbrief.settings")
        django.setup()
        from campaigns.mailout import outbox
        from campaigns.models import Game
        outbox.queue_mail(key="pub-exit", to="bob@example.org", subject="Hi", body="x", game=Game.objects.get(pk={game.pk}))
    """)
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "CELERY_BROKER_URL": REDIS_URL,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "CELERY_QUEUE_PREFIX": PREFIX,
    }
    proc = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, timeout=120)
    assert proc.returncode == 0, proc.stderr.decode()
    assert tasks_on_broker() == [OutboxMail.objects.get(key="pub-exit").pk]
