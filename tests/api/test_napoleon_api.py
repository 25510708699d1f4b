"""Napoleon's War through the REST API: two scripted players (bob red, carol blue) take
alternating turns by POST /api/games/<id>/orders/, knowing only their own view, and play both
shipped scenarios to a scored end. Adjudication runs as the platform's Celery task (in-process)."""

import contextlib

import pytest

from rules.napoleon.testing import bot_orders, state_from_view
from tests.support.api import client_for
from tests.support.games import new_game_with_people

from .test_warworlds_api import PLAYERS, check_scored_end

pytestmark = pytest.mark.django_db


def new_game(people, scenario):
    return new_game_with_people(people, "napoleon", scenario, "Napoleon's War")


def play_through_api(game, people, submit=contextlib.nullcontext, wait=None, limit=40) -> dict:
    clients = {side: client_for(people[name]) for side, name in PLAYERS.items()}
    for _ in range(limit):
        turn = clients["red"].get(f"/api/games/{game.pk}/view/").json()["turn"]
        if turn["game_status"] != "active":
            return turn
        assert len(turn["sides"]) == 1  # alternating player turns
        side = turn["sides"][0]
        board = clients[side].get(f"/api/games/{game.pk}/view/").json()["board"]
        text = bot_orders(state_from_view(board), side)
        with submit():
            resp = clients[side].post(f"/api/games/{game.pk}/orders/", {"text": text, "ready": True}, format="json")
        assert resp.status_code == 201, (side, text, resp.content)
        if wait is not None:
            wait(game, turn["number"])
    raise AssertionError(f"the game did not end in {limit} player turns")


@pytest.mark.parametrize("scenario", ["quatre_bras", "mill_ford"])
def test_a_scripted_game_through_the_api_reaches_a_scored_end(people, scenario, django_capture_on_commit_callbacks):
    game = new_game(people, scenario)
    turn = play_through_api(game, people, submit=lambda: django_capture_on_commit_callbacks(execute=True))
    check_scored_end(game, people, turn)


def test_orders_out_of_turn_and_bad_lines_are_refused_with_reasons(people):
    game = new_game(people, "mill_ford")
    carol = client_for(people["carol"])
    resp = carol.post(f"/api/games/{game.pk}/orders/", {"text": "pass", "ready": True}, format="json")
    assert resp.status_code in (400, 403, 409), resp.content
    bob = client_for(people["bob"])
    bad = bob.post(f"/api/games/{game.pk}/orders/", {"text": "move R1 to 0406\nfly R2\nfire R4 at R1"}, format="json")
    assert bad.status_code == 400
    errors = bad.json()["errors"]
    assert [e["line"] for e in errors] == [2, 3]
