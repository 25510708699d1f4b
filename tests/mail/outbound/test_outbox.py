"""The durable outbox over real SMTP: exactly once per key, nothing queued by a rolled-back
transaction, failures recorded and retried with backoff, rows a crashed sender left behind
picked up again, and a row that never goes out kept as DEAD, never dropped."""

import hashlib
import logging
import re
import threading
from datetime import timedelta

import pytest
import time_machine
from django.db import connection, transaction
from django.utils import timezone
from kombu.exceptions import OperationalError

from campaigns.mailin.models import SeatAddress
from campaigns.mailout import outbox
from campaigns.models import OutboxMail
from tests.services import postgres_only
from tests.support.games import play_one
from tests.support.mail import plain

pytestmark = pytest.mark.django_db(transaction=True)


def rescue_at(when) -> int:
    """The rescue run at ``when`` (the clock moved there, so the sender it queues sees that time too)."""
    with time_machine.travel(when, tick=False):
        return outbox.requeue_due(timezone.now())


def queue(game, key="k1", **kw):
    fields = {"key": key, "to": "bob@example.org", "subject": "Hello", "body": "Body text", "game": game}
    return outbox.queue_mail(**{**fields, **kw})


def test_one_message_per_key_whatever_the_number_of_calls(game, smtp):
    first = queue(game)
    assert first is not None and queue(game) is None and queue(game, subject="other") is None
    assert OutboxMail.objects.filter(key="k1").count() == 1
    assert len(smtp.messages) == 1 and smtp.messages[0][1]["Subject"] == "Hello"
    first.refresh_from_db()
    assert first.status == "sent" and first.attempts == 1 and first.sent_at is not None


def test_a_rolled_back_transaction_queues_and_sends_nothing(game, smtp):
    with pytest.raises(RuntimeError), transaction.atomic():
        queue(game)
        raise RuntimeError("the command failed")
    assert not OutboxMail.objects.exclude(kind="start").exists() and smtp.messages == []


def test_mail_to_nobodys_game_threads_on_the_message_it_answers(smtp):
    queue(
        None,
        to="stranger@example.net",
        in_reply_to="<abc@mail.example.net>",
        references=["<root@mail.example.net>"],
        kind="reply",
    )
    msg = smtp.messages[0][1]
    assert msg["In-Reply-To"] == "<abc@mail.example.net>"
    assert msg["References"] == "<root@mail.example.net> <abc@mail.example.net>"
    assert msg["Reply-To"] is None and msg["X-Kriegsbrief-Game"] is None
    assert msg["Auto-Submitted"] == "auto-generated"


def test_a_message_to_a_seat_carries_its_reply_address_and_attachments(game, smtp):
    red = game.seats.get(side="red")
    queue(
        game,
        seat=red,
        attachments=[("orders.txt", "form C2\n", "text/plain"), ("x.bin", b"\x00\x01", "application/octet-stream")],
    )
    msg = smtp.messages[0][1]
    token = SeatAddress.objects.get(seat=red).token
    assert token in msg["Reply-To"]
    files = {p.get_filename(): p.get_content() for p in msg.walk() if p.get_filename()}
    assert files == {"orders.txt": "form C2\r\n", "x.bin": b"\x00\x01"}  # CRLF: text on the wire


def test_bad_input_is_refused_clearly(game):
    with pytest.raises(ValueError, match="subject must be one line"):
        queue(game, subject="a\nBcc: victim@example.org")
    with pytest.raises(ValueError, match=r"references\[1\] must be one line"):
        queue(game, references=["<a@b>", "<c@d>\r\nBcc: victim@example.org"])
    with pytest.raises(ValueError, match="non-empty idempotency key"):
        queue(game, key="")
    for bad in ("", "bob", "bob@example.org, eve@example.org", "bob@example.org\nBcc: eve@example.org"):
        with pytest.raises(ValueError, match="is not one mail address"):
            queue(game, to=bad)
    assert not OutboxMail.objects.exclude(kind="start").exists()


