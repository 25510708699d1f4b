"""Django's PostgreSQL backend with a health check that costs no round trip when it need not.

A connection kept between requests (DATABASE_CONN_MAX_AGE) is checked once a request before its
first use (CONN_HEALTH_CHECKS), so one broken by a database restart is replaced instead of failing
the request. Django checks by sending ``SELECT 1``: a round trip on every request, a quarter of an
API poll's (issue 18), to learn what the socket mostly says already. A server that goes away (a
restart, a shutdown, pg_terminate_backend) sends its FATAL message and closes the socket, so an
idle connection's socket is readable only when the server said something unasked: then psycopg
reads it, and a connection it finds closed is unusable; a socket with something else waiting (a
notice, a parameter change) gets Django's ``SELECT 1`` as before. A quiet socket on a connection
libpq still calls good is usable without asking the server.

Not detected without the round trip, as with it neither: a server that vanished without a word
(a cut cable); the request's first statement then fails as it would have a moment later anyway.
"""

from __future__ import annotations

import select

import psycopg
from django.db.backends.postgresql import base
from psycopg import pq


class DatabaseWrapper(base.DatabaseWrapper):
    def is_usable(self) -> bool:
        conn = self.connection
        if conn is None or conn.closed or conn.broken or conn.pgconn.status != pq.ConnStatus.OK:
            return False
        try:
            readable, _, _ = select.select([conn.fileno()], [], [], 0)
            if not readable:
                return True
            conn.pgconn.consume_input()  # the server's last words, or EOF (raises)
        except (OSError, psycopg.Error):
            return False
        if conn.pgconn.status != pq.ConnStatus.OK:
            return False
        return super().is_usable()  # something else was said: ask the server as Django does
