"""Which real services the suite can reach, and markers that skip only when allowed.

Under CI (KRIEGSBRIEF_REQUIRE_SERVICES=1) nothing is skipped: a missing
service makes the tests that need it fail.
"""

import os
import shutil
import socket

import pytest
from django.conf import settings

REQUIRE = os.environ.get("KRIEGSBRIEF_REQUIRE_SERVICES") == "1"
IS_POSTGRES = settings.DATABASES["default"]["ENGINE"].endswith("postgresql")
# Under pytest-xdist (``./kb test`` runs one process per core) each process is "gw0", "gw1"...: it
# gets its own test database from pytest-django and its own Redis databases from here, counted down
# from TEST_REDIS_URL's (Celery's queues and the flushes some tests make must not meet another's).
XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
WORKER_INDEX = int(XDIST_WORKER[2:]) if XDIST_WORKER.startswith("gw") else 0
SCRATCH_REDIS_DB = 10  # the first of the databases counted down for tests that need a second one


def redis_url(db: int | None = None) -> str:
    """TEST_REDIS_URL with this process's database: its own (``db=None``) or a scratch one."""
    base = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
    root, _, own = base.rpartition("/")
    return f"{root}/{((int(own) if db is None else db) - WORKER_INDEX) % 16}"  # Redis has databases 0-15


REDIS_URL = redis_url()


def _port_open(host: str, port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex((host, port)) == 0


postgres_only = pytest.mark.skipif(
    not IS_POSTGRES and not REQUIRE, reason="needs PostgreSQL: set DATABASE_URL=postgres://…"
)
needs_redis = pytest.mark.skipif(
    not REQUIRE and not (IS_POSTGRES and _port_open("127.0.0.1", 6379)),
    reason="needs PostgreSQL and Redis on 127.0.0.1",
)
DEJAVU_SANS = "/usr/share/fonts/truetype/dejavu/DejaVuSans{}.ttf"  # Debian's fonts-dejavu-core
needs_dejavu = pytest.mark.skipif(
    not REQUIRE and not os.path.exists(DEJAVU_SANS.format("")), reason="needs DejaVu Sans (fonts-dejavu-core)"
)
needs_chromium = pytest.mark.skipif(
    not REQUIRE and not shutil.which("chromium"), reason="needs Debian chromium at /usr/bin/chromium"
)


def database_url() -> str:
    """The URL of the test database, for processes the tests start themselves."""
    from django.db import connection

    s = connection.settings_dict
    return f"postgres://{s['USER']}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"
