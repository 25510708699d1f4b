"""A lease kept alive while its holder lives: short leases renewed by a heartbeat.

Work that a process owns (an adjudication, an SMTP conversation) carries a lease on its row. A
long lease makes a dead holder's work wait that long before the rescue takes it; a short one could
run out under a holder that is merely slow. So the lease is short and a thread of the holder's
renews it every third of its length while the work runs: a live holder never loses it, a killed
one (SIGKILL, OOM, a lost host) stops renewing and its work is free within one lease.

The thread opens a database connection of its own only when it first renews (most work ends
sooner) and closes it when the work ends. A renewal that fails (the database is down) is tried
again at the next beat; the lease then runs out only if the outage outlasts it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from types import TracebackType

from django.db import connections

log = logging.getLogger(__name__)


class LeaseHeartbeat:
    """``with LeaseHeartbeat(renew, lease_seconds):`` calls ``renew()`` every ``lease_seconds / 3``
    from a thread of its own until the block ends."""

    def __init__(self, renew: Callable[[], object], lease_seconds: float, name: str = "lease-heartbeat"):
        self.renew, self.every = renew, lease_seconds / 3
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self.beats = 0  # renewals made (for tests and logs)

    def __enter__(self) -> LeaseHeartbeat:
        self._thread.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        try:
            while not self._stop.wait(self.every):
                try:
                    self.renew()
                    self.beats += 1
                except Exception as exc:  # the database is down: try again at the next beat
                    log.warning("lease renewal failed (%s); trying again in %.1f s", type(exc).__name__, self.every)
                    connections.close_all()
        finally:
            connections.close_all()  # this thread's own connections (Django's are per thread)
