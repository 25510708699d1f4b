"""Every delivery is a message of its own (issue 30, 1): one mail to the seat addresses of two
games is stored, read and answered once per game, whichever way it comes in, and each game
reads only the delivery addressed to it."""

import base64
import hashlib
import hmac
import io
import secrets
import sys
import time

import pytest
from django.core.management import call_command
from django.test import override_settings

from campaigns.mailin import ingest
from campaigns.mailin.models import InboundMessage
from campaigns.models import Event, OutboxMail
from campaigns.turns import addresses
from tests.support.games import red_opening
from tests.support.mail import mail

S = InboundMessage.Status


@pytest.fixture
def two_games(people, game):
    """bob plays red in two Civil War games: his mail may name both seat addresses."""
    from tests.conftest import new_civilwar_game

    other = new_civilwar_game(people)
    return game, other


def to_both(a, b, **kw) -> bytes:
    """One message from bob to the red seat of game ``a`` and, in Cc, of game ``b``."""
    red_a, red_b = a.seats.get(side="red"), b.seats.get(side="red")
    assert red_a.email == red_b.email
    return mail(
        to=addresses.reply_address(red_a),
        frm=f"Bob <{red_a.email}>",
        body="pass",  # good in both games (their setups differ: red's opening in one may be refused in the other)
        headers={"Cc": addresses.reply_address(red_b)},
        **kw,
    )


def submitted(game) -> list[Event]:
    return list(Event.objects.filter(game=game, type="orders.submitted"))


def acks(game) -> list[OutboxMail]:
    return list(OutboxMail.objects.filter(game=game, kind="mail-reply", seat__side="red"))


def run_ingest(monkeypatch, raw: bytes, recipient: str) -> str:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    out = io.StringIO()
    call_command("ingest_mail", "--recipient", recipient, stdout=out)
    return out.getvalue()


def test_the_same_message_piped_to_two_seat_addresses_reaches_both_games(monkeypatch, two_games):
    a, b = two_games
    raw = to_both(a, b)
    rcpt_a = addresses.reply_address(a.seats.get(side="red"))
    rcpt_b = addresses.reply_address(b.seats.get(side="red"))
    assert "applied" in run_ingest(monkeypatch, raw, rcpt_a)
    # game A's delivery is read by game A alone, though B's address is in Cc
    assert len(submitted(a)) == 1 and submitted(b) == [] and len(acks(a)) == 1 and acks(b) == []
    assert "applied" in run_ingest(monkeypatch, raw, rcpt_b)
    assert len(submitted(a)) == 1 and len(submitted(b)) == 1
    assert len(acks(a)) == 1 and len(acks(b)) == 1  # one acknowledgement per game
    assert "Test game" in acks(b)[0].body
    rows = InboundMessage.objects.order_by("pk")
    assert [r.envelope_to for r in rows] == [rcpt_a, rcpt_b] and {r.status for r in rows} == {S.APPLIED}
    # a redelivery to either address is still the one message
    assert "applied" in run_ingest(monkeypatch, raw, rcpt_b.upper().replace("ORDERS", "orders"))
    assert InboundMessage.objects.count() == 2 and len(submitted(b)) == 1


def test_an_imap_copy_for_two_seat_addresses_is_one_delivery_per_game(two_games):
    a, b = two_games
    raw = to_both(a, b)
    rows = ingest.ingest_many([raw], via="imap")
    assert len(rows) == 2 and {r.status for r in rows} == {S.APPLIED}
    assert {r.seat.game_id for r in rows} == {a.pk, b.pk}
    assert len(submitted(a)) == 1 and len(submitted(b)) == 1
    assert len(acks(a)) == 1 and len(acks(b)) == 1
    # fetched again (a crash before \Seen): both deliveries are known
    assert [created for _, created in ingest.store_many([raw], via="imap")] == [False, False]


def test_orders_and_dot_spellings_of_one_seat_address_are_one_delivery(game):
    red = game.seats.get(side="red")
    plus = addresses.reply_address(red)
    dot = plus.replace("+", ".", 1)
    raw = mail(to=plus, frm=red.email, body=red_opening(game), headers={"Cc": dot})
    assert len(ingest.ingest_many([raw], via="imap")) == 1
    assert len(submitted(game)) == 1


KEY, AUTH = "key-test-signing", "mailgun:hook-password"


@override_settings(ANYMAIL={"MAILGUN_WEBHOOK_SIGNING_KEY": KEY, "WEBHOOK_SECRET": AUTH})
def test_a_webhook_post_for_two_seat_addresses_reaches_both_games(client, two_games):
    a, b = two_games
    raw = to_both(a, b)
    timestamp, token = str(int(time.time())), secrets.token_hex(25)
    data = {
        "body-mime": raw.decode("utf-8"),
        "timestamp": timestamp,
        "token": token,
        "signature": hmac.new(KEY.encode(), f"{timestamp}{token}".encode(), hashlib.sha256).hexdigest(),
        "recipient": addresses.reply_address(a.seats.get(side="red")),
        "sender": "bob@example.org",
    }
    auth = "Basic " + base64.b64encode(AUTH.encode()).decode()
    assert client.post("/mail/inbound/mailgun/mime", data, HTTP_AUTHORIZATION=auth).status_code == 200
    assert InboundMessage.objects.filter(via="webhook").count() == 2
    assert len(submitted(a)) == 1 and len(submitted(b)) == 1
    assert len(acks(a)) == 1 and len(acks(b)) == 1
