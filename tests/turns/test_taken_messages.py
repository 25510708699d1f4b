"""A message taken off the queue by a consumer that dies before starting it (issue 18: a worker killed
whole while it held a message it had not begun) is queued again within seconds, not when its queued
lease (and Redis's visibility timeout, an hour) runs out; a message still waiting in the queue is
never copied, however long the backlog (real Redis: campaigns/queued.py reads the queue's list)."""

from datetime import timedelta

import pytest
import redis
from django.utils import timezone

from campaigns import queued
from campaigns.models import Game
from campaigns.turns import handoff
from campaigns.turns.gamelog import verify_game
from kriegsbrief.celery import app
from tests.services import REDIS_URL, needs_redis
from tests.support.games import state_of
from tests.support.workers import Worker, queue_of, wait_for

from .test_celery_adjudication import adjudications, close_with_orders

pytestmark = [needs_redis, pytest.mark.django_db(transaction=True)]


def lease_of(game):
    return Game.objects.values_list("adjudication_leased_until", flat=True).get(pk=game.pk)


def in_queue() -> list[bytes]:
    return redis.Redis.from_url(REDIS_URL).lrange(queue_of("adjudication"), 0, -1)


def take_as_a_dying_consumer() -> bytes:
    """Take the adjudication's message off its queue as a worker does, and never run it."""
    raw = redis.Redis.from_url(REDIS_URL).rpop(queue_of("adjudication"))
    assert raw is not None
    return raw


def test_the_queue_is_read_for_the_tasks_waiting_in_it(game, broker):
    close_with_orders(game)
    assert queued.waiting(handoff.ADJUDICATE_TASK) == {(game.pk, 1)}
    assert queued.waiting("campaigns.tasks.send_outbox_mail") == set()  # another task, another queue
    take_as_a_dying_consumer()
    assert queued.waiting(handoff.ADJUDICATE_TASK) == set()


def test_a_message_waiting_in_the_queue_is_never_copied(game, broker):
    close_with_orders(game)
    later = timezone.now() + timedelta(seconds=10)
    assert handoff.rescue(now=later) == 0  # old enough to be doubted, but there in the queue
    assert lease_of(game) == later + handoff.lease()  # so it owns the turn again from now
    # Past that whole queued lease (a long backlog): still waiting, so renewed again, not copied.
    much_later = later + handoff.lease() + timedelta(seconds=5)
    assert handoff.rescue(now=much_later) == 0
    assert lease_of(game) == much_later + handoff.lease()
    assert len(in_queue()) == 1


def test_a_message_taken_and_never_started_is_queued_again_and_adjudicated_once(game, broker, settings):
    close_with_orders(game)
    take_as_a_dying_consumer()
    # Taken a moment ago: a live worker would be starting it now.
    assert handoff.rescue(now=timezone.now() + timedelta(seconds=1)) == 0
    taken_for = settings.ADJUDICATION_TAKEN_SECONDS + 1
    assert handoff.rescue(now=timezone.now() + timedelta(seconds=taken_for)) == 1
    assert len(in_queue()) == 1
    worker = Worker(kinds=("adjudication",))
    try:
        assert wait_for(lambda: state_of(game).turn.number == 2, 60), "the queued-again turn was not adjudicated"
    finally:
        worker.stop()
    assert adjudications(game) == 1
    assert verify_game(game).ok


def test_a_running_adjudication_is_left_to_its_work_lease(game, broker, settings):
    settings.WORK_LEASE_SECONDS = 20  # so the clock can move past ADJUDICATION_TAKEN_SECONDS within it
    close_with_orders(game)
    take_as_a_dying_consumer()
    with handoff.running(game.pk, 1):  # started: the lease is the short work lease, renewed
        assert handoff.rescue(now=timezone.now() + timedelta(seconds=settings.ADJUDICATION_TAKEN_SECONDS + 1)) == 0


def test_without_the_broker_the_leases_alone_decide(game, broker, monkeypatch):
    close_with_orders(game)
    take_as_a_dying_consumer()
    monkeypatch.setitem(app.conf, "broker_url", "redis://127.0.0.1:1/0")  # nothing listens there
    assert queued.waiting(handoff.ADJUDICATE_TASK) is None
    before = lease_of(game)
    assert handoff.rescue(now=timezone.now() + timedelta(seconds=10)) == 0
    assert lease_of(game) == before  # not taken: without the queue's word, only an expired lease is
