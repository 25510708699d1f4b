"""One owner per retry (issue 18 item 2, issue 16 case 8), with a real worker, beat's rescue and an
SMTP server that fails slowly: each retry waits its backoff counted from the END of the failed
attempt, every message arrives once, and the broker carries one message per attempt."""

import asyncio
import socket
import threading
import time
from email.parser import BytesHeaderParser
from itertools import pairwise

import pytest
from aiosmtpd.controller import Controller
from django.db import connection, transaction
from django.utils import timezone

from campaigns.mailout import outbox
from campaigns.models import OutboxMail
from tests.services import needs_redis
from tests.support.broker_watch import PushCounter
from tests.support.workers import Beat, Worker, queue_of, wait_for
from tests.turns.test_queues_by_kind import HungSmtp

pytestmark = [needs_redis, pytest.mark.django_db(transaction=True)]

ROWS, SLOW_FAILURES, FAIL_AFTER = 8, 3, 1.5  # seconds an answer takes when it is a failure


class SlowFailingSmtp:
    """Answers the first SLOW_FAILURES messages after FAIL_AFTER s with 451, then accepts; records
    each conversation's (Message-ID, start, end, accepted)."""

    def __init__(self):
        self.attempts, self.failures_left, self.lock = [], SLOW_FAILURES, threading.Lock()
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)

    async def handle_DATA(self, server, session, envelope):
        start = time.time()
        msgid = BytesHeaderParser().parsebytes(envelope.content)["Message-ID"].strip()
        with self.lock:
            fail = self.failures_left > 0
            self.failures_left -= fail
        if fail:
            await asyncio.sleep(FAIL_AFTER)
        with self.lock:
            self.attempts.append((msgid, start, time.time(), not fail))
        return "451 4.3.0 try again later" if fail else "250 OK"

    def accepted(self, msgid) -> int:
        return sum(1 for m, _, _, ok in self.attempts if m == msgid and ok)


@pytest.fixture
def sink():
    s = SlowFailingSmtp()
    s.controller.start()
    yield s
    s.controller.stop()


def test_slow_failures_are_retried_after_the_backoff_from_their_end_once_each(game, broker, sink, tmp_path, settings):
    settings.OUTBOX_RETRY_BASE_SECONDS = 1  # as the worker's: backoffs of 1, 2, 4 s
    env = {"EMAIL_URL": f"smtp://127.0.0.1:{sink.port}", "OUTBOX_RETRY_BASE_SECONDS": "1"}
    worker, beat = Worker(kinds=("mail", "maintenance"), env=env), Beat(tmp_path, rescue_every=0.5)
    try:
        with PushCounter(queue_of("mail")) as pushes:
            with transaction.atomic():
                rows = [
                    outbox.queue_mail(key=f"slow-{i}", to=f"p{i}@example.org", subject=f"Mail {i}", body="x", game=game)
                    for i in range(ROWS)
                ]
            ids = [r.pk for r in rows]
            sent = lambda: OutboxMail.objects.filter(pk__in=ids, status="sent").count() == ROWS  # noqa: E731
            assert wait_for(sent, 120), "not every row was sent"
            time.sleep(2)  # any duplicate message the design would make is queued by now
    finally:
        beat.stop()
        worker.stop()
    rows = list(OutboxMail.objects.filter(pk__in=ids))
    assert all(sink.accepted(r.message_id) == 1 for r in rows)  # each delivered once
    assert len(sink.attempts) == ROWS + SLOW_FAILURES == sum(r.attempts for r in rows)
    for r in rows:
        mine = sorted((start, end) for m, start, end, _ in sink.attempts if m == r.message_id)
        for k, ((_, end), (next_start, _)) in enumerate(pairwise(mine), start=1):
            # the next attempt began no sooner than the backoff after the failed one ENDED
            assert next_start - end >= outbox.backoff(k).total_seconds(), (r.pk, k, next_start - end)
    assert pushes.count == len(sink.attempts)  # one broker message per attempt: one owner per retry
    assert pushes.count / ROWS <= 1.5


def test_a_live_sender_keeps_its_row_however_long_the_smtp_server_takes(game, broker, settings):
    """The send lease is short and renewed while the conversation lasts (campaigns/leases.py): the
    rescue never takes the row from a sender that is alive, even long past the lease."""
    settings.SEND_LEASE_SECONDS = 0.6  # renewed every 0.2 s
    with HungSmtp() as smtp:
        settings.EMAIL_BACKEND = "campaigns.mailout.smtp_backend.EmailBackend"
        settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", smtp.port, 60
        row = outbox.queue_mail(key="slow-1", to="bob@example.org", subject="Slow", body="x", game=game)
        sender = threading.Thread(target=_send_and_close, args=(row.pk,))
        sender.start()
        assert wait_for(lambda: smtp.waiting == 1), "the sender never reached the SMTP server"
        for _ in range(8):  # four times the lease, and more
            time.sleep(0.3)
            assert outbox.requeue_due(timezone.now()) == 0
        row.refresh_from_db()
        assert row.status == OutboxMail.Status.SENDING and row.leased_until > timezone.now()
        smtp.released.set()
        sender.join(30)
    row.refresh_from_db()
    assert row.status == OutboxMail.Status.SENT and row.attempts == 1 and smtp.waiting == 1


def _send_and_close(row_id):
    try:
        outbox.send(row_id)
    finally:
        connection.close()  # this thread's own connection
