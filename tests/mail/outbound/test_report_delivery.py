"""Each published turn mails every seat its own report over real SMTP (aiosmtpd)."""

from datetime import timedelta

import pytest
import time_machine

from campaigns.i18n import render
from campaigns.mailout.outbox import thread_root
from campaigns.turns import commands
from rules import catalog
from tests.support.games import play_one, state_of

pytestmark = pytest.mark.django_db(transaction=True)


def by_recipient(sink):
    return {rcpt[0]: msg for rcpt, msg in sink.messages}


def plain_text(msg) -> str:
    return "".join(p.get_content() for p in msg.walk() if p.get_content_type() == "text/plain")


def test_every_seat_gets_its_own_threaded_report_with_a_map(game, smtp):
    play_one(game)
    mails = by_recipient(smtp)
    assert set(mails) == {"alice@example.org", "bob@example.org", "carol@example.org"}
    for address, msg in mails.items():
        assert msg["Auto-Submitted"] == "auto-generated"
        assert msg["In-Reply-To"] == thread_root(game, game.seats.get(email=address))
        assert "turn 1 results" in msg["Subject"]
        parts = {p.get_content_type() for p in msg.walk()}
        assert {"text/plain"} <= parts and parts & {"image/png", "image/svg+xml"}
    assert "You are: red" in mails["bob@example.org"].get_body(("plain",)).get_content()
    assert "New_York" in mails["bob@example.org"].get_body(("plain",)).get_content()


def test_a_report_never_carries_the_other_sides_secrets(game, smtp):
    from rules.civilwar import legal_operations

    op = legal_operations(state_of(game).rules, "red")[0]
    secret = "# SECRET-MARKER-RED"
    commands.submit_orders(game.pk, "red", f"{op}\nif attacked fight\n{secret}", source="web")
    mails = by_recipient(smtp)
    red_text = plain_text(mails["bob@example.org"])
    assert secret in red_text  # red sees its own orders as executed
    # Without the order language every report carries (its examples are standing orders).
    help_text = render(catalog.get("civilwar").orders_help)
    blue_text = plain_text(mails["carol@example.org"]).replace("\r\n", "\n").replace(help_text, "")
    assert help_text not in blue_text and secret not in blue_text and "if attacked" not in blue_text.lower()
    assert "fight" not in blue_text.lower()


def test_a_failed_send_stays_in_the_outbox_and_is_retried(game, settings):
    from campaigns.mailout.outbox import send
    from campaigns.models import OutboxMail

    settings.EMAIL_BACKEND = "campaigns.mailout.smtp_backend.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", 9  # nothing listens: connection refused
    play_one(game)  # the turn is published even though no mail can leave
    assert state_of(game).turn.number == 2
    row = OutboxMail.objects.filter(game=game, kind="report").order_by("pk").first()
    assert row.status == "failed" and row.attempts >= 1 and "ConnectionRefused" in row.last_error
    attempts = row.attempts
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    with time_machine.travel(row.next_attempt_at - timedelta(seconds=1), tick=False):
        assert send(row.pk) is False  # not before its backoff ends
    with time_machine.travel(row.next_attempt_at, tick=False):
        assert send(row.pk) is True
    row.refresh_from_db()
    assert row.status == "sent" and row.attempts == attempts + 1
