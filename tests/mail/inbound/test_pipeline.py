"""The ingestion function end to end on real MIME: store, check, apply, acknowledge."""
import pytest

from campaigns import eventstore
from campaigns.mailin import addresses, ingest
from campaigns.mailin.models import InboundMessage

from .helpers import last_reply, mail, replies_to, seat_mail

S = InboundMessage.Status


@pytest.fixture
def red(game):
    return game.seats.get(side="red")


def orders_of(game, side):
    return eventstore.load(game.pk).state["turn"]["orders"].get(side)


def first_legal(game):
    """A legal opening for red: form a unit in a city sympathetic to red."""
    state = eventstore.load(game.pk).state
    tokens = state["rules"]["tokens"]
    city = sorted((c for c, face in tokens.items() if face == "red"), key=lambda c: int(c[1:]))[0]
    return f"form {city}"


def test_orders_by_mail_are_submitted_and_acknowledged(game, red):
    order = first_legal(game)
    row = ingest.ingest(seat_mail(red, f"{order}\n"), via="test")
    assert row.status == S.APPLIED, row.error
    assert orders_of(game, "red")["text"] == order
    assert orders_of(game, "red")["source"] == "mail"
    ack = last_reply(red.email)
    assert "ORDERS ACCEPTED" in ack.body and order in ack.body
    assert ack.subject == "Re: turn report"


def test_redelivery_changes_nothing(game, red):
    raw = seat_mail(red, first_legal(game))
    first = ingest.ingest(raw, via="test")
    head = type(game).objects.get(pk=game.pk).head_seq
    again = ingest.ingest(raw, via="imap")
    assert again.pk == first.pk
    assert type(game).objects.get(pk=game.pk).head_seq == head
    assert len(replies_to(red.email)) == 1
    assert InboundMessage.objects.count() == 1


def test_bad_line_is_reported_and_nothing_changes(game, red):
    row = ingest.ingest(seat_mail(red, "form C999\n"), via="test")
    assert row.status == S.APPLIED
    assert orders_of(game, "red") is None
    body = last_reply(red.email).body
    assert "NOT ACCEPTED" in body and "ERROR" in body and "C999" in body
