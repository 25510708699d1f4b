"""Handing a closed turn's adjudication to a worker, with one owner at a time.

The close writes a lease on the game row (``adjudication_leased_until``) in its own transaction and
queues the task after commit: while the lease holds, that message owns the adjudication and no one
queues it again. A hand-off the broker refuses is recorded at once by releasing the lease, and the
rescue (every RESCUE_INTERVAL_SECONDS) queues every closed turn no one holds, locking the rows it
takes with SKIP LOCKED: a game whose row a running adjudication has locked is skipped. A second
message for one turn is harmless anyway (``commands.adjudicate`` checks the log under the lock).

Two leases: while the message waits in the queue it owns the turn for ADJUDICATION_LEASE_SECONDS
(a backlog must not look lost); once a worker starts it (``running``) the lease is cut to
WORK_LEASE_SECONDS and renewed by a heartbeat (campaigns/leases.py), so a worker killed
mid-adjudication frees the turn within seconds, not when the queued lease would have run out. A
message taken off the queue by a worker killed before it started (no work lease yet) is found by the
rescue too: its queued lease is ADJUDICATION_TAKEN_SECONDS old and the broker's queue no longer
holds it (campaigns/queued.py). A message the queue still holds is never queued a second time.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from campaigns import queued, transient
from campaigns.leases import LeaseHeartbeat
from campaigns.models import Game

log = logging.getLogger(__name__)

# Celery task name (campaigns.turns.tasks), called by name: this module never imports a task module.
ADJUDICATE_TASK = "campaigns.tasks.adjudicate_turn"
RESCUE_BATCH = 500


def lease() -> timedelta:
    return timedelta(seconds=settings.ADJUDICATION_LEASE_SECONDS)


def work_lease() -> timedelta:
    return timedelta(seconds=settings.WORK_LEASE_SECONDS)


@contextmanager
def running(game_id: int, turn: int) -> Iterator[LeaseHeartbeat]:
    """Hold a closed turn's adjudication while this worker runs it: the short work lease, renewed."""
    transient.retrying(_renew, game_id, turn, wait=True)
    with LeaseHeartbeat(lambda: _renew(game_id, turn), settings.WORK_LEASE_SECONDS, name="adjudication-lease") as beat:
        yield beat


def _renew(game_id: int, turn: int, *, wait: bool = False) -> None:
    """Move the lease to now + the work lease, if the turn still waits for its adjudication. The
    heartbeat skips a row that is locked (``wait=False``): the lock is the running adjudication's own
    (or another transaction's), and the rescue skips a locked row anyway."""
    with transaction.atomic():
        rows = Game.objects.select_for_update(skip_locked=not wait).filter(
            pk=game_id, turn_number=turn, turn_status="closed"
        )
        if list(rows.values_list("pk", flat=True)):
            Game.objects.filter(pk=game_id).update(adjudication_leased_until=timezone.now() + work_lease())


def queue_after_commit(game_id: int, turn: int) -> None:
    """In the closing transaction (the game row is locked): own the adjudication, queue it after commit."""
    Game.objects.filter(pk=game_id).update(adjudication_leased_until=timezone.now() + lease())
    transaction.on_commit(lambda: hand_off(game_id, turn))


def hand_off(game_id: int, turn: int) -> bool:
    """Queue the adjudication; on a broker failure release the lease (the rescue takes it up)."""
    try:
        # By its registered name (registered at start-up: campaigns.apps): in-process when Celery is
        # eager (the demo), else on an adjudication worker.
        current_app.tasks[ADJUDICATE_TASK].delay(game_id, turn)
        return True
    except Exception as exc:  # the broker is down (or, eager, the adjudication failed): the rescue retries
        log.warning(
            "game %s turn %s: queueing the adjudication failed (%s); the rescue retries",
            game_id,
            turn,
            type(exc).__name__,
        )
        try:
            Game.objects.filter(pk=game_id, turn_status="closed").update(adjudication_leased_until=None)
        except Exception:  # the database is down too: the lease runs out instead
            log.warning("game %s: the lease could not be released; it runs out", game_id)
        return False


def rescue(now: datetime | None = None) -> int:
    """Queue every closed turn whose adjudication no one holds. Returns how many were queued.

    No one holds a turn whose lease is gone or over, or whose message was taken off the queue by a
    consumer that never started it (a worker killed whole): a queued lease at least
    ADJUDICATION_TAKEN_SECONDS old that was never cut to the work lease, with no message left in the
    queue (campaigns.queued). A message the broker shows waiting is not queued again, even past its
    lease (a long backlog): its lease is renewed instead. When the broker cannot be read, the
    leases alone decide, as before."""
    now = now or timezone.now()
    # A queued lease is longer than the work lease; how long it has left tells its age.
    doubtful = lease() - timedelta(seconds=settings.ADJUDICATION_TAKEN_SECONDS)
    candidates = Game.objects.filter(status=Game.Status.ACTIVE, turn_status="closed").filter(
        Q(adjudication_leased_until__isnull=True)
        | Q(adjudication_leased_until__lte=now)
        | Q(adjudication_leased_until__gt=now + work_lease(), adjudication_leased_until__lte=now + doubtful)
    )
    if not candidates.exists():
        return 0
    # The broker is read before any row is locked: a slow or absent Redis must not hold game rows.
    # A turn queued meanwhile has a fresh lease and is no longer a candidate below.
    waiting = queued.waiting(ADJUDICATE_TASK)
    with transaction.atomic():
        found = list(
            candidates.select_for_update(skip_locked=True).values_list(
                "pk", "turn_number", "adjudication_leased_until"
            )[:RESCUE_BATCH]
        )
        taken, renewed = [], []
        for pk, turn, until in found:
            if waiting is not None and (pk, turn) in waiting:
                renewed.append(pk)  # waiting its turn in the queue: owned by that message
            elif until is None or until <= now or waiting is not None:
                taken.append((pk, turn))
        Game.objects.filter(pk__in=[pk for pk, _ in taken] + renewed).update(adjudication_leased_until=now + lease())
    return sum(hand_off(pk, turn) for pk, turn in taken)
