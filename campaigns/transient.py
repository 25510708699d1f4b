"""Riding out short outages of the database or the broker inside the task that meets them.

A one-second PostgreSQL restart or a Redis blip would otherwise drop the task (and leave its work
for the rescue): the task instead tries again in-process with a short backoff, holding the work it
was given, so no second owner is made (no Celery retry, no new broker message).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TypeVar

import psycopg
from django.db import InterfaceError, OperationalError, connection
from kombu.exceptions import OperationalError as BrokerError

log = logging.getLogger(__name__)
T = TypeVar("T")

TRANSIENT = (
    OperationalError,
    InterfaceError,
    psycopg.OperationalError,
    psycopg.InterfaceError,
    BrokerError,
    ConnectionError,
)
# About 20 s in all: a database restart or a broker failover is over by then; longer outages are
# the rescue's (the work's lease runs out and it is queued again).
DELAYS = (0.2, 0.5, 1.0, 2.0, 3.0, 4.0, 4.0, 5.0)


def retrying(fn: Callable[..., T], *args, delays=DELAYS, **kwargs) -> T:
    """``fn(*args, **kwargs)``, called again after a transient database or broker error.

    Only outside a transaction: inside one, the caller's transaction is already lost and must be
    retried whole by whoever opened it."""
    for delay in (*delays, None):
        try:
            return fn(*args, **kwargs)
        except TRANSIENT as exc:
            if delay is None or connection.in_atomic_block:
                raise
            log.warning("%s: %s; trying again in %.1f s", getattr(fn, "__name__", fn), type(exc).__name__, delay)
            _drop_connection()
            time.sleep(delay)
    raise AssertionError("unreachable")


def _drop_connection() -> None:
    # The broken connection is dropped so that the next try opens a fresh one.
    try:
        connection.close()
    except Exception:  # closing a dead connection may fail too; it is gone either way
        pass
