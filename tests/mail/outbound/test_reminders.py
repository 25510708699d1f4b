"""Reminders at leads scaled to the turn length and waiting notices, driven through the
periodic sweep with an explicit clock, delivered to a real SMTP sink."""

import zoneinfo
from dataclasses import replace
from datetime import timedelta

import pytest
from django.utils.dateparse import parse_datetime

from campaigns.mailout import reminders
from campaigns.models import OutboxMail
from campaigns.turns import commands, creation, deadlines
from tests.support.games import state_of
from tests.support.mail import plain

pytestmark = pytest.mark.django_db(transaction=True)


def test_leads_are_a_third_and_a_thirty_sixth_of_the_turn():
    assert reminders.leads(timedelta(days=3)) == [timedelta(hours=24), timedelta(hours=2)]
    assert reminders.leads(timedelta(hours=24)) == [timedelta(hours=8), timedelta(minutes=40)]
    assert reminders.leads(timedelta(hours=1)) == [timedelta(minutes=20)]  # 100 s is too short to act on
    assert reminders.leads(timedelta(minutes=10)) == []


def clock(game):
    """(opened, deadline) of the open turn."""
    turn = state_of(game).turn
    return parse_datetime(turn.opened_at), parse_datetime(turn.deadline)


def reminders_to(smtp, address):
    return [m for m in smtp.to(address) if "due in" in m["Subject"]]


def test_each_lead_reminds_the_side_without_orders_exactly_once(game, smtp):
    opened, deadline = clock(game)  # turn 1: red to move, 72 h
    assert abs(deadline - opened - timedelta(hours=72)) < timedelta(seconds=1)
    deadlines.sweep(deadline - timedelta(hours=24, seconds=1))
    assert smtp.messages == []  # before the first lead
    for now in (deadline - timedelta(hours=23, minutes=59), deadline - timedelta(hours=12)):
        deadlines.sweep(now)
    [first] = reminders_to(smtp, "bob@example.org")
    assert first["Subject"] == "[Kriegsbrief] Test game: orders for turn 1 due in 23 h 59 min"
    body = plain(first)
    assert "We have no orders from red for turn 1 yet." in body
    local = deadline.astimezone(zoneinfo.ZoneInfo("America/New_York"))
    assert f"Deadline: {local:%Y-%m-%d %H:%M} {local.tzname()} (America/New_York)" in body
    for now in (deadline - timedelta(hours=1, minutes=59), deadline - timedelta(minutes=5)):
        deadlines.sweep(now)
    second = reminders_to(smtp, "bob@example.org")[1]
    assert second["Subject"].endswith("due in 1 h 59 min")
    assert len(reminders_to(smtp, "bob@example.org")) == 2
    assert {rcpt[0] for rcpt, _ in smtp.messages} == {"bob@example.org"}  # blue does not move, umpire has no orders
    assert first["References"] == second["References"] and first["Reply-To"] == second["Reply-To"]


def test_a_late_sweep_sends_only_the_nearer_reminder(game, smtp):
    _, deadline = clock(game)
    deadlines.sweep(deadline - timedelta(minutes=30))
    [only] = reminders_to(smtp, "bob@example.org")
    assert only["Subject"].endswith("orders for turn 1 due in 30 min")
    deadlines.sweep(deadline - timedelta(minutes=20))
    assert len(smtp.messages) == 1


def test_a_side_that_sent_orders_is_not_reminded(game, smtp):
    _, deadline = clock(game)
    assert commands.submit_orders(game.pk, "red", "pass", source="mail", ready=False).accepted
    deadlines.sweep(deadline - timedelta(hours=1))
    assert reminders_to(smtp, "bob@example.org") == []


def test_no_reminder_after_the_deadline_and_each_key_once(game, smtp):
    _, deadline = clock(game)
    deadlines.sweep(deadline - timedelta(hours=1))
    deadlines.sweep(deadline - timedelta(hours=1))
    assert OutboxMail.objects.filter(kind="reminder").count() == 1
    assert reminders.sweep(deadline) == {"reminders": 0, "waiting_notices": 0, "approval_notices": 0}


def test_the_side_everyone_waits_for_is_told_once(game, smtp):
    """Civil War moves one side at a time, so the two-sided turn is given as the fold would
    have it; the notice itself goes through the outbox and SMTP like any other."""
    turn = replace(state_of(game).turn, sides=["red", "blue"], ready={"red": "2026-01-01T00:00:00+00:00"})
    assert reminders.notify_waiting(game, turn) == 1
    assert reminders.notify_waiting(game, turn) == 0
    [notice] = smtp.to("carol@example.org")
    assert notice["Subject"] == "[Kriegsbrief] Test game: turn 1 waits for you"
    assert "Every other side is ready (red); the game waits for blue." in plain(notice)
    assert "Asia/Tokyo" in plain(notice)
    nobody_ready = replace(turn, ready={})
    assert reminders.notify_waiting(game, nobody_ready) == 0
    one_side = replace(turn, sides=["blue"], ready={})
    assert reminders.notify_waiting(game, one_side) == 0


def test_the_umpire_is_told_once_that_results_await_approval(approval_game, smtp):
    from tests.support.games import play_one

    play_one(approval_game)
    assert deadlines.sweep()["approval_notices"] == 1
    assert deadlines.sweep()["approval_notices"] == 0
    [notice] = smtp.messages
    assert notice[0] == ["alice@example.org"]
    assert notice[1]["Subject"] == "[Kriegsbrief] Test game: turn 1 results await your approval"
    assert f"/games/{approval_game.pk}/" in plain(notice[1])
    commands.approve(approval_game.pk, 1)
    assert deadlines.sweep()["approval_notices"] == 0


