"""A whole Civil War game played only by mail, over real protocols.

Players send orders with smtplib to a real SMTP server on loopback (aiosmtpd)
that hands each message to the ingestion function; a real Celery worker on
Redis adjudicates each turn and sends the reports and acknowledgements over
SMTP to a sink (aiosmtpd). After turn 1 each player answers the Reply-To of
the latest report they received, quoting it below, as a mail client would.
"""

import asyncio
import smtplib
import socket
from email.message import EmailMessage
from email.utils import make_msgid

import pytest
from aiosmtpd.controller import Controller
from django.db import connection

from campaigns.mailin import ingest
from campaigns.mailin.models import InboundMessage
from campaigns.models import Campaign, Event
from campaigns.turns import addresses, creation, gamelog
from rules.civilwar import RULESET as CW
from rules.civilwar.testing import star_map
from tests.services import needs_redis
from tests.support.workers import wait_for

pytestmark = [needs_redis, pytest.mark.django_db(transaction=True)]


class Inbound:
    """Our MX: every message received is handed to the ingestion function."""

    def __init__(self):
        self.results = []

    async def handle_DATA(self, server, session, envelope):
        loop = asyncio.get_running_loop()
        row = await loop.run_in_executor(None, self._ingest, envelope.content, envelope.rcpt_tos[0])
        self.results.append(row.status)
        return "250 OK"

    @staticmethod
    def _ingest(raw, rcpt):
        try:
            return ingest.ingest(raw, via="smtp", envelope_to=rcpt)
        finally:
            connection.close()  # this executor thread's own connection


@pytest.fixture
def mx():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    handler = Inbound()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    handler.port = port
    yield handler
    controller.stop()


def choose(state, side, number) -> str:
    """The player's decision: a few real operations, then passes (six in a row draw the game)."""
    kind = state.turn.kind
    if kind == "decision":
        return "fight"
    ops = CW.legal_operations(state.rules, side) if number <= 4 else []
    return ops[0] if ops else "pass"


def send_orders(mx, seat, text, report):
    msg = EmailMessage()
    msg["From"] = f"Player <{seat.email}>"
    msg["Message-ID"] = make_msgid(domain="player.example")
    if report is None:  # turn 1: the address from the game's invitation
        msg["To"], msg["Subject"], quoted = addresses.reply_address(seat), "orders", ""
    else:
        msg["To"], msg["Subject"] = report["Reply-To"], f"Re: {report['Subject']}"
        msg["In-Reply-To"] = report["Message-ID"]
        body = report.get_body(preferencelist=("plain",)).get_content()
        quoted = "\n\nOn a day, Kriegsbrief wrote:\n" + "\n".join("> " + line for line in body.splitlines())
    msg.set_content(f"{text}\n\n-- \nsent from a test{quoted}\n")
    with smtplib.SMTP("127.0.0.1", mx.port, timeout=60) as client:
        client.send_message(msg)


def latest_report(sink, email):
    reports = [m for m in sink.to(email) if "results" in str(m["Subject"])]
    return reports[-1] if reports else None


def wait_until(predicate):
    return wait_for(predicate, timeout=90.0)


def test_a_whole_civilwar_game_only_by_mail(people, smtp, mail_worker, mx):
    game = creation.create_game(
        campaign=Campaign.objects.create(name="By mail"),
        name="Mail game",
        ruleset="civilwar",
        scenario=star_map(),
        seats=[
            {"role": "umpire", "user": people["alice"], "email": "alice@example.org"},
            {"role": "player", "side": "red", "user": people["bob"], "email": "bob@example.org"},
            {"role": "player", "side": "blue", "user": people["carol"], "email": "carol@example.org"},
        ],
        operator=True,
    )
    seats = {s.side: s for s in game.seats.filter(role="player")}
    sent = 0
    for _ in range(30):
        state = gamelog.load(game.pk).state
        if state.status == "finished":
            break
        number = state.turn.number
        for side in state.turn.sides:
            seat = seats[side]
            send_orders(mx, seat, choose(state, side, number), latest_report(smtp, seat.email))
            sent += 1
        # wait_until calls the lambda within this iteration, so it sees this turn's number.
        assert wait_until(
            lambda: (
                gamelog.load(game.pk).state.turn.number > number  # noqa: B023
                or gamelog.load(game.pk).state.status == "finished"
            )
        ), f"turn {number} never published"
    state = gamelog.load(game.pk).state
    assert state.status == "finished", "the game did not end within 30 turns"
    assert "draw" in state.result["reason"]
    # Every order came by mail, each message applied and acknowledged over SMTP.
    submitted = Event.objects.filter(game=game, type="orders.submitted")
    assert submitted.count() == sent >= 10 and {e.payload["source"] for e in submitted} == {"mail"}
    assert all("\n" not in e.payload["text"] for e in submitted)  # quoted reports and signatures never read
    assert set(mx.results) == {InboundMessage.Status.APPLIED}
    assert wait_until(
        lambda: sum("ORDERS ACCEPTED" in m.get_body(("plain",)).get_content() for _, m in smtp.messages) == sent
    )
    # The end of the game reached every seat by mail.
    for email in ("alice@example.org", "bob@example.org", "carol@example.org"):
        assert wait_until(lambda: any("over" in str(m["Subject"]).lower() for m in smtp.to(email))), email  # noqa: B023
