"""A worker with a task in flight rides out a Redis restart: it reconnects and answers again.

Celery 5.7.0 as released did not: on the lost connection it collected the connection and then closed
it, and the close's restore of the unacknowledged message met the collected client
(AttributeError: 'NoneType' object has no attribute 'hostname'), an "Unrecoverable error" that
stopped the worker for good - worker-mail, whose threads always hold sends in flight, after every
Redis blip (bench/load.py --fault redis-outage: 129 mails never sent). kriegsbrief/celery.py
works round it (QuickReconnectConsumer.on_connection_error_after_connected).

A Redis of the test's own (so stopping it touches nobody else), a worker as deploy/Procfile runs
worker-mail (threads), its send held by an SMTP server that accepts and never answers."""

import shutil
import socket
import subprocess
import sys
import time

import pytest
from celery import Celery
from django.utils import timezone

from campaigns.mailout import outbox
from campaigns.models import OutboxMail
from kriegsbrief import queues
from tests.services import REQUIRE, needs_redis
from tests.support.workers import ROOT, _process_env, wait_for

pytestmark = [
    needs_redis,
    pytest.mark.skipif(not REQUIRE and not shutil.which("redis-server"), reason="needs redis-server"),
    pytest.mark.django_db(transaction=True),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PrivateRedis:
    def __init__(self, tmp_path):
        self.port, self.dir, self.proc = free_port(), tmp_path, None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self):
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            cwd=self.dir,
            stdout=subprocess.DEVNULL,
        )
        assert wait_for(lambda: _answers(self.port), 10), "redis-server did not start"

    def stop(self):
        self.proc.terminate()
        self.proc.wait(10)


def _answers(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


def test_a_worker_with_a_send_in_flight_rides_out_a_redis_restart(game, tmp_path):
    redis = PrivateRedis(tmp_path)
    redis.start()
    silent = socket.socket()  # an SMTP server that accepts and never says a word
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    queue, name = queues.name("mail", "kb-outage-"), f"outage-{time.time_ns()}@test"
    env = _process_env(
        CELERY_BROKER_URL=redis.url,
        CELERY_QUEUE_PREFIX="kb-outage-",
        EMAIL_URL=f"smtp://127.0.0.1:{silent.getsockname()[1]}",
        EMAIL_TIMEOUT="60",
    )
    args = ["-Q", queue, "--pool", "threads", "--concurrency", "2", "-n", name, "--without-gossip", "--without-mingle"]
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "kriegsbrief", "worker", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    # Not the current app: the tests after this one queue their work through kriegsbrief's.
    probe = Celery(broker=redis.url, set_as_current=False)
    try:
        row = OutboxMail.objects.create(key="outage-1", to="bob@example.org", subject="s", body="b", game=game)
        OutboxMail.objects.filter(pk=row.pk).update(next_attempt_at=timezone.now())
        probe.send_task(outbox.SEND_TASK, args=[row.pk], queue=queue)
        in_flight = lambda: OutboxMail.objects.get(pk=row.pk).status == OutboxMail.Status.SENDING  # noqa: E731
        assert wait_for(in_flight, 60), "the worker never took the send"
        redis.stop()
        time.sleep(3)  # the worker's consumer sees the connection go
        redis.start()
        answered = lambda: bool(probe.control.ping(destination=[name], timeout=1.0))  # noqa: E731
        assert wait_for(answered, 30), "the worker did not come back after Redis did"
        assert worker.poll() is None and in_flight()  # alive, and its send still in its hands
    finally:
        worker.kill()
        worker.wait(10)
        silent.close()
        redis.stop()