def test_a_refused_send_is_recorded_then_retried_after_its_backoff(game, smtp):
    smtp.refuse = 1
    row = queue(game)  # the after-commit send meets a 451
    row.refresh_from_db()
    assert row.status == "failed" and row.attempts == 1 and "451" in row.last_error
    now = timezone.now()
    assert timedelta(seconds=25) < row.next_attempt_at - now <= timedelta(seconds=30)
    assert rescue_at(now + timedelta(seconds=10)) == 0  # still backing off
    assert outbox.send(row.pk) is False  # an early message (a duplicate) finds it backing off
    assert smtp.messages == []
    assert rescue_at(now + timedelta(seconds=31)) == 1
    row.refresh_from_db()
    assert row.status == "sent" and row.attempts == 2 and row.last_error == ""
    assert len(smtp.messages) == 1
    assert rescue_at(now + timedelta(days=1)) == 0  # sent rows are never sent again


def test_backoff_doubles_up_to_an_hour():
    assert [outbox.backoff(n).total_seconds() for n in (1, 2, 3, 4)] == [30, 60, 120, 240]
    assert outbox.backoff(20) == timedelta(hours=1)


def test_a_message_id_cannot_be_traced_back_to_the_inbound_id_in_its_key(settings):
    """Acknowledgement keys hold the inbound message's database id (mailin:<id>:ack): with a plain
    hash of the key, a player could try ids until one matched the Message-ID of an answer and count,
    between two of their own, the mail that came in meanwhile (the enemy's included)."""
    key = "mailin:41:ack"
    mid = outbox.message_id_for(key)
    domain = settings.MAIL_MESSAGE_ID_DOMAIN
    assert re.fullmatch(rf"<[0-9a-f]{{32}}@{re.escape(domain)}>", mid) and outbox.message_id_for(key) == mid
    tried = {
        f"<{hashlib.sha256(f'mailin:{n}:{p}'.encode()).hexdigest()[:32]}@{domain}>"
        for n in range(1, 1000)
        for p in ("ack", "resend", "rejected", "held")
    }
    assert mid not in tried
    settings.SECRET_KEY = "another deployment's secret key, at least fifty characters long"
    assert outbox.message_id_for(key) != mid


def _unreachable(ids, render=()):
    raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")


def queue_while_broker_down(game, monkeypatch):
    """Queue a row whose after-commit hand-off is lost with its process (the lease still holds)."""
    with monkeypatch.context() as m:
        m.setattr(outbox, "enqueue", _unreachable)
        return queue(game)  # robust on_commit: the failure is logged, the caller goes on


def test_a_row_left_in_sending_by_a_crashed_worker_is_sent_after_its_lease(game, smtp, monkeypatch):
    row = queue_while_broker_down(game, monkeypatch)
    now = timezone.now()
    assert outbox.claim(row.pk, now)  # a worker takes the row ... and dies before sending
    assert outbox.send(row.pk) is False  # nobody else may send it meanwhile
    # No heartbeat renews a dead sender's lease: the rescue takes the row once the short lease is over.
    assert rescue_at(now + outbox.send_lease() - timedelta(seconds=1)) == 0
    assert rescue_at(now + outbox.send_lease() + timedelta(seconds=1)) == 1
    row.refresh_from_db()
    assert row.status == "sent" and row.attempts == 2 and len(smtp.messages) == 1


def test_a_stalled_senders_late_failure_leaves_a_row_another_sender_sent(game, smtp, monkeypatch):
    """Issue 32: a sender paused mid-conversation (SIGSTOP) loses its row to the rescue after the send
    lease; another sends it; the first, resumed, meets a 421 and records its failure: the row stays
    SENT and is never sent a third time."""
    row = queue_while_broker_down(game, monkeypatch)
    now = timezone.now()
    assert outbox.claim(row.pk, now)  # host B takes the row (attempt 1) ... and is paused
    stalled = OutboxMail.objects.get(pk=row.pk)
    assert rescue_at(now + outbox.send_lease() + timedelta(seconds=1)) == 1  # host A sends it (attempt 2)
    row.refresh_from_db()
    assert row.status == "sent" and row.attempts == 2
    outbox._record_failure(stalled, timezone.now(), "SMTPServerDisconnected: 421 closing")  # host B resumes
    row.refresh_from_db()
    assert row.status == "sent" and row.last_error == ""
    assert rescue_at(now + timedelta(hours=2)) == 0
    assert len(smtp.messages) == 1


