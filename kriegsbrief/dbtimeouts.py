"""PostgreSQL timeouts by role (issue 32): no request or task waits without end on a lock, a
statement, or a session that stopped in the middle of a transaction.

- ``statement_timeout``: a statement running longer is cancelled (a runaway query).
- ``lock_timeout``: a statement waiting longer for a lock gives up. A web request that finds a
  game locked by a worker answers "busy, retry" within seconds (campaigns/web/busy.py) instead of
  hanging until the client gives up.
- ``idle_in_transaction_session_timeout``: a session that sits inside a transaction doing nothing
  this long is ended by the server, which releases its locks. A worker paused or stopped while it
  holds a game's row lock (SIGSTOP, a frozen VM) would otherwise hold it for good.

Two roles: the web (short: a person is waiting) and the workers (longer: adjudication and mail
are batch work, and waiting for a request's short lock is fine). Workers switch to theirs when
Celery starts (kriegsbrief/celery.py); management commands keep the web's, but ``migrate`` lifts
the statement timeout for its own session (campaigns/apps.py). Values are seconds, 0 = none.

The timeouts travel as the connection's startup ``options``. PgBouncer does not pass those on
(``DATABASE_PGBOUNCER``): there set them on the database roles the web and workers log in as
(``ALTER ROLE … SET lock_timeout = '3s'``), as README's operations section says.
"""

from __future__ import annotations

from collections.abc import Mapping

# setting -> (the server's name, web default, worker default), in seconds
TIMEOUTS = {
    "STATEMENT_TIMEOUT": ("statement_timeout", 30.0, 300.0),
    "LOCK_TIMEOUT": ("lock_timeout", 3.0, 30.0),
    "IDLE_IN_TRANSACTION_TIMEOUT": ("idle_in_transaction_session_timeout", 30.0, 60.0),
}
ROLES = ("web", "worker")


def seconds(environ: Mapping[str, str], role: str) -> dict[str, float]:
    """{server setting: seconds} for ``role``: ``DATABASE_<X>`` for the web, ``WORKER_DATABASE_<X>``
    for the workers, else the defaults above."""
    if role not in ROLES:
        raise ValueError(f"unknown database role {role!r}: one of {', '.join(ROLES)}")
    prefix = "DATABASE_" if role == "web" else "WORKER_DATABASE_"
    out = {}
    for name, (server, web, worker) in TIMEOUTS.items():
        raw = environ.get(prefix + name, "")
        try:
            value = float(raw) if raw.strip() else (web if role == "web" else worker)
        except ValueError:
            raise ValueError(f"{prefix + name}={raw!r}: give seconds as a number (0: no timeout)") from None
        if value < 0:
            raise ValueError(f"{prefix + name}={raw!r}: seconds cannot be negative (0: no timeout)")
        out[server] = value
    return out


def startup_options(values: Mapping[str, float]) -> str:
    """libpq's ``options``: ``-c lock_timeout=3000 …`` (milliseconds, whole)."""
    return " ".join(f"-c {name}={round(value * 1000)}" for name, value in values.items())


def apply(database: dict, environ: Mapping[str, str], role: str) -> None:
    """Set ``role``'s timeouts on a Django database settings dict (in place; PostgreSQL, not behind
    PgBouncer). Connections opened after this use them."""
    options = database.setdefault("OPTIONS", {})
    options["options"] = startup_options(seconds(environ, role))
