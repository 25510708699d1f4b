"""A whole Kings of War game played only by mail through the real inbound path: each player answers
their latest report (a greeting, the orders, a sign-off, the report quoted below), the mail reader
tells the orders ("<unit> <verb> ...", RuleSet.order_words) from the prose, each alternating player
turn is adjudicated in-process, and each side's mailed reports are checked."""

import pytest

from campaigns.mailin import ingest
from campaigns.mailin.models import InboundMessage
from campaigns.mailout import composing
from campaigns.models import Event, OutboxMail
from campaigns.turns import gamelog
from campaigns.turns.gamelog import verify_game
from rules.kingsofwar.testing import bot_orders
from tests.support.games import new_game_with_people
from tests.support.mail import last_reply, seat_mail

pytestmark = pytest.mark.django_db(transaction=True)


def reports(email: str) -> list[OutboxMail]:
    return list(OutboxMail.objects.filter(to=email, kind="report").order_by("pk"))


def letter(orders: str, report: OutboxMail | None) -> str:
    quoted = (
        ""
        if report is None
        else "\n\nOn a day, Kriegsbrief wrote:\n" + "\n".join("> " + line for line in report.body.splitlines())
    )
    return f"Hello umpire,\n\nmy orders:\n{orders}\n\nCheers,\nthe general{quoted}\n"


def test_a_whole_kingsofwar_game_only_by_mail(people):
    game = new_game_with_people(people, "kingsofwar", "objectives", "Kings of War by mail")
    seats = {s.side: s for s in game.seats.filter(role="player")}
    sent = {}
    for _ in range(30):
        state = gamelog.load(game.pk).state
        if state.status == "finished":
            break
        number, [side] = state.turn.number, state.turn.sides  # alternating: one side a turn
        seat = seats[side]
        orders = bot_orders(state.rules, side)
        mine = reports(seat.email)
        row = ingest.ingest(
            seat_mail(seat, letter(orders, mine[-1] if mine else None), subject=f"Re: turn {number - 1} results"),
            via="test",
        )
        assert row.status == InboundMessage.Status.APPLIED, row.error
        ack = last_reply(seat.email).body
        assert "ORDERS ACCEPTED" in ack and "Hello umpire," in ack and "the general" in ack  # prose: not read
        assert (
            gamelog.load(game.pk).state.turn.number == number + 1 or gamelog.load(game.pk).state.status == "finished"
        ), f"turn {number} was not adjudicated"
        sent[number] = (side, orders)
    state = gamelog.load(game.pk).state
    assert state.status == "finished" and len(sent) == 12, "six rounds of two player turns"
    submitted = Event.objects.filter(game=game, type="orders.submitted").order_by("seq")
    assert [(e.payload["source"], e.payload["text"]) for e in submitted] == [("mail", o) for _, o in sent.values()]
    for side, seat in seats.items():
        mailed = reports(seat.email)
        assert len(mailed) == 12  # a report after every player turn, the opponent's too
        for number, report in enumerate(mailed, 1):
            mover, orders = sent[number]
            if mover == side:  # its own orders as executed; the opponent's orders are never shown
                executed = report.body[report.body.index("Orders as executed:") :]
                assert f"[{side}]" in executed and f"    {orders.splitlines()[0]}\n" in executed, (side, number)
            else:
                assert "Orders as executed:" not in report.body, (side, number)
            assert f"{mover}'s turn ends" in report.body, (side, number)  # what happened, seen by both
            assert "kow-map" in report.svg and f"turn {number} results" in report.subject
        assert "The game is over:" in mailed[-1].body
        message = composing.build_message(mailed[-1])  # as it is sent: the map as a PNG, once, in the HTML
        assert message.attachments == [] and message.inline_map[0] == "map.png"
        assert message.inline_map[1][:4] == b"\x89PNG"
        assert OutboxMail.objects.filter(to=seat.email, kind="gameover").count() == 1
    first_blue = reports(seats["blue"].email)[0].body
    assert "red's turn ends; blue to move (round 1)" in first_blue
    assert "To give orders, reply to this message" in first_blue  # blue moves next
    assert "To give orders" not in reports(seats["red"].email)[0].body
    report = verify_game(game)
    assert report.ok, report


def test_orders_mailed_out_of_turn_or_wrong_are_refused_with_the_reason(people):
    game = new_game_with_people(people, "kingsofwar", "pitched", "Kings of War by mail")
    seats = {s.side: s for s in game.seats.filter(role="player")}
    row = ingest.ingest(seat_mail(seats["blue"], "b1 halt\nb2 advance 3"), via="test")
    assert row.status == InboundMessage.Status.APPLIED
    assert "orders not accepted: blue has no orders to give in turn 1" in last_reply(seats["blue"].email).body
    row = ingest.ingest(
        seat_mail(seats["red"], "Hi,\nr1 halt\nr2 advance 3 pivot left 200\nr3 charge b9\nBob"), via="test"
    )
    reply = last_reply(seats["red"].email).body
    assert "ORDERS NOT ACCEPTED" in reply and "    Hi,\n    Bob" in reply
    assert "ERROR: a pivot is at most 90 degrees" in reply and "ERROR: no enemy unit 'b9'" in reply
    state = gamelog.load(game.pk).state
    assert state.turn.number == 1 and state.turn.orders == {}  # nothing taken, the turn still open
