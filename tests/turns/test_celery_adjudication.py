"""A real Celery worker on Redis adjudicates turns exactly once, even when killed."""

import os
import signal
import time

import pytest
import redis

from campaigns.models import Event
from campaigns.turns import commands, deadlines
from tests.services import REDIS_URL, database_url, needs_redis
from tests.support.games import state_of
from tests.support.workers import PREFIX, QUEUE, ROOT, Beat, Worker, queue_of, wait_for  # noqa: F401

pytestmark = [needs_redis, pytest.mark.django_db(transaction=True)]


def close_with_orders(game):
    from rules.civilwar import legal_operations

    text = legal_operations(state_of(game).rules, "red")[0]
    commands.submit_orders(game.pk, "red", text, source="api", ready=False)
    commands.close_turn(game.pk, "closed by the umpire")  # queues adjudication on commit


def adjudications(game):
    return Event.objects.filter(game=game, type="turn.adjudicated", turn=1).count()


def test_a_real_worker_adjudicates_a_closed_turn(game, worker):
    close_with_orders(game)
    assert wait_for(lambda: state_of(game).turn.number == 2), "the worker did not adjudicate"
    assert adjudications(game) == 1


def test_the_same_task_delivered_twice_adds_results_once(game, worker):
    from campaigns.tasks import adjudicate_turn

    close_with_orders(game)
    for _ in range(5):
        adjudicate_turn.delay(game.pk, 1)
    assert wait_for(lambda: state_of(game).turn.number == 2)
    time.sleep(3)  # let every duplicate run
    assert adjudications(game) == 1


def test_a_worker_killed_mid_adjudication_is_recovered_exactly_once(game, broker):
    """The worker is SIGKILLed while it waits on the game lock inside adjudication."""
    import psycopg

    close_with_orders(game)  # the task waits in Redis: no worker yet
    with psycopg.connect(database_url()) as blocker:
        # Hold the stream head so the task is stuck mid-adjudication.
        blocker.execute("SELECT 1 FROM campaigns_game WHERE id = %s FOR UPDATE", [game.pk])
        worker = Worker()
        try:
            child = worker.child_pid()
            assert wait_for(lambda: _waiting_on_lock(game), 60), "the task never reached the lock"
            os.kill(child, signal.SIGKILL)
            time.sleep(1)
            blocker.rollback()
            assert wait_for(lambda: state_of(game).turn.number == 2, 90), "the killed task was not redelivered"
        finally:
            worker.stop()
    assert adjudications(game) == 1
    from campaigns.turns.gamelog import verify_game

    assert verify_game(game).ok


def _waiting_on_lock(game) -> bool:
    import psycopg

    with psycopg.connect(database_url(), autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query ILIKE '%%campaigns_game%%'"
        ).fetchone()
    return row[0] > 0


def test_sweep_requeues_an_adjudication_whose_task_was_lost(game, broker, settings):
    from datetime import timedelta

    from django.utils import timezone

    close_with_orders(game)  # queued to Redis, but no worker is running
    redis.Redis.from_url(REDIS_URL).flushdb()  # the broker loses the task
    assert deadlines.sweep()["requeued"] == 0  # its message owns it until the lease runs out
    later = timezone.now() + timedelta(seconds=settings.ADJUDICATION_LEASE_SECONDS + 1)
    assert deadlines.sweep(now=later)["requeued"] == 1
    assert deadlines.sweep(now=later)["requeued"] == 0  # queued once: the rescue's lease holds it now
    worker = Worker()
    try:
        assert wait_for(lambda: state_of(game).turn.number == 2)
    finally:
        worker.stop()
    assert adjudications(game) == 1
