"""A mail message taken off the queue by a consumer that dies before starting it (a mail worker
killed whole while it held messages it had not begun) is queued again within seconds, not when its
queued lease runs out (issue 18); a message still waiting in the mail queue is never copied, however
long the backlog; and a started send-many task holds the rows it has not reached yet under the
short send lease, so it is not mistaken for a lost one (real Redis: campaigns/queued.py)."""

from datetime import timedelta

import pytest
import redis
from django.utils import timezone

from campaigns import queued
from campaigns.mailout import outbox
from campaigns.models import OutboxMail
from tests.mail.outbound.test_send_many import queued as queued_rows
from tests.services import REDIS_URL, needs_redis
from tests.support.workers import Worker, queue_of, wait_for

pytestmark = [needs_redis, pytest.mark.django_db(transaction=True)]


def queued_batch(game, names):
    """Rows queued in one transaction: their sends go in one send-many message, on the queue now."""
    rows = queued_rows(game, names)
    outbox.flush_publisher()
    return rows


def in_queue() -> list[bytes]:
    return redis.Redis.from_url(REDIS_URL).lrange(queue_of("mail"), 0, -1)


def take_as_a_dying_consumer() -> None:
    """Take every mail message off the queue as a worker does, and never run them."""
    client = redis.Redis.from_url(REDIS_URL)
    while client.rpop(queue_of("mail")) is not None:
        pass


def leases(rows):
    return [OutboxMail.objects.values_list("leased_until", flat=True).get(pk=r.pk) for r in rows]


def test_the_mail_queue_is_read_for_its_rows(game, broker):
    rows = queued_batch(game, ["a", "b", "c"])
    assert queued.waiting(outbox.SEND_MANY_TASK) == {(tuple(r.pk for r in rows),)}
    assert outbox._waiting_rows() == {r.pk for r in rows}
    take_as_a_dying_consumer()
    assert outbox._waiting_rows() == set()


def test_a_mail_message_waiting_in_the_queue_is_never_copied(game, broker):
    rows = queued_batch(game, ["a", "b"])
    later = timezone.now() + timedelta(seconds=10)
    assert outbox.requeue_due(later) == 0  # old enough to be doubted, but there in the queue
    assert leases(rows) == [later + outbox.queued_lease()] * 2  # owned by that message from now
    much_later = later + outbox.queued_lease() + timedelta(seconds=5)  # past its whole queued lease
    assert outbox.requeue_due(much_later) == 0
    assert leases(rows) == [much_later + outbox.queued_lease()] * 2
    assert len(in_queue()) == 1


def test_a_mail_message_taken_and_never_started_is_sent_again_once(game, broker, smtp, settings, monkeypatch):
    monkeypatch.setenv("EMAIL_URL", f"smtp://{settings.EMAIL_HOST}:{settings.EMAIL_PORT}")  # the worker's
    rows = queued_batch(game, ["a", "b", "c"])
    take_as_a_dying_consumer()
    assert outbox.requeue_due(timezone.now() + timedelta(seconds=1)) == 0  # a live worker starts it now
    assert outbox.requeue_due(timezone.now() + timedelta(seconds=settings.MAIL_TAKEN_SECONDS + 1)) == 3
    outbox.flush_publisher()
    assert len(in_queue()) == 1  # one send-many message for the three
    worker = Worker(kinds=("mail",))
    try:
        assert wait_for(lambda: len(smtp.messages) >= 3, 60), "the rows taken and lost were not sent"
    finally:
        worker.stop()
    assert sorted(m["Subject"] for _, m in smtp.messages) == ["Batch a", "Batch b", "Batch c"]
    assert {OutboxMail.objects.get(pk=r.pk).status for r in rows} == {"sent"}


def test_a_started_send_many_holds_the_rows_it_has_not_reached(game, broker, smtp, settings, monkeypatch):
    rows = queued_batch(game, ["a", "b", "c"])
    take_as_a_dying_consumer()  # as the worker that runs it below did
    seen, deliver = [], outbox._deliver

    def deliver_and_look(row, conn):
        # While the first row is sent, the later ones are held under the send lease, not the queued one,
        # so the rescue, whatever its clock within the send lease, does not take them.
        if not seen:
            seen.extend(leases(rows[1:]))
            doubting = timezone.now() + timedelta(seconds=settings.MAIL_TAKEN_SECONDS + 1)
            seen.append(outbox.requeue_due(doubting))
        return deliver(row, conn)

    monkeypatch.setattr(outbox, "_deliver", deliver_and_look)
    before = timezone.now()
    assert outbox.send_many([r.pk for r in rows]) == 3
    *held, requeued = seen
    assert all(before < until <= timezone.now() + outbox.send_lease() for until in held)
    assert requeued == 0
    assert len(smtp.messages) == 3


def test_without_the_broker_only_an_expired_mail_lease_is_taken(game, broker, monkeypatch):
    from kriegsbrief.celery import app

    rows = queued_batch(game, ["a"])
    take_as_a_dying_consumer()
    monkeypatch.setitem(app.conf, "broker_url", "redis://127.0.0.1:1/0")  # nothing listens there
    assert outbox._waiting_rows() is None
    before = leases(rows)
    assert outbox.requeue_due(timezone.now() + timedelta(seconds=10)) == 0
    assert leases(rows) == before
