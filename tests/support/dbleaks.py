"""Connections to the test database that a test left open behind it (PostgreSQL).

A thread or process that opens a connection of its own and never closes it keeps a session on the
test database; at the end of the run, pytest-django cannot drop the database ("is being accessed
by other users"), and meanwhile the session may hold locks or run work in a later test. The
autouse guard in tests/conftest.py asks after every database test; this is its one query.
"""

from __future__ import annotations

import time

from django.db import connection

# Client sessions only: autovacuum and parallel workers come and go on their own.
OTHERS = """
    SELECT pid, application_name, state, backend_start, left(query, 200)
    FROM pg_stat_activity
    WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'
"""


def leaked(grace: float = 3.0) -> list[tuple]:
    """The other client sessions on this connection's database, once ``grace`` seconds have not seen
    them go (the backend of a connection just closed, say by a worker process that was stopped,
    takes a moment to end); [] as soon as there are none, which is the usual first answer."""
    deadline = time.monotonic() + grace
    while True:
        with connection.cursor() as cur:
            cur.execute(OTHERS)
            rows = cur.fetchall()
        if not rows or time.monotonic() >= deadline:
            return rows
        time.sleep(0.05)
