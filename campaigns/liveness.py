"""Which processes are alive: a registry of the processes that queue work.

A process that commits outbox rows owns their broker publish (its publisher thread makes it just
after the commit) and marks them with its registry id (``OutboxMail.held_by``). If it dies in
between (SIGKILL, the OOM killer), no message was ever published, and the rows' queued lease is
long (QUEUED_LEASE_SECONDS: it must outlast a long queue): they would wait minutes for the rescue.
With the registry, the rescue asks whether the owner still lives and takes its rows at once if not.
A sender marks the rows it starts on the same way (a send's claim; a send-many task's rows not yet
reached): a mail worker killed mid-batch frees them at once, not when their send lease runs out. A
row whose SMTP conversation was under way is taken at once only when the process table shows its
sender gone (a sender on another host taken for dead by its silence may still be talking: its row
waits for the send lease, so it is never sent twice at once).

A process is dead when it is gone from this host's process table (its pid is free, or now belongs
to a process started at another time: the registry keeps the start time), which the rescue sees
at once; or, on another host, when it has not said it lives (a heartbeat thread, every
PROCESS_BEAT_SECONDS) for PROCESS_STALE_SECONDS. A live process mistaken for a dead one (a very
slow heartbeat) costs one more broker message for its rows, never a second send: the send claims
its row first.

A process registers when it first needs an id (its first queued mail), from the heartbeat thread's
own database connection, so the caller's transaction is not involved; a forked child (a Celery
pool process) registers as itself.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from datetime import datetime, timedelta
from pathlib import Path

from django.conf import settings
from django.db import connections
from django.utils import timezone

from campaigns.models import LiveProcess

log = logging.getLogger(__name__)

# How long the first caller waits for the registration (one INSERT) before going on without an id.
REGISTER_WAIT_SECONDS = 5.0


def start_time(pid: int) -> int | None:
    """The process's start (clock ticks after boot: /proc/<pid>/stat, field 22); None if no such
    live process (gone, or a zombie not yet reaped) or no /proc here."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    state, ticks = fields[0], fields[19]
    return None if state in ("Z", "X") else int(ticks)


class _Registration:
    """This process's registry row, kept alive by a thread of its own."""

    def __init__(self):
        self.id: int | None = None
        self.registered = threading.Event()
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name="liveness", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        every = settings.PROCESS_BEAT_SECONDS
        try:
            self._register()
            while not self.stopping.wait(every):
                self._beat()
        finally:
            connections.close_all()

    def _register(self) -> None:
        pid = os.getpid()
        try:
            row = LiveProcess.objects.create(
                hostname=socket.gethostname(), pid=pid, started=start_time(pid) or 0, beat_at=timezone.now()
            )
            self.id = row.pk
        except Exception as exc:  # the database is down: the next beat tries again
            log.warning("liveness: registering failed (%s)", type(exc).__name__)
        finally:
            connections.close_all()
            self.registered.set()

    def _beat(self) -> None:
        try:
            if self.id is None or not LiveProcess.objects.filter(pk=self.id).update(beat_at=timezone.now()):
                # Not registered yet, or taken for dead and forgotten (a long stall): register anew.
                self._register()
        except Exception as exc:  # the database is down: the next beat tries again
            log.warning("liveness: heartbeat failed (%s)", type(exc).__name__)
        finally:
            connections.close_all()  # not held between beats (a connection per process is scarce)


_current: _Registration | None = None
_lock = threading.Lock()


def me() -> int | None:
    """This process's registry id (registering it on first use); None if the registration has not
    got through (the database is down): then the owned work falls back on its lease alone."""
    global _current
    with _lock:
        if _current is None:
            _current = _Registration()
        current = _current
    current.registered.wait(REGISTER_WAIT_SECONDS)
    return current.id


def stop() -> None:
    """End this process's heartbeat and wait for its thread (which closes its connection): for a
    process that stays but must hold no database session, such as the test runner between tests
    (a beat in flight would be a session left open, and one after the run a logging error). The
    next queued mail registers the process anew. The old row still names a live process (this
    one), so mail queued under it waits for its lease, not the dead-owner rescue: stop only where
    nothing queued is left to rescue."""
    global _current
    with _lock:
        current, _current = _current, None
    if current is not None:
        current.stopping.set()
        current.thread.join(REGISTER_WAIT_SECONDS + 5)


def _forget() -> None:
    # A forked child is another process: it registers as itself, with a thread of its own.
    global _current, _lock
    _current, _lock = None, threading.Lock()


os.register_at_fork(after_in_child=_forget)


def is_alive(process: LiveProcess, now: datetime, host: str | None = None) -> bool:
    """Whether the registered process still lives, as far as this process can tell."""
    if (host or socket.gethostname()) == process.hostname and process.started:
        return start_time(process.pid) == process.started
    return process.beat_at > now - timedelta(seconds=settings.PROCESS_STALE_SECONDS)


def dead(now: datetime, *, certain: bool = False) -> list[int]:
    """The registry ids of the processes that died (the rescue takes what they held). ``certain``:
    only those this host's process table shows gone; a process on another host is taken for dead
    by its silence, which a live but stalled one can share (so not for work that must not run twice
    at once, such as an SMTP conversation under way)."""
    host = socket.gethostname()
    rows = LiveProcess.objects.filter(hostname=host) if certain else LiveProcess.objects.all()
    return [p.pk for p in rows if not is_alive(p, now, host) and (p.started or not certain)]


def forget(ids: list[int]) -> None:
    """Drop dead processes from the registry once nothing is held in their name any more."""
    LiveProcess.objects.filter(pk__in=ids).delete()