def test_in_a_simultaneous_game_the_sweep_tells_the_last_side_it_is_awaited(people, smtp):
    from campaigns.models import Campaign

    game = creation.create_game(
        campaign=Campaign.objects.create(name="c"),
        name="Little game",
        ruleset="littlewars",
        seats=[
            {"role": "umpire", "user": people["alice"], "email": "alice@example.org"},
            {"role": "player", "side": "red", "user": people["bob"], "email": "bob@example.org"},
            {"role": "player", "side": "blue", "user": people["carol"], "email": "carol@example.org"},
        ],
        operator=True,
    )
    assert state_of(game).turn.sides == ["red", "blue"]
    assert deadlines.sweep()["waiting_notices"] == 0  # nobody is ready: nobody is singled out
    assert commands.submit_orders(game.pk, "red", "hold", source="mail").accepted
    assert deadlines.sweep()["waiting_notices"] == 1
    assert deadlines.sweep()["waiting_notices"] == 0
    notices = [(to, m) for to, m in smtp.messages if "the game begins" not in m["Subject"]]
    assert [m["Subject"] for _, m in notices] == ["[Kriegsbrief] Little game: turn 1 waits for you"]
    assert notices[0][0] == ["carol@example.org"]


def test_a_seat_absent_by_mail_gets_no_reminder_until_its_date_has_passed(game, smtp):
    """ABSENT UNTIL through the real mail path; the date is the seat's own (bob is in New York)."""
    from datetime import datetime

    from campaigns.mailin import ingest
    from campaigns.mailin.models import Absence
    from tests.support.mail import seat_mail

    red = game.seats.get(side="red")
    _, deadline = clock(game)
    now = deadline - timedelta(hours=1)  # the 2 h reminder is due
    new_york = zoneinfo.ZoneInfo("America/New_York")
    until = now.astimezone(new_york).date()
    assert ingest.ingest(seat_mail(red, f"ABSENT UNTIL {until.isoformat()}"), via="test").status == "applied"
    assert Absence.objects.get(seat=red).until == until
    deadlines.sweep(now)
    assert reminders_to(smtp, "bob@example.org") == []
    # Still the absence's last day in New York, already the next day in UTC: still away.
    last_minute = datetime.combine(until, datetime.max.time().replace(microsecond=0), tzinfo=new_york)
    assert last_minute.astimezone(zoneinfo.ZoneInfo("UTC")).date() > until
    assert reminders.absent_seat_ids([red], last_minute) == {red.pk}
    # The day after, in New York, the seat is back and reminded.
    assert reminders.absent_seat_ids([red], last_minute + timedelta(seconds=1)) == set()
    Absence.objects.filter(seat=red).update(until=until - timedelta(days=1))
    deadlines.sweep(now)
    [reminder] = reminders_to(smtp, "bob@example.org")
    assert reminder["Subject"].endswith("due in 1 h 00 min")


def test_an_absence_of_one_seat_does_not_silence_another(game, smtp):
    from campaigns.mailin.models import Absence

    red, blue = game.seats.get(side="red"), game.seats.get(side="blue")
    _, deadline = clock(game)
    now = deadline - timedelta(hours=1)
    Absence.objects.create(seat=blue, until=(deadline + timedelta(days=2)).date())
    assert reminders.absent_seat_ids([red, blue], now) == {blue.pk}
    deadlines.sweep(now)
    assert len(reminders_to(smtp, "bob@example.org")) == 1


def test_back_by_mail_ends_an_absence_early_and_reminders_resume(game, smtp):
    from campaigns.mailin import ingest
    from campaigns.mailin.models import Absence
    from tests.support.mail import seat_mail

    red = game.seats.get(side="red")
    _, deadline = clock(game)
    now = deadline - timedelta(hours=1)
    until = (deadline + timedelta(days=10)).date()
    assert ingest.ingest(seat_mail(red, f"ABSENT UNTIL {until.isoformat()}"), via="test").status == "applied"
    deadlines.sweep(now)
    assert reminders_to(smtp, "bob@example.org") == []
    assert ingest.ingest(seat_mail(red, "BACK"), via="test").status == "applied"
    ack = [m for m in smtp.to("bob@example.org") if "BACK: welcome back" in plain(m)]
    assert len(ack) == 1
    umpire = game.seats.get(role="umpire")
    assert any(m["Subject"].endswith("red is back") for m in smtp.to(umpire.email))
    assert reminders.absent_seat_ids([red], now) == set()
    assert Absence.objects.get(seat=red).until < until  # the record stays, ended
    deadlines.sweep(now)
    [reminder] = reminders_to(smtp, "bob@example.org")
    assert reminder["Subject"].endswith("due in 1 h 00 min")
    assert ingest.ingest(seat_mail(red, "BACK"), via="test").status == "applied"
    assert any("BACK: you had no absence in force; nothing changed." in plain(m) for m in smtp.to("bob@example.org"))


def test_an_absent_seat_is_told_the_game_waits_for_it_once_it_is_back(game, smtp):
    from campaigns.mailin.models import Absence

    blue = game.seats.get(side="blue")
    turn = replace(state_of(game).turn, sides=["red", "blue"], ready={"red": "2026-01-01T00:00:00+00:00"})
    _, deadline = clock(game)
    now = deadline - timedelta(hours=30)
    away = Absence.objects.create(seat=blue, until=(now + timedelta(days=3)).date())
    assert reminders.notify_waiting(game, turn, now) == 0
    assert smtp.to("carol@example.org") == []
    Absence.objects.filter(pk=away.pk).update(until=(now - timedelta(days=2)).date())
    assert reminders.notify_waiting(game, turn, now) == 1
    assert [m["Subject"] for m in smtp.to("carol@example.org")] == ["[Kriegsbrief] Test game: turn 1 waits for you"]
