"""/healthz against the real PostgreSQL and Redis: 200 when the database, the broker, the sweep's
heartbeat and the work all pass, 503 naming the failing check otherwise; queue depths and ages
reported to the operator (a staff session or the monitor's bearer token); no sign-in needed for
the verdict, and nothing private or secret in any answer."""

import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
import redis
import time_machine
from django.test import override_settings
from django.utils import timezone

from campaigns.models import Heartbeat
from campaigns.turns import commands, lateness
from tests.services import REDIS_URL, needs_redis

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.django_db, needs_redis]
QUEUE = "kb-health-test"


TOKEN = "monitor-token-for-tests"


@pytest.fixture(autouse=True)
def monitor_token(settings):
    settings.HEALTHZ_TOKEN = TOKEN


@pytest.fixture
def health_queue():
    """The broker /healthz asks, with a queue of this module's own to count."""
    client = redis.Redis.from_url(REDIS_URL)
    client.delete(QUEUE)
    with override_settings(
        CELERY_BROKER_URL=REDIS_URL, CELERY_TASK_ALWAYS_EAGER=False, CELERY_TASK_DEFAULT_QUEUE=QUEUE
    ):
        yield client
    client.delete(QUEUE)


def beat(ago: timedelta = timedelta(0)):
    Heartbeat.objects.update_or_create(name=lateness.SWEEP, defaults={"at": timezone.now() - ago})


def get(client, token=TOKEN):
    res = client.get("/healthz", headers={"Authorization": f"Bearer {token}"} if token else {})
    assert res["Content-Type"] == "application/json" and "no-cache" in res["Cache-Control"]
    return res.status_code, res.json()


def test_healthy_with_queue_depths_and_nothing_secret(client, health_queue, game):
    beat()
    health_queue.rpush(QUEUE, b"{}", b"{}", b"{}")
    status, body = get(client)
    assert status == 200 and body["ok"] is True, body
    assert set(body["checks"]) == {"database", "broker", "sweep", "work"}
    assert body["checks"]["broker"]["queues"][QUEUE] == 3
    text = json.dumps(body)
    for secret in ("redis://", "postgres", "127.0.0.1", game.name, "example.org", str(game.uid)):
        assert secret not in text


def test_figures_are_for_the_operator_only(client, health_queue, game, django_user_model):
    """Counts and ages tell an outsider how busy the server is: without the token (or a wrong one)
    only each check's verdict is given; a staff session sees the figures as the token does."""
    beat()
    health_queue.rpush(QUEUE, b"{}")
    for token in (None, "wrong", TOKEN[:-1]):
        status, body = get(client, token)
        assert status == 200 and body == {"ok": True, "checks": {name: {"ok": True} for name in body["checks"]}}
        assert set(body["checks"]) == {"database", "broker", "sweep", "work"}
    client.force_login(django_user_model.objects.create_user("operator", is_staff=True))
    status, body = get(client, None)
    assert body["checks"]["broker"]["queues"][QUEUE] == 1 and "turns_closed" in body["checks"]["work"]


def test_a_failure_is_named_by_its_kind_to_anyone(client, health_queue):
    with override_settings(CELERY_BROKER_URL="redis://127.0.0.1:1/0"):
        status, body = get(client, None)
    assert status == 503 and body["checks"]["broker"] == {"ok": False, "error": "ConnectionError"}


def test_a_broker_that_does_not_answer_is_503(client, health_queue):
    beat()
    with override_settings(CELERY_BROKER_URL="redis://127.0.0.1:1/0"):
        status, body = get(client)
    assert status == 503 and body["checks"]["broker"] == {
        "ok": False,
        "error": "ConnectionError",
        "ms": body["checks"]["broker"]["ms"],
    }
    assert body["checks"]["database"]["ok"] and body["checks"]["sweep"]["ok"]


def test_a_stale_or_missing_sweep_heartbeat_is_503(client, health_queue, settings):
    status, body = get(client)
    assert status == 503 and body["checks"]["sweep"]["error"] == "SweepStale"
    beat(ago=timedelta(seconds=3 * settings.SWEEP_INTERVAL_SECONDS + 5))
    assert get(client)[0] == 503
    beat()
    assert get(client)[0] == 200


def test_work_that_waits_too_long_is_503(client, health_queue, game):
    """A closed turn nobody adjudicates (a worker that stopped consuming still answers pings). The
    test's transaction never commits, so the adjudication queued on commit is never sent."""
    beat()
    assert commands.close_turn(game.pk, "test")
    status, body = get(client)
    assert status == 200 and body["checks"]["work"]["turns_closed"] == 1
    with time_machine.travel(timezone.now() + timedelta(minutes=10)):
        beat()
        status, body = get(client)
    assert status == 503 and body["checks"]["work"]["error"] == "WorkWaits"
    assert body["checks"]["work"]["oldest_closed_turn_s"] >= 590


def test_a_database_that_does_not_answer_is_503(tmp_path):
    """A process of its own whose DATABASE_URL names a port nobody listens on."""
    code = (
        "from django.test import Client; r = Client().get('/healthz'); print(r.status_code); print(r.content.decode())"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "KRIEGSBRIEF_VAR_DIR": str(tmp_path),
        "DATABASE_URL": "postgres://kb:secret-pw@127.0.0.1:1/nowhere",
        "CELERY_BROKER_URL": REDIS_URL,
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    status, body = out.stdout.strip().splitlines()[-2:]
    assert status == "503", out.stderr[-2000:]
    body = json.loads(body)
    assert body["checks"]["database"]["ok"] is False and body["checks"]["broker"]["ok"] is True
    assert "secret-pw" not in out.stdout and "nowhere" not in out.stdout
