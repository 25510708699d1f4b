"""The upgrade from 0.1.0, tried as an operator does it, on the real services.

``tests/golden/0.1.0/`` holds what 0.1.0 (2c3e6be) itself left behind at "upgrade time", made by
its own code through its own API and mail (tests/golden/build/release_2c3e6be.py): its PostgreSQL
database (13 games of Civil War, Little Wars and Kriegspiel with hidden works; three turns closed
and not yet adjudicated, turns open with orders in, results held for the umpire, mail held, six
mails waiting in the outbox) and its Redis broker (ten messages in 0.1.0's queue ``celery``: three
adjudications, six sends, a sweep). This test restores both into a fresh database and a Redis
database of its own, and then, as README's upgrade steps say:

1. ``./kb upgrade-check`` tells what the upgrade will do, changing nothing;
2. ``./kb migrate`` (which also rebuilds the snapshots 0.1.0's fold wrote);
3. ``verify_game all``: every game verifies (the hash chain, every snapshot, every turn
   re-adjudicated by the rules version that adjudicated it);
4. the processes start (a worker on every queue, beat): 0.1.0's queue is taken over, the closed
   turns are adjudicated once each, the waiting mail is sent once each, nothing sent before is
   sent again, and ``/healthz`` reports the old queue empty;
5. every page, map and API view of every game, for every seat, answers without a server error;
6. the backup drill passes on the upgraded database.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest
import redis

from tests.services import SCRATCH_REDIS_DB, needs_redis, postgres_only, redis_url
from tests.support.smtp import Sink, on_loopback

pytestmark = [postgres_only, needs_redis]

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).parent / "0.1.0"
MANIFEST = json.loads((FIXTURE / "MANIFEST.json").read_text())
SECRET = "kriegsbrief-golden-release-2c3e6be"  # the release's, for its cursors and Message-IDs
PG = "postgres://postgres@127.0.0.1:5432"


def _broker_url() -> str:
    """A Redis database of this test's own (0.1.0's queue has no prefix to keep runs apart)."""
    return redis_url(SCRATCH_REDIS_DB)


@pytest.fixture
def upgraded_site(tmp_path):
    """0.1.0's database and broker restored; yields (env for manage.py and workers, db url)."""
    name = f"kb_upgrade_{os.getpid()}"
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.execute(f'CREATE DATABASE "{name}"')
    sql = gzip.decompress((FIXTURE / "database.sql.gz").read_bytes())
    subprocess.run(
        ["psql", "-q", "-X", "-v", "ON_ERROR_STOP=1", "-d", f"{PG}/{name}"],
        input=sql,
        check=True,
        capture_output=True,
    )
    broker = redis.Redis.from_url(_broker_url())
    broker.flushdb()
    for key, entry in json.loads((FIXTURE / "redis-db14.json").read_text()).items():
        if entry["type"] == "list":
            broker.rpush(key, *entry["items"])
        elif entry["type"] == "set":
            broker.sadd(key, *entry["items"])
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "kriegsbrief.settings",
        "DATABASE_URL": f"{PG}/{name}",
        "CELERY_BROKER_URL": _broker_url(),
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "SECRET_KEY": SECRET,
        "DEBUG": "true",
        "ALLOWED_HOSTS": "testserver,localhost,127.0.0.1",
        "OUTBOX_DIR": str(tmp_path / "outbox"),
        "SWEEP_INTERVAL_SECONDS": "2",
        "RESCUE_INTERVAL_SECONDS": "1",
        "LEGACY_QUEUE_INTERVAL_SECONDS": "1",
        "PYTHONPATH": str(ROOT),
    }
    for key in ("CELERY_QUEUE_PREFIX", "CELERY_TASK_DEFAULT_QUEUE", "EMAIL_URL"):
        env.pop(key, None)
    yield env, f"{PG}/{name}"
    broker.flushdb()
    broker.close()
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _manage(env, *args, check=True, timeout=600) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=check,
        timeout=timeout,
    )


def _rows(db: str, sql: str, *params) -> list[tuple]:
    with psycopg.connect(db) as conn:
        return conn.execute(sql, params).fetchall()


