"""Short work leases renewed by a heartbeat (campaigns/leases.py, turns/handoff.running): a live
adjudication keeps its turn however long it runs; a worker killed whole (SIGKILL of the worker and
its pool, as the OOM killer or a lost host would) frees the turn within the short work lease, and
another worker adjudicates it exactly once."""

import contextlib
import os
import signal
import time
from datetime import timedelta

import psycopg
import pytest
import redis
from django.db import connection
from django.utils import timezone

from campaigns.models import Game
from campaigns.turns import handoff
from campaigns.turns.gamelog import verify_game
from tests.services import REDIS_URL, database_url, needs_redis
from tests.support.games import state_of
from tests.support.workers import Beat, Worker, queue_of, wait_for

from .test_celery_adjudication import adjudications, close_with_orders

pytestmark = [needs_redis, pytest.mark.django_db(transaction=True)]


def lease_of(game):
    return Game.objects.values_list("adjudication_leased_until", flat=True).get(pk=game.pk)


def test_a_lease_held_by_a_live_long_adjudication_is_not_stolen(game, broker, settings):
    settings.WORK_LEASE_SECONDS = 0.6  # renewed every 0.2 s
    close_with_orders(game)  # queued (no worker runs it): its message holds the queued lease
    # This test runs the adjudication's hold itself, so it takes the message as a worker would (a
    # message left in the queue would own the turn: campaigns/queued.py).
    assert redis.Redis.from_url(REDIS_URL).rpop(queue_of("adjudication")) is not None
    with handoff.running(game.pk, 1) as beat:
        assert lease_of(game) < timezone.now() + timedelta(seconds=1)  # cut to the work lease
        for _ in range(8):  # four times the lease, and more
            time.sleep(0.3)
            assert handoff.rescue() == 0  # the rescue finds it held every time
        assert beat.beats >= 4 and lease_of(game) > timezone.now()
    # The holder is gone: no one renews, and the lease is over within one work lease.
    assert handoff.rescue(now=timezone.now() + timedelta(seconds=1)) == 1


def test_the_heartbeat_leaves_a_turn_that_is_no_longer_waiting_alone(game, broker, settings):
    settings.WORK_LEASE_SECONDS = 0.6
    with handoff.running(game.pk, 1):  # turn 1 is open, not closed: nothing to hold
        time.sleep(0.5)
    assert lease_of(game) is None


def test_a_sigkilled_workers_turn_is_adjudicated_by_another_within_the_work_lease(game, broker, settings, tmp_path):
    """The first worker is killed whole while it adjudicates (it waits, holding the game row, on a
    report's outbox key that this test has inserted and not committed). The queued lease is an hour
    here, and the killed worker's message stays unacknowledged in Redis for the visibility timeout
    (an hour too): only the short work lease can bring the turn back within the test."""
    settings.ADJUDICATION_LEASE_SECONDS = 3600
    close_with_orders(game)
    queued_lease = lease_of(game)
    env = {"WORK_LEASE_SECONDS": "2", "ADJUDICATION_LEASE_SECONDS": "3600"}
    with psycopg.connect(database_url()) as blocker:
        for seat in game.seats.active():
            blocker.execute(
                'INSERT INTO campaigns_outboxmail (key, kind, "to", reply_to, subject, body, html, svg, '
                'attachments, message_id, in_reply_to, "references", status, attempts, last_error, created_at) '
                "VALUES (%s, 'report', 'x@example.org', '', 's', 'b', '', '', '[]', '<m@x>', '', '[]', 'pending', 0, '', "
                "now())",
                [f"report:{game.uid}:1:{seat.pk}"],
            )
        first = Worker(kinds=("adjudication",), env=env)
        try:
            child = first.child_pid()
            assert wait_for(_adjudication_waits_on_the_outbox, 60), "the task never reached the reports"
            held = lease_of(game)
            assert held < queued_lease  # the running task cut the lease to the work lease
            # The main process first (a pool child killed alone would have its message redelivered by
            # reject_on_worker_lost); the child may already have followed it (billiard's death signal).
            os.kill(first.proc.pid, signal.SIGKILL)
            with contextlib.suppress(ProcessLookupError):
                os.kill(child, signal.SIGKILL)
            first.proc.wait(10)
        finally:
            first.stop()
        blocker.rollback()
    second, beat = Worker(env=env), Beat(tmp_path, rescue_every=1.0)
    try:
        assert wait_for(lambda: state_of(game).turn.number == 2, 90), "the killed worker's turn was not taken up"
    finally:
        beat.stop()
        second.stop()
    assert adjudications(game) == 1
    assert verify_game(game).ok
    connection.close()


def _adjudication_waits_on_the_outbox() -> bool:
    with psycopg.connect(database_url(), autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
            "AND query ILIKE '%%campaigns_outboxmail%%' AND pid <> pg_backend_pid()"
        ).fetchone()
    return row[0] > 0
