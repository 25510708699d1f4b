"""Queues by kind and hand-offs that fail: a hung SMTP server cannot delay a turn, and a turn or
mail whose hand-off to the broker failed is recorded and queued again by the rescue."""

import asyncio
import socket
import threading

import pytest
from aiosmtpd.controller import Controller

from campaigns.mailout import outbox
from campaigns.models import Game, OutboxMail
from kriegsbrief.celery import app
from tests.services import REDIS_URL, needs_redis
from tests.support.games import state_of
from tests.support.workers import Beat, Worker, _reset_connections, wait_for

from .test_celery_adjudication import adjudications, close_with_orders

pytestmark = [needs_redis, pytest.mark.django_db(transaction=True)]


class HungSmtp:
    """An SMTP server that takes a message's data and never answers (until released)."""

    def __init__(self):
        self.waiting, self.released = 0, threading.Event()
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)

    async def handle_DATA(self, server, session, envelope):
        self.waiting += 1
        while not self.released.is_set():
            await asyncio.sleep(0.1)
        return "250 OK"

    def __enter__(self):
        self.controller.start()
        return self

    def __exit__(self, *exc):
        self.released.set()
        self.controller.stop()


def test_a_hung_smtp_server_does_not_delay_a_turn(game, broker):
    with HungSmtp() as smtp:
        env = {"EMAIL_URL": f"smtp://127.0.0.1:{smtp.port}", "EMAIL_TIMEOUT": "600"}
        workers = [Worker(kinds=("adjudication",), env=env), Worker(kinds=("mail",), env=env)]
        try:
            stuck = outbox.queue_mail(key="hung-1", to="bob@example.org", subject="Never answered", body="x", game=game)
            assert wait_for(lambda: smtp.waiting == 1), "the mail worker never reached the SMTP server"
            close_with_orders(game)
            assert wait_for(lambda: state_of(game).turn.number == 2), "the turn waited for the mail"
            assert adjudications(game) == 1
            stuck.refresh_from_db()
            assert stuck.status == OutboxMail.Status.SENDING and smtp.waiting == 1  # still hung meanwhile
            # The turn's reports wait on the mail queue, behind the hung send, and are not lost.
            reports = OutboxMail.objects.filter(game=game, created_at__gt=stuck.created_at).exclude(pk=stuck.pk)
            assert reports.exists() and set(reports.values_list("status", flat=True)) == {"pending"}
        finally:
            smtp.released.set()
            for w in workers:
                w.stop()


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # nothing listens once it is closed


def test_a_failed_hand_off_is_recorded_and_rescued_within_the_rescue_interval(game, broker, tmp_path):
    # A real failure: the publish goes to a port where no broker listens (for these hand-offs only).
    app.conf.broker_url = f"redis://127.0.0.1:{_closed_port()}/0"
    _reset_connections()
    try:
        close_with_orders(game)  # the closing commits; its hand-off to the broker fails
        row = outbox.queue_mail(key="handoff-1", to="bob@example.org", subject="Hello", body="x", game=game)
        outbox.flush_publisher()  # the publisher thread's attempt has been made (and failed)
    finally:
        app.conf.broker_url = REDIS_URL
        _reset_connections()
    game.refresh_from_db()
    row.refresh_from_db()
    # Recorded: no one holds them (the leases were released), so the rescue need not wait them out.
    assert game.turn_status == "closed" and game.adjudication_leased_until is None
    assert row.status == OutboxMail.Status.PENDING and row.leased_until is None
    worker, beat = Worker(), Beat(tmp_path, rescue_every=1.0)
    try:
        assert wait_for(lambda: state_of(game).turn.number == 2, 60), "the rescue never queued the turn"
        assert wait_for(lambda: OutboxMail.objects.get(pk=row.pk).status == OutboxMail.Status.SENT, 60)
    finally:
        beat.stop()
        worker.stop()
    assert adjudications(game) == 1
    assert Game.objects.get(pk=game.pk).turn_status == "open"


def test_the_rescue_queues_work_no_one_holds_once(game, broker):
    from campaigns.turns import deadlines

    app.conf.broker_url = f"redis://127.0.0.1:{_closed_port()}/0"
    _reset_connections()
    try:
        close_with_orders(game)
    finally:
        app.conf.broker_url = REDIS_URL
        _reset_connections()
    assert deadlines.rescue()["adjudications"] == 1  # released by the failed hand-off: at once
    assert deadlines.rescue()["adjudications"] == 0  # now leased to the message just queued
