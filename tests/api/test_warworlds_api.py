"""War of the Worlds through the REST API: two scripted players (bob red, carol blue) order every
mail round by POST /api/games/<id>/orders/, knowing only their own view (GET .../view/), and play
both shipped scenarios to a scored end. Adjudication runs as the platform's Celery task
(in-process here; tests/platform/test_warworlds_game.py runs one game on a real worker)."""

import contextlib

import pytest

from campaigns.turns.gamelog import verify_game
from rules.warworlds.testing import bot_orders, state_from_view
from tests.support.api import client_for
from tests.support.games import new_game_with_people

pytestmark = pytest.mark.django_db

PLAYERS = {"red": "bob", "blue": "carol"}


def new_game(people, scenario):
    return new_game_with_people(people, "warworlds", scenario, "War of the Worlds")


def play_through_api(game, people, submit=contextlib.nullcontext, wait=None, limit=40) -> dict:
    clients = {side: client_for(people[name]) for side, name in PLAYERS.items()}
    for _ in range(limit):
        turn = clients["red"].get(f"/api/games/{game.pk}/view/").json()["turn"]
        if turn["game_status"] != "active":
            return turn
        for side in turn["sides"]:
            board = clients[side].get(f"/api/games/{game.pk}/view/").json()["board"]
            text = bot_orders(state_from_view(board), side)
            with submit():
                resp = clients[side].post(f"/api/games/{game.pk}/orders/", {"text": text, "ready": True}, format="json")
            assert resp.status_code == 201, (side, text, resp.content)
        if wait is not None:
            wait(game, turn["number"])
    raise AssertionError(f"the game did not end in {limit} rounds")


def check_scored_end(game, people, turn: dict) -> dict:
    result = turn["result"]
    assert turn["game_status"] == "finished" and result is not None
    assert set(result["score"]) == {"red", "blue"} and result["reason"]
    for name in PLAYERS.values():
        client = client_for(people[name])
        board = client.get(f"/api/games/{game.pk}/view/").json()["board"]
        assert board["result"] == result and board["phase"] == "over"
    report = verify_game(game)  # hash chain, snapshots, re-adjudication from the revealed seeds
    assert report.ok, report
    return result


@pytest.mark.parametrize("scenario", ["field_battle", "town_assault"])
def test_a_scripted_game_through_the_api_reaches_a_scored_end(people, scenario, django_capture_on_commit_callbacks):
    game = new_game(people, scenario)
    turn = play_through_api(game, people, submit=lambda: django_capture_on_commit_callbacks(execute=True))
    check_scored_end(game, people, turn)


def test_bad_orders_get_line_errors_and_hidden_units_stay_hidden(people):
    game = new_game(people, "town_assault")
    bob = client_for(people["bob"])
    board = bob.get(f"/api/games/{game.pk}/view/").json()["board"]
    assert "B2" not in {u["id"] for u in board["units"]}  # hidden pickets (WW-61 #7)
    events = bob.get(f"/api/games/{game.pk}/events/?limit=500").json()["results"]
    assert "B2" not in str(events)
    bad = bob.post(f"/api/games/{game.pk}/orders/", {"text": "move R1 to 0303\nfire R2 at B1\nfly R3"}, format="json")
    assert bad.status_code == 400
    errors = bad.json()["errors"]
    assert [e["line"] for e in errors] == [2, 3]
    assert "this is the movement round" in errors[0]["message"] and "unknown order 'fly'" in errors[1]["message"]
