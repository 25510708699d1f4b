"""Bounces handled (issue 30, point 4): every message to a seat leaves with the seat's own return
path (VERP) as its envelope sender, the delivery reports real mail servers send back to it (Postfix's
and Exim's RFC 3464 reports, built here as they write them) come in through the pipe command, and a
hard bounce or repeated soft ones make the seat's address failing: the umpire is told (mail, page,
seat data), the player on the game page, and the seat's mail is held back until the player confirms
an address, then sent."""

from __future__ import annotations

import io
import sys
from datetime import timedelta
from email.utils import formatdate

import pytest
import time_machine
from django.conf import settings as django_settings
from django.core.management import call_command
from django.template.loader import render_to_string
from django.utils import timezone

from campaigns.mailin.models import InboundMessage
from campaigns.mailout import outbox, verification
from campaigns.models import OutboxMail
from campaigns.turns import mailaddress
from tests.support.games import play_one
from tests.support.mail import mail, plain
from tests.support.smtp import Sink, on_loopback

pytestmark = pytest.mark.django_db(transaction=True)


class _Health:
    """campaigns.mailout.health, imported when first used (so that on the code before it, each test
    fails on what it checks rather than on an import)."""

    def __getattr__(self, name):
        from campaigns.mailout import health as module

        return getattr(module, name)


health = _Health()


class EnvelopeSink(Sink):
    """The test suite's SMTP sink, keeping each message's envelope sender too."""

    def __init__(self):
        super().__init__()
        self.envelopes: list[tuple[str, list[str]]] = []  # (MAIL FROM, RCPT TOs) per message accepted

    async def handle_DATA(self, server, session, envelope):
        answer = await super().handle_DATA(server, session, envelope)
        if answer.startswith("250"):
            self.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos)))
        return answer

    def senders_to(self, address: str) -> list[str]:
        return [sender for sender, rcpts in self.envelopes if address in rcpts]


@pytest.fixture
def sink(settings):
    found = EnvelopeSink()
    controller, port = on_loopback(found)
    settings.EMAIL_BACKEND = "campaigns.mailout.smtp_backend.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    yield found
    controller.stop()