def test_a_pending_row_whose_queueing_was_lost_is_sent_by_the_sweep(game, smtp, monkeypatch):
    row = queue_while_broker_down(game, monkeypatch)
    assert row.status == "pending" and smtp.messages == []
    assert outbox.requeue_due(timezone.now()) == 0  # the message queued for it owns it until its lease ends
    assert rescue_at(timezone.now() + outbox.queued_lease() + timedelta(seconds=1)) == 1
    row.refresh_from_db()
    assert row.status == "sent" and len(smtp.messages) == 1


def test_a_row_that_never_goes_out_is_kept_as_dead_and_logged(game, smtp, caplog):
    smtp.refuse = 10**6
    row = queue(game)  # attempt 1
    now = timezone.now()
    with caplog.at_level(logging.ERROR, logger="campaigns.mailout.outbox"):
        for _ in range(outbox.MAX_ATTEMPTS - 1):
            now += timedelta(hours=1)
            assert rescue_at(now) == 1
    row.refresh_from_db()
    assert row.status == "dead" and row.attempts == outbox.MAX_ATTEMPTS and "451" in row.last_error
    assert f"outbox row {row.pk} (notice) gave up after {outbox.MAX_ATTEMPTS} attempts" in caplog.text
    assert rescue_at(now + timedelta(days=1)) == 0 and outbox.send(row.pk) is False
    assert OutboxMail.objects.filter(pk=row.pk).exists() and smtp.messages == []


def test_a_lease_expiring_on_the_last_attempt_also_ends_dead(game, smtp, monkeypatch):
    row = queue_while_broker_down(game, monkeypatch)
    OutboxMail.objects.filter(pk=row.pk).update(attempts=outbox.MAX_ATTEMPTS - 1)
    now = timezone.now()
    assert outbox.claim(row.pk, now)  # the last attempt's worker dies
    assert rescue_at(now + outbox.send_lease() + timedelta(seconds=1)) == 0
    row.refresh_from_db()
    assert row.status == "dead" and "lease expired" in row.last_error


def test_no_secret_token_reaches_any_log(game, smtp, caplog):
    smtp.refuse = 1  # a failure path too: it logs
    with caplog.at_level(logging.DEBUG):
        play_one(game)
        play_one(game)
        rescue_at(timezone.now() + timedelta(hours=1))
    tokens = list(SeatAddress.objects.values_list("token", flat=True))
    assert len(tokens) == 3 and all(len(t) == 32 for t in tokens)
    mailed = "".join(plain(m) + m["Reply-To"] for _, m in smtp.messages)
    assert all(t in mailed for t in tokens)  # positive control: the tokens were really in play
    logged = caplog.text + "".join(str(r.args) for r in caplog.records)
    assert caplog.records and not [t for t in tokens if t in logged]


@postgres_only
def test_concurrent_writers_of_one_key_make_one_row_and_one_mail(game, smtp):
    """Eight threads, each in its own transaction, queue the same key at once."""
    barrier = threading.Barrier(8)
    results = []

    def writer():
        try:
            with transaction.atomic():
                barrier.wait()
                results.append(queue(game, key="race") is not None)
        finally:
            connection.close()

    threads = [threading.Thread(target=writer) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(results) == [False] * 7 + [True]
    assert OutboxMail.objects.filter(key="race").count() == 1
    assert len(smtp.messages) == 1


def test_a_hung_smtp_server_fails_the_attempt_within_the_timeout(game, settings):
    import socket
    import time

    with socket.socket() as silent:  # accepts connections, never says a word
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        settings.EMAIL_BACKEND = "campaigns.mailout.smtp_backend.EmailBackend"
        settings.EMAIL_HOST, settings.EMAIL_PORT = silent.getsockname()
        settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
        settings.EMAIL_TIMEOUT = 1
        started = time.monotonic()
        row = queue(game)
        assert time.monotonic() - started < 10  # the 1 s timeout, not a hang
    row.refresh_from_db()
    assert row.status == "failed" and "timed out" in row.last_error
