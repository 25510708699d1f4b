"""A Napoleon's War game through the platform on a real Celery worker on Redis: alternating
player turns ordered through the API, each adjudicated by the worker, to a scored end; and the
game page and map for every seat."""

import pytest

from campaigns.models import Event
from tests.services import needs_redis
from tests.support.playthrough import check_scored_end, new_game, play_through_api
from tests.support.workers import wait_for_adjudication

pytestmark = pytest.mark.django_db(transaction=True)


@needs_redis
def test_a_whole_game_on_a_real_celery_worker(people, lw_worker):
    game = new_game(people, "napoleon", "mill_ford")
    turn = play_through_api(game, people, wait=wait_for_adjudication)
    result = check_scored_end(game, people, turn)
    adjudicated = Event.objects.filter(game=game, type="turn.adjudicated").values_list("turn", flat=True)
    assert sorted(adjudicated) == list(range(1, turn["number"] + 1))  # every player turn exactly once
    over = Event.objects.get(game=game, type="napoleon.game_over")
    assert over.payload["score"] == result["score"]


def test_game_page_and_map_for_every_seat(people, client):
    from tests.conftest import PASSWORD

    game = new_game(people, "napoleon", "quatre_bras")
    for user in ("bob", "carol", "alice"):
        client.login(username=user, password=PASSWORD)
        page = client.get(f"/games/{game.pk}/")
        assert page.status_code == 200, user
        assert b"charge C1 B2 from 0405" in page.content  # the order language help is shown
        svg = client.get(f"/games/{game.pk}/map.svg")
        assert svg.status_code == 200 and b"napoleon-map" in svg.content and b"NEY" in svg.content
        client.logout()
