"""The umpire moves a deadline: a public event, the sweeper and reminders follow the new time, every
player is told by mail in their own time zone; through the API and the umpire's page, umpire only."""

import zoneinfo
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from campaigns.models import Event, Game
from campaigns.turns import commands, deadlines
from tests.support.api import client_for
from tests.support.games import state_of
from tests.support.mail import plain

pytestmark = pytest.mark.django_db(transaction=True)


def deadline_of(game):
    return parse_datetime(state_of(game).turn.deadline)


def test_a_later_deadline_holds_the_turn_open_and_is_public(game, smtp):
    old = deadline_of(game)
    new = old + timedelta(days=2)
    deadlines.set_deadline(game.pk, 1, new, note="holidays")
    ev = Event.objects.get(game=game, type="turn.deadline_set")
    assert ev.audience == "public" and ev.payload["note"] == "holidays"
    assert deadline_of(game) == new and Game.objects.get(pk=game.pk).deadline_at == new
    deadlines.sweep(old + timedelta(minutes=1))  # the old deadline passes: nothing happens
    assert state_of(game).turn.number == 1 and state_of(game).turn.status == "open"
    deadlines.sweep(new + timedelta(seconds=1))
    assert Event.objects.filter(game=game, type="turn.closed", turn=1).exists()


def test_every_player_is_told_in_their_own_time_zone(game, smtp):
    new = deadline_of(game) + timedelta(hours=36)
    deadlines.set_deadline(game.pk, 1, new, note="the umpire is travelling")
    for address, zone, line in (
        ("bob@example.org", "America/New_York", "You may send or change your orders"),
        ("carol@example.org", "Asia/Tokyo", "Your side gives no orders this turn."),
    ):
        [mail] = smtp.to(address)
        assert mail["Subject"] == "[Kriegsbrief] Test game: turn 1 deadline moved"
        local = new.astimezone(zoneinfo.ZoneInfo(zone))
        body = plain(mail)
        assert f"New deadline: {local:%Y-%m-%d %H:%M} {local.tzname()} ({zone})" in body
        assert "The umpire's note: the umpire is travelling" in body and line in body
    assert smtp.to("alice@example.org") == []  # the umpire did it


def test_reminders_start_afresh_for_the_new_deadline(game, smtp):
    old = deadline_of(game)  # a 72 h turn: reminded 24 h and 2 h before
    deadlines.sweep(old - timedelta(hours=23))
    assert len([m for m in smtp.to("bob@example.org") if "due in" in m["Subject"]]) == 1
    deadlines.set_deadline(game.pk, 1, old + timedelta(hours=48))
    deadlines.sweep(old - timedelta(hours=22))  # nothing new is due yet
    deadlines.sweep(old + timedelta(hours=47))  # 1 h before the new deadline
    due = [m["Subject"] for m in smtp.to("bob@example.org") if "due in" in m["Subject"]]
    assert len(due) == 2 and due[-1].endswith("due in 1 h 00 min")


def test_wrong_deadlines_are_refused_with_the_reason(game, smtp):
    now = timezone.now()
    for when, why in (
        (now - timedelta(hours=1), "at least 5 minutes ahead"),
        (now + timedelta(days=61), "at most 60 days ahead"),
    ):
        with pytest.raises(commands.TurnError, match=why):
            deadlines.set_deadline(game.pk, 1, when)
    with pytest.raises(commands.TurnError, match="with its time zone"):
        deadlines.set_deadline(game.pk, 1, (now + timedelta(days=1)).replace(tzinfo=None))
    with pytest.raises(commands.TurnError, match="turn 2 is not open"):
        deadlines.set_deadline(game.pk, 2, now + timedelta(days=1))
    assert not Event.objects.filter(game=game, type="turn.deadline_set").exists()


def test_the_api_moves_it_for_the_umpire_only(game, people, smtp):
    old = deadline_of(game)
    url = f"/api/games/{game.pk}/deadline/"
    assert client_for(people["bob"]).post(url, {"turn": 1, "hours": 24}, format="json").status_code == 403
    umpire = client_for(people["alice"])
    r = umpire.post(url, {"turn": 1, "hours": 24, "note": "one more day"}, format="json")
    assert r.status_code == 200, r.json()
    assert parse_datetime(r.json()["deadline"]) == old + timedelta(hours=24) == deadline_of(game)
    both = umpire.post(url, {"turn": 1, "hours": 1, "deadline": "2030-01-01T00:00:00+00:00"}, format="json")
    assert both.status_code == 400 and "not both" in str(both.json())
    naive = umpire.post(url, {"turn": 1, "deadline": "2030-01-01T00:00:00"}, format="json")
    assert naive.status_code == 400 and "UTC offset" in str(naive.json())
    past = umpire.post(url, {"turn": 1, "hours": -24 * 10}, format="json")
    assert past.status_code == 409 and "at least 5 minutes ahead" in past.json()["detail"]
    assert umpire.post(url, {"turn": 1, "hours": 1, "typo": 1}, format="json").status_code == 400


def test_the_umpire_page_moves_it(game, people, smtp):
    old = deadline_of(game)
    web = Client()
    web.force_login(people["alice"])
    page = f"/games/{game.pk}/umpire/"
    assert "Move the deadline" in web.get(page).content.decode()
    r = web.post(page, {"action": "deadline", "deadline-hours": "-1000", "deadline-note": ""})
    assert r.status_code == 200 and "Ensure this value is greater than or equal to -720" in r.content.decode()
    r = web.post(page, {"action": "deadline", "deadline-hours": "12", "deadline-note": "weekend"}, follow=True)
    assert "every player has been told" in r.content.decode()
    assert deadline_of(game) == old + timedelta(hours=12)
    player = Client()
    player.force_login(people["bob"])
    assert player.post(page, {"action": "deadline", "deadline-hours": "12"}).status_code in (403, 404)
    assert deadline_of(game) == old + timedelta(hours=12)
