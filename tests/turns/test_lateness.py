"""At a passed deadline: grace for the late (the game's grace_hours), and the time given back after
the service was down (the sweep's heartbeat)."""

import time
from datetime import timedelta

import pytest
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from campaigns.models import Event, Heartbeat
from campaigns.turns import commands, deadlines, lateness
from tests.conftest import new_civilwar_game
from tests.support.games import state_of
from tests.support.mail import plain

pytestmark = pytest.mark.django_db(transaction=True)


def deadline_of(game):
    return parse_datetime(state_of(game).turn.deadline)


def test_the_late_get_their_grace_and_are_told_once(people, smtp):
    game = new_civilwar_game(people, grace_hours=12)
    deadline = deadline_of(game)
    result = deadlines.sweep(deadline + timedelta(minutes=1))
    assert result["late"] == 1 and result["closed"] == 0
    late = Event.objects.get(game=game, type="turn.late")
    assert late.audience == "public" and late.payload["missing"] == ["red"]
    until = deadline + timedelta(minutes=1, hours=12)
    assert parse_datetime(late.payload["until"]) == until and state_of(game).turn.status == "open"
    [notice] = [m for m in smtp.to("bob@example.org") if m["Subject"].endswith("turn 1: orders late")]
    assert "The turn waits for you until" in plain(notice) and "America/New_York" in plain(notice)
    assert any(m["Subject"].endswith("orders late") for m in smtp.to("alice@example.org"))
    assert not any(m["Subject"].endswith("orders late") for m in smtp.to("carol@example.org"))
    assert deadlines.sweep(deadline + timedelta(hours=6))["late"] == 0  # told once, still waiting
    from rules.civilwar import legal_operations

    assert commands.submit_orders(
        game.pk, "red", legal_operations(state_of(game).rules, "red")[0], source="mail"
    ).accepted  # in the grace: counts
    assert not Event.objects.filter(game=game, type="orders.defaulted").exists()
    assert state_of(game).turn.number == 2


def test_when_the_grace_ends_the_late_get_their_defaults(people, smtp):
    game = new_civilwar_game(people, grace_hours=2)
    deadline = deadline_of(game)
    deadlines.sweep(deadline + timedelta(seconds=1))
    assert deadlines.sweep(deadline + timedelta(hours=1))["closed"] == 0
    assert deadlines.sweep(deadline + timedelta(hours=2, seconds=2))["closed"] == 1
    assert Event.objects.filter(game=game, type="orders.defaulted", payload__side="red").exists()


def test_without_grace_the_deadline_closes_the_turn_at_once(game, smtp):
    deadline = deadline_of(game)
    assert deadlines.sweep(deadline + timedelta(seconds=1))["closed"] == 1
    assert not Event.objects.filter(game=game, type="turn.late").exists()


def test_a_deadline_that_passed_while_the_service_was_down_is_given_back(people, smtp):
    game = new_civilwar_game(people, deadline_hours=0.001)  # 3.6 s
    old = deadline_of(game)
    down_since = timezone.now() - timedelta(hours=3)  # the last sweep: three hours ago
    Heartbeat.objects.update_or_create(name=lateness.SWEEP, defaults={"at": down_since})
    time.sleep(4)  # the deadline passes "while down"
    before = timezone.now()
    result = deadlines.sweep()
    after = timezone.now()
    assert result["given_back"] == 1 and result["closed"] == 0
    ev = Event.objects.get(game=game, type="turn.deadline_set")
    assert "the service was down" in ev.payload["note"]
    left = old - down_since  # what was left when it went down: ~3 h
    assert before + left <= deadline_of(game) <= after + left
    assert any(m["Subject"].endswith("turn 1 deadline moved") for m in smtp.to("bob@example.org"))
    assert deadlines.sweep()["given_back"] == 0  # the service is up again: nothing more


def test_what_is_given_back_is_at_least_an_hour_and_at_most_a_day(people, smtp):
    game = new_civilwar_game(people, deadline_hours=0.001)
    Heartbeat.objects.update_or_create(name=lateness.SWEEP, defaults={"at": timezone.now() - timedelta(days=3)})
    time.sleep(4)
    before = timezone.now()
    deadlines.sweep()
    assert before + lateness.GIVEN_BACK_MAX <= deadline_of(game) <= timezone.now() + lateness.GIVEN_BACK_MAX
    game = new_civilwar_game(people, deadline_hours=0.001)
    Heartbeat.objects.update(at=timezone.now() - timedelta(minutes=11))  # down a little over 10 minutes
    time.sleep(4)
    before = timezone.now()
    deadlines.sweep()
    assert before + lateness.GIVEN_BACK_MIN <= deadline_of(game) <= timezone.now() + lateness.GIVEN_BACK_MIN


def test_a_short_gap_between_sweeps_is_no_outage(people, smtp):
    game = new_civilwar_game(people, deadline_hours=0.0005)  # 1.8 s
    Heartbeat.objects.update_or_create(name=lateness.SWEEP, defaults={"at": timezone.now()})
    time.sleep(2)
    assert deadlines.sweep()["closed"] == 1
    assert not Event.objects.filter(game=game, type="turn.deadline_set").exists()


def test_the_new_game_page_sets_the_grace(client, people):
    client.force_login(people["bob"])
    data = {
        "new_campaign": "S",
        "name": "Graced",
        "ruleset": "civilwar",
        "umpire": "bob",
        "player_red": "carol",
        "player_blue": "dave",
        "deadline_hours": "48",
        "decision_deadline_hours": "12",
        "ready_delay_seconds": "0",
        "grace_hours": "6",
    }
    assert client.post("/games/new/", data).status_code == 302
    from campaigns.models import Game

    assert state_of(Game.objects.get(name="Graced")).settings["grace_hours"] == 6


def test_a_deadline_moved_in_the_grace_is_the_turn_s_end(people, smtp):
    game = new_civilwar_game(people, grace_hours=2)
    deadline = deadline_of(game)
    deadlines.sweep(deadline + timedelta(seconds=1))  # the grace opens: 2 h
    assert state_of(game).turn.late_until
    new = timezone.now() + timedelta(days=5)
    deadlines.set_deadline(game.pk, 1, new)  # the umpire gives five days instead
    assert state_of(game).turn.late_until is None
    assert deadlines.sweep(deadline + timedelta(hours=3))["closed"] == 0  # the grace's end no longer closes it
    assert state_of(game).turn.status == "open"
