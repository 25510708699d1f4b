"""A real Celery worker on Redis adjudicates turns exactly once, even when killed."""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis

from campaigns.models import Event
from campaigns.turns import commands, deadlines
from kriegsbrief import queues
from kriegsbrief.celery import app
from tests.services import REDIS_URL, database_url, needs_redis

from .helpers import state_of

pytestmark = [needs_redis, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parents[2]
# This run's queues (kriegsbrief/queues.py) carry a prefix of their own, in this process and in
# the workers it starts, so runs sharing a Redis never take each other's tasks.
PREFIX = f"kb-test-{os.getpid()}-"
QUEUE = queues.name("maintenance", PREFIX)  # the default queue


def queue_of(kind: str) -> str:
    return queues.name(kind, PREFIX)


class Worker:
    """A real Celery worker (prefork, one child) consuming the given kinds' queues (all by default)."""

    def __init__(self, kinds=queues.KINDS, env=None):
        env = {**os.environ, "DATABASE_URL": database_url(), "CELERY_BROKER_URL": REDIS_URL,
               "CELERY_TASK_ALWAYS_EAGER": "false", "LOG_LEVEL": "INFO", "CELERY_QUEUE_PREFIX": PREFIX,
               **(env or {})}
        env.pop("CELERY_TASK_DEFAULT_QUEUE", None)
        name = f"{PREFIX}{'-'.join(kinds)}"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "kriegsbrief", "worker", "-Q", ",".join(map(queue_of, kinds)),
             "--pool=prefork", "--concurrency=1", "--without-gossip", "--without-mingle", "--without-heartbeat",
             "-n", f"{name}@%h"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def child_pid(self, timeout=30.0) -> int:
        deadline = time.time() + timeout
        while time.time() < deadline:
            path = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children")
            kids = path.read_text().split() if path.exists() else []
            if kids:
                return int(kids[0])
            time.sleep(0.2)
        raise AssertionError("the worker started no child process")

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


class Beat:
    """Celery beat, sending the rescue every ``rescue_every`` seconds to this run's maintenance queue."""

    def __init__(self, tmp_path, rescue_every: float = 1.0):
        env = {**os.environ, "DATABASE_URL": database_url(), "CELERY_BROKER_URL": REDIS_URL,
               "CELERY_TASK_ALWAYS_EAGER": "false", "CELERY_QUEUE_PREFIX": PREFIX,
               "RESCUE_INTERVAL_SECONDS": str(rescue_every)}
        env.pop("CELERY_TASK_DEFAULT_QUEUE", None)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "kriegsbrief", "beat", "--schedule", str(tmp_path / "beat-schedule")],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


@pytest.fixture
def broker():
    """Send tasks to Redis instead of running them in-process, on a queue of our own."""
    redis.Redis.from_url(REDIS_URL).flushdb()
    keys = ("task_always_eager", "broker_url", "task_default_queue", "task_routes", "task_queues")
    old = {k: app.conf[k] for k in keys}
    app.conf.update(task_always_eager=False, broker_url=REDIS_URL, task_default_queue=QUEUE,
                    task_routes=queues.routes(PREFIX), task_queues=queues.queues(PREFIX))
    _reset_connections()
    yield
    app.conf.update(old)
    _reset_connections()


def _reset_connections():
    # The connection and producer pools are built lazily from the conf: drop
    # them so the next task is sent with the conf we just set.
    app._pool = None
    app.amqp._producer_pool = None
    for built in ("queues", "default_queue", "router"):  # built once from task_queues and task_routes
        app.amqp.__dict__.pop(built, None)


@pytest.fixture
def worker(broker):
    w = Worker()
    yield w
    w.stop()


def wait_for(predicate, timeout=60.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


def close_with_orders(game):
    from rules.civilwar import legal_operations

    text = legal_operations(state_of(game)["rules"], "red")[0]
    commands.submit_orders(game.pk, "red", text, source="api", ready=False)
    commands.close_turn(game.pk, "closed by the umpire")  # queues adjudication on commit


def adjudications(game):
    return Event.objects.filter(game=game, type="turn.adjudicated", turn=1).count()


def test_a_real_worker_adjudicates_a_closed_turn(game, worker):
    close_with_orders(game)
    assert wait_for(lambda: state_of(game)["turn"]["number"] == 2), "the worker did not adjudicate"
    assert adjudications(game) == 1


def test_the_same_task_delivered_twice_adds_results_once(game, worker):
    from campaigns.tasks import adjudicate_turn

    close_with_orders(game)
    for _ in range(5):
        adjudicate_turn.delay(game.pk, 1)
    assert wait_for(lambda: state_of(game)["turn"]["number"] == 2)
    time.sleep(3)  # let every duplicate run
    assert adjudications(game) == 1


def test_a_worker_killed_mid_adjudication_is_recovered_exactly_once(game, broker):
    """The worker is SIGKILLed while it waits on the game lock inside adjudication."""
    import psycopg

    close_with_orders(game)  # the task waits in Redis: no worker yet
    with psycopg.connect(database_url()) as blocker:
        # Hold the stream head so the task is stuck mid-adjudication.
        blocker.execute("SELECT 1 FROM campaigns_game WHERE id = %s FOR UPDATE", [game.pk])
        worker = Worker()
        try:
            child = worker.child_pid()
            assert wait_for(lambda: _waiting_on_lock(game), 60), "the task never reached the lock"
            os.kill(child, signal.SIGKILL)
            time.sleep(1)
            blocker.rollback()
            assert wait_for(lambda: state_of(game)["turn"]["number"] == 2, 90), "the killed task was not redelivered"
        finally:
            worker.stop()
    assert adjudications(game) == 1
    from campaigns.turns.gamelog import verify_game

    assert verify_game(game).ok


def _waiting_on_lock(game) -> bool:
    import psycopg

    with psycopg.connect(database_url(), autocommit=True) as conn:
        row = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                           "AND query ILIKE '%%campaigns_game%%'").fetchone()
    return row[0] > 0


def test_sweep_requeues_an_adjudication_whose_task_was_lost(game, broker, settings):
    from datetime import timedelta

    from django.utils import timezone

    close_with_orders(game)  # queued to Redis, but no worker is running
    redis.Redis.from_url(REDIS_URL).flushdb()  # the broker loses the task
    assert deadlines.sweep()["requeued"] == 0  # its message owns it until the lease runs out
    later = timezone.now() + timedelta(seconds=settings.ADJUDICATION_LEASE_SECONDS + 1)
    assert deadlines.sweep(now=later)["requeued"] == 1
    assert deadlines.sweep(now=later)["requeued"] == 0  # queued once: the rescue's lease holds it now
    worker = Worker()
    try:
        assert wait_for(lambda: state_of(game)["turn"]["number"] == 2)
    finally:
        worker.stop()
    assert adjudications(game) == 1
