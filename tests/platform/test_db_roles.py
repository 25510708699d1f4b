"""deploy/db-roles.sql on a scratch PostgreSQL database: the runtime role does everything the
application does (load_demo and runtime_role_app.py run as that role) and is refused the rest:
no UPDATE or DELETE of events, no DELETE of seats, games or outbox rows, no TRUNCATE anywhere."""

import os
import subprocess
import sys
import uuid
from pathlib import Path

import psycopg
import pytest

from tests.services import postgres_only

ROOT = Path(__file__).resolve().parents[2]
HOST = "postgres://postgres@127.0.0.1:5432"

pytestmark = postgres_only


def admin(sql: str) -> None:
    with psycopg.connect(f"{HOST}/postgres", autocommit=True) as conn:
        conn.execute(sql)


def run(args, env, timeout=300):
    out = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-4000:]
    return out


@pytest.fixture
def scratch(tmp_path):
    """A scratch database migrated by the owner, and a runtime role of its own (roles are the
    cluster's: a name of its own keeps parallel runs apart)."""
    tag = uuid.uuid4().hex[:8]
    db, role = f"kb_roles_{tag}", f"kb_app_{tag}"
    admin(f'CREATE DATABASE "{db}"')
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "KRIEGSBRIEF_VAR_DIR": str(tmp_path),
        "CELERY_BROKER_URL": "",
        "DATABASE_URL": f"{HOST}/{db}",
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    try:
        run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], env)
        yield db, role, env
    finally:
        admin(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')
        admin(f'DROP ROLE IF EXISTS "{role}"')


def refused(conn, sql: str) -> bool:
    try:
        with conn.transaction():
            conn.execute(sql)
    except psycopg.errors.InsufficientPrivilege:
        return True
    return False


def test_the_runtime_role_does_what_the_app_does_and_nothing_more(scratch):
    db, role, env = scratch
    script = [
        "psql",
        "-X",
        "-q",
        "-h",
        "127.0.0.1",
        "-U",
        "postgres",
        "-d",
        "postgres",
        "-v",
        f"dbname={db}",
        "-v",
        f"app_role={role}",
        "-f",
        "deploy/db-roles.sql",
    ]
    run(script, env)
    run(script, env)  # again, as after the next migrate: idempotent
    app_env = {**env, "DATABASE_URL": f"postgres://{role}@127.0.0.1:5432/{db}"}
    run([sys.executable, "manage.py", "load_demo"], app_env)
    assert run([sys.executable, "tests/platform/runtime_role_app.py"], app_env).stdout.strip().endswith("OK")
    with psycopg.connect(f"postgres://{role}@127.0.0.1:5432/{db}", autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM campaigns_event").fetchone()[0] > 100
        assert conn.execute("SELECT count(*) FROM mailin_inboundmessage").fetchone()[0] == 1
        for sql in (
            "UPDATE campaigns_event SET type = type",
            "DELETE FROM campaigns_event",
            "TRUNCATE campaigns_event",
            "DELETE FROM campaigns_seat",
            "DELETE FROM campaigns_outboxmail",
            "DELETE FROM campaigns_game",
            "TRUNCATE campaigns_outboxmail",
            "UPDATE campaigns_snapshot SET seq = seq",
            "DELETE FROM campaigns_snapshot",
            "DELETE FROM mailin_inboundmessage",
            "UPDATE battles_campaignevent SET type = type",
            "DELETE FROM battles_campaignevent",
            "DELETE FROM battles_legacyrecordname",
            "DELETE FROM django_migrations",
            "CREATE TABLE public.kb_extra (id int)",
        ):
            assert refused(conn, sql), sql
        # What the app does, checked directly too: update an outbox row and a seat, read and add.
        for sql in (
            "UPDATE campaigns_outboxmail SET attempts = attempts",
            "UPDATE campaigns_seat SET version = version",
            "DELETE FROM django_session",
            "DELETE FROM knox_authtoken",
        ):
            assert not refused(conn, sql), sql