def pipe(monkeypatch, raw: bytes, recipient: str) -> str:
    """As Postfix runs the pipe (deploy/postfix/master.cf): the message on stdin, the envelope recipient."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    out = io.StringIO()
    call_command("ingest_mail", "--recipient", recipient, stdout=out)
    return out.getvalue()


def postfix_dsn(return_path: str, rcpt: str, *, status="5.1.1", action="failed", diagnostic=None) -> bytes:
    """A Postfix bounce (bounce(8)'s template and delivery-status fields, headers of the original)."""
    diagnostic = (
        diagnostic or f"smtp; 550 {status} <{rcpt}>: Recipient address rejected: User unknown in virtual mailbox table"
    )
    subject = "Undelivered Mail Returned to Sender" if action == "failed" else "Delayed Mail (still being retried)"
    text = (
        f"Return-Path: <>\r\n"
        f"Received: by mail.kriegsbrief.localhost (Postfix) id 4XyZ1; {formatdate()}\r\n"
        f"Date: {formatdate()}\r\n"
        "From: MAILER-DAEMON@mail.kriegsbrief.localhost (Mail Delivery System)\r\n"
        f"Subject: {subject}\r\n"
        f"To: {return_path}\r\n"
        "Auto-Submitted: auto-replied\r\n"
        "MIME-Version: 1.0\r\n"
        'Content-Type: multipart/report; report-type=delivery-status;\r\n\tboundary="4XyZ1.1732829000/mail.kriegsbrief.localhost"\r\n'
        "Content-Transfer-Encoding: 8bit\r\n"
        f"Message-Id: <20261128-4XyZ1-{abs(hash((rcpt, status, action, formatdate())))}@mail.kriegsbrief.localhost>\r\n"
        "\r\n"
        "This is a MIME-encapsulated message.\r\n"
        "\r\n"
        "--4XyZ1.1732829000/mail.kriegsbrief.localhost\r\n"
        "Content-Description: Notification\r\n"
        "Content-Type: text/plain; charset=utf-8\r\n"
        "Content-Transfer-Encoding: 8bit\r\n"
        "\r\n"
        "This is the mail system at host mail.kriegsbrief.localhost.\r\n"
        "\r\n"
        "I'm sorry to have to inform you that your message could not\r\n"
        "be delivered to one or more recipients. It's attached below.\r\n"
        "\r\n"
        f"<{rcpt}>: host mx.example.org[203.0.113.25] said: 550 {status} <{rcpt}>:\r\n"
        "    Recipient address rejected: User unknown in virtual mailbox table (in\r\n"
        "    reply to RCPT TO command)\r\n"
        "\r\n"
        "--4XyZ1.1732829000/mail.kriegsbrief.localhost\r\n"
        "Content-Description: Delivery report\r\n"
        "Content-Type: message/delivery-status\r\n"
        "\r\n"
        "Reporting-MTA: dns; mail.kriegsbrief.localhost\r\n"
        "X-Postfix-Queue-ID: 4XyZ1\r\n"
        f"X-Postfix-Sender: rfc822; {return_path}\r\n"
        f"Arrival-Date: {formatdate()}\r\n"
        "\r\n"
        f"Final-Recipient: rfc822; {rcpt}\r\n"
        f"Original-Recipient: rfc822;{rcpt}\r\n"
        f"Action: {action}\r\n"
        f"Status: {status}\r\n"
        "Remote-MTA: dns; mx.example.org\r\n"
        f"Diagnostic-Code: {diagnostic}\r\n"
        "\r\n"
        "--4XyZ1.1732829000/mail.kriegsbrief.localhost\r\n"
        "Content-Description: Undelivered Message Headers\r\n"
        "Content-Type: text/rfc822-headers\r\n"
        "Content-Transfer-Encoding: 8bit\r\n"
        "\r\n"
        f"Return-Path: <{return_path}>\r\n"
        "From: Kriegsbrief <umpire@kriegsbrief.localhost>\r\n"
        f"To: {rcpt}\r\n"
        "Subject: [Kriegsbrief] Test game: turn 1 results\r\n"
        "Auto-Submitted: auto-generated\r\n"
        "\r\n"
        "--4XyZ1.1732829000/mail.kriegsbrief.localhost--\r\n"
    )
    return text.encode()


def exim_dsn(return_path: str, rcpt: str, *, status="4.0.0", action="delayed", n=1) -> bytes:
    """An Exim delay warning (its warn_message_file default: multipart/report since 4.82)."""
    boundary = f"1732829{n}-eximdsn-1804289383"
    text = (
        f"Return-path: <>\r\n"
        f"Envelope-to: {return_path}\r\n"
        "Received: from mailnull by mx.example.net with local (Exim 4.97)\r\n"
        f"\tid 1tGz{n}X-000Abc-0Q; {formatdate()}\r\n"
        "X-Failed-Recipients: \r\n" * 0 + f"Auto-Submitted: auto-replied\r\n"
        "From: Mail Delivery System <Mailer-Daemon@mx.example.net>\r\n"
        f"To: {return_path}\r\n"
        f"Content-Type: multipart/report; report-type=delivery-status; boundary={boundary}\r\n"
        "MIME-Version: 1.0\r\n"
        "Subject: Warning: message 1tGz0A-000Abc-7v delayed 24 hours\r\n"
        f"Message-Id: <E1tGz{n}X-000Abc-0Q@mx.example.net>\r\n"
        f"Date: {formatdate()}\r\n"
        "\r\n"
        f"--{boundary}\r\n"
        "Content-type: text/plain; charset=us-ascii\r\n"
        "\r\n"
        "This message was created automatically by mail delivery software.\r\n"
        "A message that you sent has not yet been delivered to one or more of its\r\n"
        "recipients after more than 24 hours on the queue on mx.example.net.\r\n"
        "\r\n"
        f"  {rcpt}\r\n"
        "    Delay reason: SMTP error from remote mail server after RCPT TO:<" + rcpt + ">:\r\n"
        "    452 4.2.2 Mailbox full\r\n"
        "\r\n"
        "No action is required on your part. Delivery attempts will continue for\r\n"
        "some time, and this warning may be repeated at intervals if the message\r\n"
        "remains undelivered. Eventually the mail delivery software will give up,\r\n"
        "and when that happens, the message will be returned to you.\r\n"
        "\r\n"
        f"--{boundary}\r\n"
        "Content-type: message/delivery-status\r\n"
        "\r\n"
        "Reporting-MTA: dns; mx.example.net\r\n"
        "\r\n"
        f"Action: {action}\r\n"
        f"Final-Recipient: rfc822;{rcpt}\r\n"
        f"Status: {status}\r\n"
        "Remote-MTA: dns; mx1.example.net\r\n"
        f"Diagnostic-Code: smtp; 452 4.2.2 <{rcpt}>: Mailbox full\r\n"
        "Will-Retry-Until: Sat, 30 Nov 2026 21:13:11 +0000\r\n"
        "\r\n"
        f"--{boundary}\r\n"
        "Content-type: text/rfc822-headers\r\n"
        "\r\n"
        f"Return-path: <{return_path}>\r\n"
        "From: Kriegsbrief <umpire@kriegsbrief.localhost>\r\n"
        f"To: {rcpt}\r\n"
        "Subject: [Kriegsbrief] Test game: turn 1 results\r\n"
        "\r\n"
        f"--{boundary}--\r\n"
    )
    return text.encode()


def return_path_of(seat) -> str:
    return health.return_path(health.AddressHealth.objects.get(seat=seat).token)


def test_mail_to_a_seat_leaves_with_the_seats_own_return_path(game, red, blue, sink):
    play_one(game)
    for seat in (red, blue):
        senders = sink.senders_to(seat.email)
        assert senders and senders[0].startswith("bounces+") and senders[0].endswith("@kriegsbrief.localhost")
        assert set(senders) == {return_path_of(seat)}
    assert return_path_of(red) != return_path_of(blue)
    report = sink.to(red.email)[-1]
    assert report["From"] == django_settings.DEFAULT_FROM_EMAIL  # the header stays ours
    assert health.AddressHealth.objects.get(seat=red).token not in report["Reply-To"]  # not the reply token


def test_a_postfix_hard_bounce_pauses_the_seat_tells_the_umpire_and_resumes_on_confirmation(
    monkeypatch, game, red, blue, umpire, sink
):
    play_one(game)
    [returned] = set(sink.senders_to(red.email))
    sink.clear()
    out = pipe(monkeypatch, postfix_dsn(returned, red.email), returned)
    row = InboundMessage.objects.get(envelope_to=returned)
    assert row.status == "ignored" and "delivery report" in row.error, out
    assert row.seat_id == red.pk and row.result["bounce"]["hard"] == 1
    # The umpire is told by mail ...
    told = sink.to(umpire.email)
    assert len(told) == 1 and "does not arrive" in told[0]["Subject"]
    assert red.email in plain(told[0]) and "5.1.1" in plain(told[0])
    # ... in the seat data (the API's) and on the umpire page; the player on the game page.
    data = health.summary(red)
    assert data["state"] == "failing" and data["paused"] and data["last_status"] == "5.1.1"
    assert health.summary(blue) is None
    umpire_page = render_to_string("web/_bounce_umpire.html", {"game": game})
    assert red.email in umpire_page and "5.1.1" in umpire_page and blue.email not in umpire_page
    assert "does not arrive" in render_to_string("web/_bounce_player.html", {"seat": red})
    assert render_to_string("web/_bounce_player.html", {"seat": blue}).strip() == ""
    # the API: the umpire sees every seat's, a player only their own seat's
    from tests.support.api import client_for

    umpire_view = client_for(umpire.user).get(f"/api/games/{game.pk}/mail-health/").json()
    by_side = {x["side"]: x["mail_health"] for x in umpire_view["seats"]}
    assert by_side["red"]["state"] == "failing" and by_side["blue"] is None
    assert client_for(blue.user).get(f"/api/games/{game.pk}/mail-health/").status_code == 403
    mine = [x for x in client_for(red.user).get("/api/seats/").json() if x["game"] == game.pk]
    assert mine[0]["mail_health"]["last_status"] == "5.1.1"
    # The next turn's report to the failing address is held back; the others go out.
    sink.clear()
    play_one(game)
    assert sink.to(blue.email) and not sink.to(red.email)
    parked = outbox.paused_rows(game)
    assert parked.filter(seat=red).exists() and not parked.exclude(seat=red).exists()
    assert outbox.requeue_due(timezone.now()) == 0 and not sink.to(red.email)  # still paused
    # The player confirms an address (the same one again): the held report is sent.
    token = verification.request_verification(red.user, red.email)
    mailaddress.confirm(token, red.user)
    sink.clear()
    outbox.requeue_due(timezone.now())
    assert [m["Subject"] for m in sink.to(red.email)] and not outbox.paused_rows(game).exists()
    assert "turn 2 results" in sink.to(red.email)[-1]["Subject"]
    assert health.summary(red)["state"] == "ok"
    assert render_to_string("web/_bounce_player.html", {"seat": red}).strip() == ""


def test_exim_soft_bounces_fail_an_address_on_the_third_within_seven_days(monkeypatch, game, red, umpire, sink):
    play_one(game)
    [returned] = set(sink.senders_to(red.email))
    sink.clear()
    with time_machine.travel(timezone.now() - timedelta(days=8)):
        pipe(monkeypatch, exim_dsn(returned, red.email, n=1), returned)  # too old to count by the third
    pipe(monkeypatch, exim_dsn(returned, red.email, n=2), returned)
    pipe(monkeypatch, exim_dsn(returned, red.email, n=3), returned)
    assert health.summary(red)["state"] == "soft_bounces" and not health.summary(red)["paused"]
    assert not sink.to(umpire.email)
    assert "temporary failures" in render_to_string("web/_bounce_umpire.html", {"game": game})
    pipe(monkeypatch, exim_dsn(returned, red.email, n=4), returned)
    data = health.summary(red)
    assert data["state"] == "failing" and data["soft_bounces_7d"] == 3 and data["last_status"] == "4.0.0"
    assert len(sink.to(umpire.email)) == 1  # told once
    pipe(monkeypatch, exim_dsn(returned, red.email, n=5), returned)
    assert len(sink.to(umpire.email)) == 1


def test_what_is_no_delivery_failure_counts_for_nothing(monkeypatch, game, red, umpire, sink):
    play_one(game)
    [returned] = set(sink.senders_to(red.email))
    sink.clear()
    # An out-of-office reply goes to the return path too (RFC 3834): recorded, not counted, not answered.
    auto = mail(to=returned, frm=f"Bob <{red.email}>", subject="Automatic reply: turn 1 results", body="I am away.")
    pipe(monkeypatch, auto, returned)
    # A success report (NOTIFY=SUCCESS, Action: delivered) neither.
    pipe(
        monkeypatch,
        postfix_dsn(returned, red.email, status="2.0.0", action="delivered", diagnostic="smtp; 250 ok"),
        returned,
    )
    # A report to a return path no seat has: recorded, nothing else.
    stranger = health.return_path("0" * 32)
    pipe(monkeypatch, postfix_dsn(stranger, red.email), stranger)
    assert set(InboundMessage.objects.values_list("status", flat=True)) == {"ignored"}
    assert health.AddressHealth.objects.get(seat=red).last_bounce_at is None and health.summary(red) is None
    assert not sink.messages and not OutboxMail.objects.filter(kind="mail-reply").exists()


def test_the_return_path_is_found_over_imap_too_and_a_large_report_is_still_read(game, red, umpire, sink, settings):
    from campaigns.mailin import ingest

    play_one(game)
    [returned] = set(sink.senders_to(red.email))
    # No envelope (the IMAP poller): the report's To names the return path.
    [row] = ingest.ingest_many([postfix_dsn(returned, red.email)], via="imap")
    assert row.status == "ignored" and row.seat_id == red.pk and health.summary(red)["paused"]
    # A report over MAIL_MAX_BYTES (the whole original attached) is read all the same.
    settings.MAIL_MAX_BYTES = 2000
    big = postfix_dsn(returned, red.email).replace(
        b"Auto-Submitted: auto-generated\r\n", b"X-Pad: " + b"x" * 3000 + b"\r\n"
    )
    row = ingest.ingest(big, via="pipe", envelope_to=returned)
    assert row.status == "ignored" and row.result["bounce"]["hard"] == 1
