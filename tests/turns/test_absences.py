"""Absences that push deadlines back (the game's absence_days allowance), through the real mail path."""

import zoneinfo
from datetime import datetime, time, timedelta

import pytest
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from campaigns.mailin import ingest
from campaigns.models import Event
from campaigns.turns import absences, commands
from tests.conftest import new_civilwar_game
from tests.support.games import play_one, state_of
from tests.support.mail import last_reply, seat_mail

pytestmark = pytest.mark.django_db(transaction=True)
NEW_YORK = zoneinfo.ZoneInfo("America/New_York")  # bob, red
TOKYO = zoneinfo.ZoneInfo("Asia/Tokyo")  # carol, blue


def deadline_of(game):
    return parse_datetime(state_of(game).turn.deadline)


def away(seat, days, zone):
    until = timezone.now().astimezone(zone).date() + timedelta(days=days)
    row = ingest.ingest(seat_mail(seat, f"ABSENT UNTIL {until.isoformat()}"), via="test")
    assert row.status == "applied"
    return datetime.combine(until + timedelta(days=1), time(0), tzinfo=zone)  # the absence's end


def test_an_absence_moves_the_deadline_of_a_turn_that_waits_for_that_side(people, smtp):
    game = new_civilwar_game(people, absence_days=10)
    red = game.seats.get(side="red")  # red orders first in the Civil War
    before = deadline_of(game)
    end = away(red, 5, NEW_YORK)
    assert deadline_of(game) == end + absences.GRACE > before
    ev = Event.objects.get(game=game, type="turn.deadline_set")
    assert ev.audience == "public" and ev.payload["note"] == "a player is away"
    assert ev.payload["absence"] == {
        "side": "red",
        "hours": round((end + absences.GRACE - before).total_seconds() / 3600, 4),
    }
    assert state_of(game).absence_used == {"red": ev.payload["absence"]["hours"]}
    ack = last_reply(red.email).body
    assert "The deadline of turn 1 is now" in ack and "allowance for absences has" in ack
    for address in ("bob@example.org", "carol@example.org"):
        assert any(m["Subject"].endswith("turn 1 deadline moved") for m in smtp.to(address))
    umpire_notice = [m for m in smtp.to("alice@example.org") if m["Subject"].endswith("red absent")]
    assert (
        umpire_notice
        and "absence allowance moved the deadline of turn 1" in umpire_notice[0].get_body(("plain",)).get_content()
    )


def test_the_allowance_limits_how_far_absences_push(people, smtp):
    game = new_civilwar_game(people, absence_days=1)
    red = game.seats.get(side="red")
    before = deadline_of(game)
    away(red, 20, NEW_YORK)
    assert deadline_of(game) == before + timedelta(days=1)  # the whole allowance, no more
    assert absences.allowance_left(state_of(game), "red") == timedelta(0)
    assert "has 0 hours left" in last_reply(red.email).body
    away(red, 25, NEW_YORK)  # a later absence: nothing left to draw
    assert deadline_of(game) == before + timedelta(days=1)
    assert Event.objects.filter(game=game, type="turn.deadline_set").count() == 1


def test_with_no_allowance_only_the_umpire_moves_deadlines(game, smtp):
    red = game.seats.get(side="red")
    before = deadline_of(game)
    away(red, 5, NEW_YORK)
    assert deadline_of(game) == before
    assert "deadlines move only if the umpire extends them" in last_reply(red.email).body


def test_a_side_that_has_sent_its_orders_is_not_waited_for(people, smtp):
    game = new_civilwar_game(people, absence_days=10, require_approval=True)
    red = game.seats.get(side="red")
    from rules.civilwar import legal_operations

    assert commands.submit_orders(
        game.pk, "red", legal_operations(state_of(game).rules, "red")[0], source="web", ready=False
    ).accepted
    before = deadline_of(game)
    away(red, 5, NEW_YORK)
    assert deadline_of(game) == before


def test_a_turn_that_opens_while_its_side_is_away_waits_for_it(people, smtp):
    game = new_civilwar_game(people, absence_days=10)
    blue = game.seats.get(side="blue")
    end = away(blue, 6, TOKYO)  # turn 1 is red's: nothing moves yet
    assert not Event.objects.filter(game=game, type="turn.deadline_set").exists()
    play_one(game)  # red's turn published; blue's turn 2 opens
    turn = state_of(game).turn
    assert turn.number == 2 and turn.sides == ["blue"]
    assert deadline_of(game) == end + absences.GRACE
    report = next(m for to, m in smtp.messages if to == ["carol@example.org"] and "turn 1 results" in m["Subject"])
    local = (end + absences.GRACE).astimezone(TOKYO)
    assert f"Deadline: {local:%Y-%m-%d %H:%M}" in report.get_body(("plain",)).get_content().replace("\r\n", "\n")


def test_the_game_page_declares_an_absence_and_ends_it(people, smtp):
    from django.test import Client

    from campaigns.mailin.models import Absence

    game = new_civilwar_game(people, absence_days=10)
    web = Client()
    web.force_login(people["bob"])
    page = f"/games/{game.pk}/"
    text = web.get(page).content.decode()
    assert "Away?" in text and "up to 10 days in all" in text
    url = f"/games/{game.pk}/absence/"
    r = web.post(url, {"until": "2020-01-01"}, follow=True)
    assert "Away until 2020-01-01: 2020-01-01 is not in the future" in r.content.decode()
    until = timezone.now().astimezone(NEW_YORK).date() + timedelta(days=5)
    before = deadline_of(game)
    r = web.post(url, {"until": until.isoformat()}, follow=True)
    text = r.content.decode()
    assert f"Away until {until.isoformat()}: recorded" in text and "The deadline of turn 1 is now" in text
    assert f"You are away until {until.isoformat()}" in text and deadline_of(game) > before
    assert any(m["Subject"].endswith("red absent") for m in smtp.to("alice@example.org"))
    r = web.post(url, {"back": "on"}, follow=True)
    assert "Welcome back" in r.content.decode()
    assert not Absence.objects.filter(seat__side="red", until__gte=until).exists()
    umpire = Client()
    umpire.force_login(people["alice"])
    assert umpire.post(url, {"back": "on"}).status_code == 400  # the umpire's seat is never away
