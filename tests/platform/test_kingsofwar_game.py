"""A Kings of War game through the platform: on a real Celery worker on Redis, alternating player
turns ordered through the API, each adjudicated by the worker, to a scored end; and on the web:
orders posted through the game page's form, the game page, map and past turns for every seat."""

import html

import pytest

from campaigns.models import Event
from campaigns.turns import gamelog
from rules.kingsofwar.testing import bot_orders
from tests.services import needs_redis
from tests.support.playthrough import check_scored_end, new_game, play_through_api
from tests.support.web import page, post_orders
from tests.support.workers import wait_for_adjudication

pytestmark = pytest.mark.django_db(transaction=True)

SEATS = {"red": "bob", "blue": "carol"}


@needs_redis
def test_a_whole_game_on_a_real_celery_worker(people, lw_worker):
    game = new_game(people, "kingsofwar", "objectives")
    turn = play_through_api(game, people, wait=wait_for_adjudication)
    result = check_scored_end(game, people, turn)
    adjudicated = Event.objects.filter(game=game, type="turn.adjudicated").values_list("turn", flat=True)
    assert sorted(adjudicated) == list(range(1, turn["number"] + 1))  # every player turn exactly once
    over = Event.objects.get(game=game, type="kingsofwar.game_over")
    assert over.audience == "public" and over.payload["score"] == result["score"]


def _rules_state(game) -> dict:
    return gamelog.load(game.pk).state.rules


def test_orders_through_the_page_form_and_every_seat_sees_the_game_map_and_past_turns(people, client):
    game = new_game(people, "kingsofwar", "pitched")
    client.force_login(people["bob"])
    refused = post_orders(client, game, "r1 halt\nr2 advance 3 pivot left 200")
    text = html.unescape(refused.content.decode())
    assert refused.status_code == 200 and "line 2:" in text and "a pivot is at most 90 degrees" in text
    assert gamelog.load(game.pk).state.turn.number == 1  # nothing taken
    for number, side in ((1, "red"), (2, "blue")):
        client.force_login(people[SEATS[side]])
        text = bot_orders(_rules_state(game), side)
        response = post_orders(client, game, text)
        assert response.status_code == 302, html.unescape(response.content.decode())
        assert gamelog.load(game.pk).state.turn.number == number + 1
    moved = Event.objects.filter(game=game, type="kingsofwar.unit_moved", turn=1).first()
    assert moved is not None  # red's advance was adjudicated from the form's orders
    for user in ("bob", "carol", "alice"):
        client.force_login(people[user])
        text = page(client, game)
        assert "r2 advance 4 pivot left 45" in text  # the order language help is shown
        assert 'class="kow-map"' in text and 'id="unit-r1"' in text and 'id="unit-b8"' in text
        assert ".unit:target .arcs{display:inline}" in text  # a unit's arcs when it is selected (#unit-r1)
        svg = client.get(f"/games/{game.pk}/map.svg")
        assert svg.status_code == 200 and b"kow-map" in svg.content
        for number in (1, 2):
            past = client.get(f"/games/{game.pk}/turns/{number}/")
            assert past.status_code == 200 and b"kow-map" in past.content, (user, number)
        assert client.get(f"/games/{game.pk}/turns/3/").status_code == 404  # open, not published
    client.force_login(people["bob"])
    assert 'name="text"' in page(client, game)  # red's turn again: the form is there
    client.force_login(people["carol"])
    assert 'name="text"' not in page(client, game)


def test_a_missed_deadline_halts_the_silent_side_and_passes_the_turn(people, client):
    from datetime import timedelta

    from django.utils import timezone

    from campaigns.turns import deadlines

    game = new_game(people, "kingsofwar", "pitched")
    assert deadlines.sweep(now=timezone.now() + timedelta(days=30))["closed"] == 1
    defaulted = Event.objects.get(game=game, type="orders.defaulted", turn=1)
    assert defaulted.payload["side"] == "red" and defaulted.payload["text"].splitlines()[0] == "r1 halt"
    state = gamelog.load(game.pk).state
    assert state.missed == {"red": 1} and state.turn.number == 2 and state.turn.sides == ["blue"]
    assert state.rules["to_move"] == "blue" and not Event.objects.filter(game=game, type="kingsofwar.unit_moved")
    client.force_login(people["alice"])
    umpire = client.get(f"/games/{game.pk}/umpire/")
    assert umpire.status_code == 200 and b"kow-map" in umpire.content
