"""A real Celery worker on Redis for the tests, on a queue of the test run's own: the broker
fixture sends tasks there instead of running them in-process; the worker fixtures start a
worker process (plain, with mail kept in memory, or with mail to the SMTP sink)."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis

from campaigns.mailout import outbox
from campaigns.turns import gamelog
from kriegsbrief import queues
from kriegsbrief.celery import app
from tests.services import REDIS_URL, database_url

ROOT = Path(__file__).resolve().parents[2]
# This run's queues (kriegsbrief/queues.py) carry a prefix of their own, in this process and in
# the workers it starts, so runs sharing a Redis never take each other's tasks.
PREFIX = f"kb-test-{os.getpid()}-"
QUEUE = queues.name("maintenance", PREFIX)  # the default queue


def queue_of(kind: str) -> str:
    return queues.name(kind, PREFIX)


def _process_env(**extra: str) -> dict[str, str]:
    """The environment of a worker or beat this run starts: its database, Redis and queue prefix
    (tasks routed by kind, so no default queue is inherited from the test process)."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "CELERY_BROKER_URL": REDIS_URL,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "CELERY_QUEUE_PREFIX": PREFIX,
        **extra,
    }
    env.pop("CELERY_TASK_DEFAULT_QUEUE", None)
    return env


class Worker:
    """A real Celery worker (prefork, one child) consuming the given kinds' queues (all by default)."""

    def __init__(self, kinds=queues.KINDS, env=None):
        env = _process_env(LOG_LEVEL="INFO", **(env or {}))
        name = f"{PREFIX}{'-'.join(kinds)}"
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "kriegsbrief",
                "worker",
                "-Q",
                ",".join(map(queue_of, kinds)),
                "--pool=prefork",
                "--concurrency=1",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "-n",
                f"{name}@%h",
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def child_pid(self, timeout=30.0) -> int:
        deadline = time.time() + timeout
        while time.time() < deadline:
            path = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children")
            kids = path.read_text().split() if path.exists() else []
            # The pool's child, not a passing helper the main process ran while loading (ctypes'
            # find_library runs ldconfig, for instance).
            pool = [int(k) for k in kids if b"celery" in _cmdline(int(k))]
            if pool:
                return pool[0]
            time.sleep(0.2)
        raise AssertionError("the worker started no child process")

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:  # gone already
        return b""


class Beat:
    """Celery beat, sending the rescue every ``rescue_every`` seconds to this run's maintenance queue."""

    def __init__(self, tmp_path, rescue_every: float = 1.0):
        env = _process_env(RESCUE_INTERVAL_SECONDS=str(rescue_every))
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "kriegsbrief",
                "beat",
                "--schedule",
                str(tmp_path / "beat-schedule"),
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

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
    app.conf.update(
        task_always_eager=False,
        broker_url=REDIS_URL,
        task_default_queue=QUEUE,
        task_routes=queues.routes(PREFIX),
        task_queues=queues.queues(PREFIX),
    )
    _reset_connections()
    yield
    # What the test handed the publisher thread goes to this broker now: published after the
    # eager conf is back, it would run in that thread, in a later test, on a connection of its own.
    outbox.flush_publisher()
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


@pytest.fixture
def lw_worker(broker, monkeypatch):
    # Tasks the worker queues itself (mail after each turn) stay on this test's queue, and the
    # worker keeps its mail in memory: mail is not what this test is about.
    monkeypatch.setenv("EMAIL_BACKEND", "django.core.mail.backends.locmem.EmailBackend")
    w = Worker()
    yield w
    w.stop()


@pytest.fixture
def mail_worker(broker, smtp, settings, monkeypatch, tmp_path):
    # The worker is another process: it reads the SMTP sink's address and a
    # one-second retry base from its environment. Beat sends the rescue, which queues retries.
    monkeypatch.setenv("EMAIL_URL", f"smtp://{settings.EMAIL_HOST}:{settings.EMAIL_PORT}")
    monkeypatch.setenv("OUTBOX_RETRY_BASE_SECONDS", "1")
    w, beat = Worker(), Beat(tmp_path)
    yield w
    beat.stop()
    w.stop()


def wait_for_adjudication(game, number, timeout=60.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        state = gamelog.load(game.pk).state
        if state.status != "active" or state.turn.number > number:
            return
        time.sleep(0.1)
    raise AssertionError(f"the worker did not adjudicate turn {number} in {timeout:g} s")
