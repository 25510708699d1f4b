"""A War of the Worlds game through the platform on a real Celery worker on Redis: orders through
the API each mail round, every round adjudicated by the worker, to a scored end."""

import pytest

from campaigns.models import Event
from tests.services import needs_redis
from tests.support.playthrough import check_scored_end, new_game, play_through_api
from tests.support.workers import wait_for_adjudication

pytestmark = pytest.mark.django_db(transaction=True)


@needs_redis
def test_a_whole_game_on_a_real_celery_worker(people, lw_worker):
    game = new_game(people, "warworlds", "town_assault")
    turn = play_through_api(game, people, wait=wait_for_adjudication)
    result = check_scored_end(game, people, turn)
    adjudicated = Event.objects.filter(game=game, type="turn.adjudicated").values_list("turn", flat=True)
    assert sorted(adjudicated) == list(range(1, turn["number"] + 1))  # every mail round exactly once
    over = Event.objects.get(game=game, type="warworlds.game_over")
    assert over.audience == "public" and over.payload["score"] == result["score"]


def test_game_page_and_map_for_every_seat(people, client):
    from campaigns.turns import commands, gamelog
    from campaigns.turns.errors import TurnError
    from tests.conftest import PASSWORD

    game = new_game(people, "warworlds", "town_assault")
    # the deployment round (rules version 3): blue alone places its hidden pickets, then turn 1 is played
    with pytest.raises(TurnError, match="red has no orders to give in turn 1"):  # red is not asked
        commands.submit_orders(game.pk, "red", "hold R1", source="web")
    assert commands.submit_orders(game.pk, "blue", "deploy B2 at 0807", source="web").accepted
    assert gamelog.load(game.pk).state.turn.sides == ["red", "blue"]  # adjudicated: turn 1's movement round
    for side in ("red", "blue"):
        assert commands.submit_orders(game.pk, side, f"hold {side[0].upper()}1", source="web").accepted
    for user, sees_b2 in (("bob", False), ("carol", True), ("alice", True)):
        client.login(username=user, password=PASSWORD)
        page = client.get(f"/games/{game.pk}/")
        assert page.status_code == 200, user
        assert b"move R1 to 0507 run" in page.content  # the order language help is shown
        svg = client.get(f"/games/{game.pk}/map.svg")
        assert svg.status_code == 200 and b"warworlds-map" in svg.content
        assert (b"B2 inf" in svg.content) == sees_b2  # the hidden pickets only for their side and the umpire
        assert sees_b2 or b"B2" not in svg.content, user
        client.logout()
