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
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


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
