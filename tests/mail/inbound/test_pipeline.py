"""The ingestion function end to end on real MIME: store, check, apply, acknowledge."""

from campaigns.mailin import ingest
from campaigns.mailin.models import InboundMessage
from campaigns.models import Event
from tests.support.games import orders_of, red_opening
from tests.support.mail import last_reply, replies_to, seat_mail

S = InboundMessage.Status


def test_orders_by_mail_are_submitted_and_acknowledged(game, red):
    order = red_opening(game)
    row = ingest.ingest(seat_mail(red, f"{order}\n"), via="test")
    assert row.status == S.APPLIED, row.error
    assert orders_of(game, "red")["text"] == order
    assert orders_of(game, "red")["source"] == "mail"
    ack = last_reply(red.email)
    assert "ORDERS ACCEPTED" in ack.body and order in ack.body
    assert ack.subject == "Re: turn report"


def test_redelivery_changes_nothing(game, red):
    raw = seat_mail(red, red_opening(game))
    first = ingest.ingest(raw, via="test")
    head = Event.objects.filter(game=game).count()
    again = ingest.ingest(raw, via="imap")
    assert again.pk == first.pk
    assert Event.objects.filter(game=game).count() == head
    assert len(replies_to(red.email)) == 1
    assert InboundMessage.objects.count() == 1


def test_bad_line_is_reported_and_nothing_changes(game, red):
    row = ingest.ingest(seat_mail(red, "form C999\n"), via="test")
    assert row.status == S.APPLIED
    assert orders_of(game, "red") is None
    body = last_reply(red.email).body
    assert "NOT ACCEPTED" in body and "ERROR" in body and "C999" in body


def test_a_failure_after_storing_loses_nothing_and_is_retried(game, red, monkeypatch):
    from campaigns.mailin import apply

    def broken(*args, **kwargs):
        raise RuntimeError("worker lost its database connection")

    monkeypatch.setattr(apply, "carry_out", broken)
    row = ingest.ingest(seat_mail(red, red_opening(game)), via="test")
    assert row.status == S.FAILED and "RuntimeError" in row.error
    assert orders_of(game, "red") is None and not replies_to(red.email)  # nothing half-done
    monkeypatch.undo()
    from django.utils import timezone

    assert ingest.retry_pending(timezone.now()) == 1
    row.refresh_from_db()
    assert row.status == S.APPLIED and row.attempts == 2
    assert orders_of(game, "red")["text"] == red_opening(game)
    assert len(replies_to(red.email)) == 1


def test_message_stored_but_never_processed_is_picked_up(game, red):
    from datetime import timedelta

    from django.utils import timezone

    row, created = ingest.store(seat_mail(red, red_opening(game)), via="test")
    assert created and row.status == S.RECEIVED
    assert ingest.retry_pending(timezone.now()) == 0  # too fresh: its own process may still be running
    assert ingest.retry_pending(timezone.now() + timedelta(minutes=2)) == 1
    row.refresh_from_db()
    assert row.status == S.APPLIED


def test_a_forwarded_message_attachment_is_never_read(game, red):
    from email.message import EmailMessage

    from campaigns.turns import addresses

    inner = EmailMessage()
    inner["From"], inner["Subject"] = "someone@example.net", "their orders"
    inner.set_content(f"{red_opening(game)}\n")
    outer = EmailMessage()
    outer["From"], outer["To"], outer["Subject"] = red.email, addresses.reply_address(red), "fwd"
    outer["Message-ID"] = "<fwd-1@example.org>"
    outer.set_content("STATUS\n")
    outer.add_attachment(inner)
    row = ingest.ingest(outer.as_bytes(), via="test")
    assert row.status == S.APPLIED and orders_of(game, "red") is None
    body = last_reply(red.email).body
    assert "forwarded message" in body and "STATUS of" in body


def test_an_empty_plain_part_beside_html_reads_the_html(game, red):
    raw = seat_mail(red, " ", html=f"<div>{red_opening(game)}</div>")
    assert ingest.ingest(raw, via="test").status == S.APPLIED
    assert orders_of(game, "red")["text"] == red_opening(game)
