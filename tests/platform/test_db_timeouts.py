"""Database timeouts by role (issue 32; kriegsbrief/dbtimeouts.py) against the real PostgreSQL.

A worker that stops while it holds a game's row lock (SIGSTOP, a frozen host) used to leave a
player's request hanging until the client gave up, with /healthz at 200. Now: the request gives up
after the web's lock_timeout and answers 503 "busy, retry" with nothing taken; the server ends a
session left idle inside its transaction (the workers' idle_in_transaction_session_timeout), which
frees the game; /healthz counts the sessions waiting on a lock.
"""

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import psycopg
import pytest
from django.db import connection

from campaigns.models import Game
from kriegsbrief import dbtimeouts
from tests.conftest import new_civilwar_game
from tests.services import database_url, postgres_only
from tests.support.api import client_for
from tests.support.games import legal_red_orders, state_of

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [postgres_only, pytest.mark.django_db(transaction=True)]


def lock_game(game):
    """Another session holding the game's row as an adjudicating worker does, until closed."""
    holder = psycopg.connect(database_url(), autocommit=False)
    holder.execute(f"SELECT 1 FROM {Game._meta.db_table} WHERE id = %s FOR UPDATE", [game.pk])
    return holder


def test_each_role_gets_its_timeouts_and_bad_values_are_refused():
    assert dbtimeouts.seconds({}, "web") == {
        "statement_timeout": 30.0,
        "lock_timeout": 3.0,
        "idle_in_transaction_session_timeout": 30.0,
    }
    worker = dbtimeouts.seconds({"WORKER_DATABASE_LOCK_TIMEOUT": "12.5"}, "worker")
    assert worker["lock_timeout"] == 12.5 and worker["statement_timeout"] == 300.0
    assert dbtimeouts.startup_options({"lock_timeout": 12.5}) == "-c lock_timeout=12500"
    with pytest.raises(ValueError, match="DATABASE_LOCK_TIMEOUT='soon': give seconds"):
        dbtimeouts.seconds({"DATABASE_LOCK_TIMEOUT": "soon"}, "web")
    with pytest.raises(ValueError, match="cannot be negative"):
        dbtimeouts.seconds({"WORKER_DATABASE_STATEMENT_TIMEOUT": "-1"}, "worker")


def test_the_web_connection_runs_with_the_webs_timeouts():
    expected = dbtimeouts.seconds(os.environ, "web")
    with connection.cursor() as cur:
        for name, value in expected.items():
            cur.execute(f"SELECT setting::float / 1000 FROM pg_settings WHERE name = '{name}'")
            assert cur.fetchone()[0] == value, name


def test_a_request_finding_the_game_locked_answers_busy_and_takes_nothing(people):
    game = new_civilwar_game(people)
    bob = client_for(people["bob"])
    order = legal_red_orders(game)[0]
    holder = lock_game(game)
    try:
        with connection.cursor() as cur:
            cur.execute("SET lock_timeout = '300ms'")  # the web's 3 s, shortened for the test
        resp = bob.post(f"/api/games/{game.pk}/orders/", {"text": order, "ready": True}, format="json")
        assert resp.status_code == 503, resp.content
        assert resp["Retry-After"] == "5" and resp.json()["code"] == "busy"
        assert "send it again" in resp.json()["detail"] and str(game.pk) not in resp.content.decode()
        page = bob.post(f"/games/{game.pk}/", {"text": order}, HTTP_ACCEPT_LANGUAGE="ru")
        assert page.status_code == 503 and page["Retry-After"] == "5"
        assert "Партия занята" in page.content.decode()
    finally:
        holder.close()
    assert "red" not in state_of(game).turn.orders  # nothing half-taken
    resp = bob.post(f"/api/games/{game.pk}/orders/", {"text": order, "ready": False}, format="json")
    assert resp.status_code == 201  # and the same request goes through once the game is free


def test_healthz_counts_sessions_waiting_on_a_lock(people, settings, client):
    settings.HEALTHZ_TOKEN = "t"
    game = new_civilwar_game(people)
    holder = lock_game(game)
    waiter = psycopg.connect(database_url(), autocommit=True)
    wait = threading.Thread(
        target=lambda: waiter.execute(f"SELECT 1 FROM {Game._meta.db_table} WHERE id = %s FOR UPDATE", [game.pk])
    )
    wait.start()
    try:
        for _ in range(50):
            db = client.get("/healthz", HTTP_AUTHORIZATION="Bearer t").json()["checks"]["database"]
            if db["lock_waits"]:
                break
            time.sleep(0.1)
        assert db["ok"] and db["lock_waits"] == 1 and db["longest_lock_wait_s"] >= 0
        assert "lock_waits" not in client.get("/healthz").json()["checks"]["database"]  # figures: operator only
    finally:
        holder.close()
        wait.join(10)
        waiter.close()


STOPPED_WORKER = """
import os, signal, sys
import psycopg
from kriegsbrief import dbtimeouts
options = dbtimeouts.startup_options(dbtimeouts.seconds(os.environ, "worker"))
conn = psycopg.connect(sys.argv[1], options=options, autocommit=False)
conn.execute("SELECT 1 FROM {table} WHERE id = %s FOR UPDATE", [int(sys.argv[2])])
print(conn.info.backend_pid, flush=True)
os.kill(os.getpid(), signal.SIGSTOP)
"""


def test_a_worker_stopped_holding_the_game_frees_it_after_its_idle_timeout(people):
    game = new_civilwar_game(people)
    env = {**os.environ, "WORKER_DATABASE_IDLE_IN_TRANSACTION_TIMEOUT": "1"}
    worker = subprocess.Popen(
        [sys.executable, "-c", STOPPED_WORKER.format(table=Game._meta.db_table), database_url(), str(game.pk)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        pid = int(worker.stdout.readline())
        with connection.cursor() as cur:
            for _ in range(100):  # the server ends the stopped session, and with it its lock
                cur.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [pid])
                if not cur.fetchone()[0]:
                    break
                time.sleep(0.1)
            assert not cur.fetchone() and worker.poll() is None  # ended by the server; still stopped
        resp = client_for(people["bob"]).post(
            f"/api/games/{game.pk}/orders/", {"text": legal_red_orders(game)[0], "ready": False}, format="json"
        )
        assert resp.status_code == 201, resp.content
    finally:
        worker.send_signal(signal.SIGKILL)
        worker.wait(10)


WORKER_SESSION = """
import django
django.setup()
from django.db import connection
from kriegsbrief.celery import app, use_worker_timeouts
use_worker_timeouts()  # what Celery's worker_init runs as a worker starts
with connection.cursor() as cur:
    cur.execute("SELECT current_setting('lock_timeout'), current_setting('statement_timeout')")
    print(*cur.fetchone())
"""


def test_a_worker_switches_to_the_workers_timeouts_as_it_starts():
    env = {**os.environ, "DATABASE_URL": database_url(), "WORKER_DATABASE_LOCK_TIMEOUT": "12"}
    out = subprocess.run(
        [sys.executable, "-c", WORKER_SESSION], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["12s", "5min"]