def _start(env, *args) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "kriegsbrief", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def _stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _wait(what: str, done, timeout: float = 180.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if done():
            return
        time.sleep(0.5)
    raise AssertionError(f"not done in {timeout:.0f} s: {what}")


@pytest.fixture
def smtp_sink():
    sink = Sink()
    controller, port = on_loopback(sink)
    yield sink, port
    controller.stop()


def test_0_1_0_upgrades_to_this_release_with_nothing_lost_and_work_done_once(upgraded_site, smtp_sink):
    env, db = upgraded_site
    sink, port = smtp_sink
    env["EMAIL_URL"] = f"smtp://127.0.0.1:{port}"
    closed = [(g["id"], g["turn"]) for g in MANIFEST["games"] if g["turn_status"] == "closed"]
    assert len(closed) == 3
    before = dict(_rows(db, "SELECT status, count(*) FROM campaigns_outboxmail GROUP BY status"))
    sent_before = {r[0] for r in _rows(db, "SELECT message_id FROM campaigns_outboxmail WHERE status = 'sent'")}
    waiting = {r[0] for r in _rows(db, "SELECT message_id FROM campaigns_outboxmail WHERE status = 'pending'")}
    events_before = dict(_rows(db, "SELECT game_id, count(*) FROM campaigns_event GROUP BY game_id"))

    # 1. What the upgrade will do, before it is done: nothing changes.
    check = _manage(env, "upgrade_check", check=False)
    assert "authtoken_token" in check.stdout, check.stdout
    assert "celery" in check.stdout, check.stdout
    assert _rows(db, "SELECT to_regclass('authtoken_token')")[0][0] == "authtoken_token"

    # 2. migrate: the schema, the old token table dropped, the snapshots rebuilt.
    migrated = _manage(env, "migrate", "--noinput")
    assert "snapshots rebuilt" in migrated.stdout, migrated.stdout
    assert _rows(db, "SELECT to_regclass('authtoken_token')")[0][0] is None
    assert dict(_rows(db, "SELECT game_id, count(*) FROM campaigns_event GROUP BY game_id")) == events_before

    # 3. Every game verifies under this code.
    verified = _manage(env, "verify_game", "all", check=False)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert _manage(env, "upgrade_check").returncode == 0

    # 4. The processes start: the old queue is taken over and its work done once.
    worker = _start(env, "worker", "-Q", "adjudication,mail,render,maintenance", "--pool", "solo", "-n", "upgrade@%h")
    beat = _start(env, "beat", "-s", str(Path(env["OUTBOX_DIR"]).parent / "beat-schedule"))
    broker = redis.Redis.from_url(env["CELERY_BROKER_URL"])
    try:
        _wait(
            "the closed turns adjudicated",
            lambda: not _rows(db, "SELECT 1 FROM campaigns_game WHERE turn_status = 'closed'"),
        )
        _wait("0.1.0's queue taken over", lambda: broker.llen("celery") == 0)
        _wait(
            "the waiting mail sent",
            lambda: not _rows(db, "SELECT 1 FROM campaigns_outboxmail WHERE status IN ('pending', 'sending')"),
        )
    finally:
        _stop(beat)
        _stop(worker)
        broker.close()
    for game_id, turn in closed:
        (count,) = _rows(
            db,
            "SELECT count(*) FROM campaigns_event WHERE game_id = %s AND type = 'turn.adjudicated' AND turn = %s",
            game_id,
            turn,
        )[0]
        assert count == 1, (game_id, turn, count)
    received = [str(msg["Message-ID"]) for _, msg in sink.messages]
    assert len(received) == len(set(received)), "a message was sent twice"
    assert waiting <= set(received), waiting - set(received)
    assert not sent_before & set(received), "a message 0.1.0 had sent was sent again"
    assert dict(_rows(db, "SELECT status, count(*) FROM campaigns_outboxmail GROUP BY status")).get("dead", 0) == 0
    assert (
        before.get("sent", 0) + len(waiting)
        <= dict(_rows(db, "SELECT status, count(*) FROM campaigns_outboxmail GROUP BY status"))["sent"]
    )

    # 5. Every page of every game for every seat, and /healthz on the old queue.
    pages = _manage(env, "shell", "-c", (Path(__file__).parent / "walk_pages.py").read_text())
    walked = json.loads(pages.stdout.strip().splitlines()[-1])
    errors = {url: status for url, status in walked["statuses"].items() if status >= 500}
    assert not errors, errors
    assert walked["fetched"] > 13 * 4 * 8
    assert walked["healthz"]["legacy_queues"] == {"celery": 0}, walked["healthz"]
    again = _manage(env, "verify_game", "all", check=False)
    assert again.returncode == 0, again.stdout + again.stderr

    # 6. The backup drill on the upgraded database.
    drill = subprocess.run(
        ["deploy/backup-drill.sh", db.rsplit("/", 1)[1]],
        cwd=ROOT,
        env={**env, "BACKUP_DIR": str(Path(env["OUTBOX_DIR"]).parent / "backups")},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert drill.returncode == 0, drill.stdout + drill.stderr
    assert "drill passed" in drill.stdout
