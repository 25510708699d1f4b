"""Issue 30, point 7 (the small items): an Outlook client-rule auto-reply is not answered with
"ORDERS NOT ACCEPTED"; a forwarded message is said to be skipped; "ACKNOWLEDGEMENTS PAUSED" and
STATUS's side names in the reader's language."""

from __future__ import annotations

from email.message import EmailMessage
from email.policy import SMTP
from email.utils import formatdate, make_msgid

import pytest
from django.test import override_settings
from django.utils import translation

from campaigns.mailin import ingest
from campaigns.mailin.models import InboundMessage
from campaigns.models import OutboxMail, Profile
from campaigns.turns import addresses
from tests.support.mail import replies_to, seat_mail

pytestmark = pytest.mark.django_db


def outlook_rule_reply(seat, subject: str, text: str) -> bytes:
    """What an Outlook client rule ("reply using a specific template") sends: a plain message from
    the player's address, no Auto-Submitted, no Precedence, no list headers; Exchange's own headers."""
    msg = EmailMessage()
    msg["From"] = f"Bob Smith <{seat.email}>"
    msg["To"] = addresses.reply_address(seat)
    msg["Subject"] = subject
    msg["Date"] = formatdate()
    msg["Message-ID"] = make_msgid(domain="EX01.corp.example.org")
    msg["Thread-Topic"] = subject.split(":", 1)[1].strip()
    msg["Thread-Index"] = "AQHbQk5oYxM1u3mFbEy0Pq0r9Qe5Dg=="
    msg["Content-Language"] = "ru-RU" if "Автомат" in subject else "en-US"
    msg["X-MS-Has-Attach"] = ""
    msg["X-MS-TNEF-Correlator"] = ""
    msg.set_content(text)
    return msg.as_bytes(policy=SMTP)


@pytest.mark.parametrize(
    ("subject", "text"),
    [
        (
            "Automatic reply: [Kriegsbrief] Test game: turn 1 results",
            "Thank you for your message. I am out of the office until 5 December.\r\n"
            "Pass anything urgent to my deputy, Jane Doe.\r\n",
        ),
        (
            "Автоматический ответ: [Kriegsbrief] Test game: turn 1 results",
            "Спасибо за письмо. Я в отпуске до 5 декабря.\r\nПропуск в офис оформляет секретарь.\r\n",
        ),
    ],
)
def test_an_outlook_rule_auto_reply_gets_no_orders_not_accepted(game, red, subject, text):
    row = ingest.ingest(outlook_rule_reply(red, subject, text), via="test")
    assert row.status in (InboundMessage.Status.APPLIED, InboundMessage.Status.IGNORED)
    assert not replies_to(red.email), [r.body for r in replies_to(red.email)]
    assert not OutboxMail.objects.filter(body__contains="ORDERS NOT ACCEPTED").exists()


def test_a_person_with_refused_orders_is_still_told(game, red):
    ingest.ingest(seat_mail(red, "pass anything urgent to my deputy"), via="test")
    assert "ORDERS NOT ACCEPTED" in replies_to(red.email)[-1].body


def test_a_forwarded_message_is_said_to_be_skipped(game, red):
    body = (
        "\r\n"
        "---------- Forwarded message ---------\r\n"
        "From: Carol <carol@example.org>\r\n"
        "Date: Fri, 28 Nov 2026 at 10:02\r\n"
        "Subject: my orders\r\n"
        "To: Bob <bob@example.org>\r\n"
        "\r\n"
        "pass\r\n"
    )
    row = ingest.ingest(seat_mail(red, body, subject="Fwd: my orders"), via="test")
    assert row.status == InboundMessage.Status.APPLIED
    reply = replies_to(red.email)[-1].body
    assert "forwarded message below it was skipped" in reply


def test_a_forwarded_message_below_orders_is_mentioned_too(game, red):
    body = "STATUS\r\n\r\n---------- Forwarded message ---------\r\nFrom: Carol <carol@example.org>\r\n\r\npass\r\n"
    ingest.ingest(seat_mail(red, body, subject="Fwd: my orders"), via="test")
    reply = replies_to(red.email)[-1].body
    assert "STATUS of" in reply and "forwarded message below your text was skipped" in reply


@override_settings(MAIL_ACKS_PER_THREAD_HOUR=1)
def test_acknowledgements_paused_is_written_in_the_readers_language(game, red, monkeypatch):
    from campaigns.mailin import replies

    Profile.objects.filter(user=red.user).update(language="ru")
    seen = []
    real = replies.ngettext

    def recording(singular, plural, n):
        seen.append((singular.split(":")[0], translation.get_language()))
        return real(singular, plural, n)

    monkeypatch.setattr(replies, "ngettext", recording)
    ingest.ingest(seat_mail(red, "STATUS"), via="test")
    ingest.ingest(seat_mail(red, "STATUS"), via="test")
    acks = replies_to(red.email)
    assert len(acks) == 2 and "ACKNOWLEDGEMENTS PAUSED" not in acks[0].body
    assert seen == [("ACKNOWLEDGEMENTS PAUSED", "ru")]  # marked, and rendered in the seat's language


def test_status_names_the_sides_in_russian(game, red):
    Profile.objects.filter(user=red.user).update(language="ru")
    ingest.ingest(seat_mail(red, "СТАТУС"), via="test")
    body = replies_to(red.email)[-1].body
    line = next(line for line in body.splitlines() if "отдают приказы" in line)
    assert "красные" in line and "red" not in line
