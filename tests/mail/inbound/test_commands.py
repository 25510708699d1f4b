"""Mail commands beside orders: replace, READY, WAIT, STATUS, RESEND, HELP,
ABSENT UNTIL, MESSAGE; and the command reader itself."""

from datetime import timedelta

import pytest
from django.utils import timezone

from campaigns.mailin import commands, ingest
from campaigns.mailin.models import Absence
from campaigns.mailout.outbox import queue_mail
from campaigns.models import OutboxMail
from campaigns.turns import commands as turn_commands
from campaigns.turns import gamelog
from rules.civilwar.orders import ORDER_WORDS
from tests.support.games import orders_of, red_opening
from tests.support.mail import last_reply, seat_mail


def send(seat, body, **kw):
    row = ingest.ingest(seat_mail(seat, body, **kw), via="test")
    assert row.status == "applied", row.error
    return last_reply(seat.email).body


def ready_sides(game):
    return set(gamelog.load(game.pk).state.turn.ready)


@pytest.mark.parametrize(
    "text, orders, cmds, errors",
    [
        ("form C5\nREADY", "form C5", ["READY"], 0),
        ("wait\nstatus\nhelp\nresend", "", ["WAIT", "STATUS", "HELP", "RESEND"], 0),
        ("ABSENT UNTIL 2026-12-24", "", ["ABSENT"], 0),
        ("ABSENT UNTIL christmas", "", [], 1),
        ("ABSENT UNTIL 2026-02-30", "", [], 1),
        ("READY now please", "", [], 1),
        ("Ready.\nstatus!", "", ["READY", "STATUS"], 0),
        ("Hello\nORDERS\npass\nEND\nREADY\nBye", "pass", ["READY"], 0),
    ],
)
def test_command_reader(text, orders, cmds, errors):
    req = commands.parse(text, order_words=ORDER_WORDS)
    assert req.orders == orders
    assert [c for c, _ in req.commands] == cmds
    assert len(req.errors) == errors


def test_message_takes_the_lines_up_to_end():
    req = commands.parse("MESSAGE blue\nWe should talk.\nSoon.\nEND\nform C5", order_words=ORDER_WORDS)
    assert req.messages == [("blue", "We should talk.\nSoon.")]
    assert req.orders == "form C5"


def test_orders_can_be_replaced_until_the_turn_closes(game, red):
    send(red, "pass\nWAIT")
    assert orders_of(game, "red")["text"] == "pass"
    body = send(red, f"REPLACE\n{red_opening(game)}\nWAIT")
    assert "ORDERS ACCEPTED" in body
    assert orders_of(game, "red")["text"] == red_opening(game)


def test_wait_then_ready(game, red):
    send(red, f"{red_opening(game)}\nWAIT")
    assert "red" not in ready_sides(game)
    body = send(red, "READY")
    assert "READY" in body
    state = gamelog.load(game.pk).state
    # red was the only side to order: ready closes the turn at once.
    assert state.turn.number > 1 or state.turn.status != "open"


def test_ready_without_orders_says_why(game, red):
    body = send(red, "READY")
    assert "send your orders before marking your side ready" in body


def test_status_shows_own_orders_only(game, red, blue):
    send(red, f"{red_opening(game)}\nWAIT")
    body = send(red, "STATUS")
    assert "turn 1" in body and red_opening(game) in body and "deadline" in body
    blue_body = send(blue, "STATUS")
    assert red_opening(game) not in blue_body


def test_resend_sends_the_latest_report_again(game, red):
    assert "no report for you yet" in send(red, "RESEND")
    queue_mail(
        key="report-x",
        to=red.email,
        subject="[Kriegsbrief] Test game: turn 1 results",
        body="the report",
        game=game,
        seat=red,
        kind="report",
    )
    body = send(red, "RESEND")
    assert "on its way again" in body
    again = OutboxMail.objects.get(kind="resend")
    assert again.body == "the report" and again.to == red.email


def test_help_lists_commands_and_the_order_language(game, red):
    body = send(red, "HELP")
    assert "ABSENT UNTIL" in body and "ORDER LANGUAGE" in body


def test_absence_is_recorded_and_the_umpire_told(game, red, umpire):
    until = (timezone.now() + timedelta(days=5)).date().isoformat()
    body = send(red, f"ABSENT UNTIL {until}")
    assert "recorded" in body and "no reminders until then" in body
    assert Absence.objects.get(seat=red).until.isoformat() == until
    assert OutboxMail.objects.filter(to=umpire.email, kind="mail-forward").exists()
    too_far = (timezone.now() + timedelta(days=90)).date().isoformat()
    assert "at most 30 days" in send(red, f"ABSENT UNTIL {too_far}")
    assert "not in the future" in send(red, "ABSENT UNTIL 2020-01-01")


def test_message_to_umpire_is_delivered(game, red, umpire):
    body = send(red, "MESSAGE umpire\nMay I have an extension?\nEND")
    assert "MESSAGE to umpire: sent" in body
    fwd = OutboxMail.objects.get(to=umpire.email, kind="mail-forward")
    assert "May I have an extension?" in fwd.body and "red writes" in fwd.body


def test_message_to_another_side_only_where_the_game_allows(people, game, red, blue):
    body = send(red, "MESSAGE blue\nTruce?\nEND")
    assert "does not allow messages" in body
    assert not OutboxMail.objects.filter(to=blue.email, kind="mail-forward").exists()
    from tests.conftest import new_civilwar_game

    open_game = new_civilwar_game(people, press="all")
    o_red, o_blue = open_game.seats.get(side="red"), open_game.seats.get(side="blue")
    assert "sent" in send(o_red, "MESSAGE blue\nTruce?\nEND")
    assert OutboxMail.objects.filter(to=o_blue.email, kind="mail-forward", game=open_game).exists()


def test_message_to_unknown_seat(game, red):
    assert "no such seat" in send(red, "MESSAGE green\nhello\nEND")


def test_umpire_gives_no_orders_by_mail(game, umpire):
    assert "gives no orders" in send(umpire, "pass")


def test_orders_after_the_turn_closed_are_refused_with_the_reason(game, red):
    turn_commands.close_turn(game.pk, "umpire")
    body = send(red, "pass")
    assert "not accepted" in body.lower()


def test_empty_message_gets_help(game, red):
    body = send(red, "\n\n> quoted only\n")
    assert "No orders and no commands" in body and "READY" in body


def test_two_messages_in_one_mail_are_both_sent(game, red, umpire):
    body = send(red, "MESSAGE umpire\none\nEND\nMESSAGE umpire\ntwo\nEND")
    assert body.count("MESSAGE to umpire: sent") == 2
    assert OutboxMail.objects.filter(to=umpire.email, kind="mail-forward").count() == 2
