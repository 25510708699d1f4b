"""Kings of War through the REST API: two scripted players (bob red, carol blue) take alternating
player turns by POST /api/games/<id>/orders/, knowing only their own view, and play both shipped
scenarios to a scored end. Adjudication runs as the platform's Celery task (in-process here;
tests/platform/test_kingsofwar_game.py runs one game on a real worker)."""

import contextlib

import pytest

from campaigns.turns.gamelog import verify_game
from rules.kingsofwar.testing import bot_orders, state_from_view
from tests.support.api import client_for
from tests.support.games import new_game_with_people

from .test_warworlds_api import PLAYERS

pytestmark = pytest.mark.django_db


def new_game(people, scenario):
    return new_game_with_people(people, "kingsofwar", scenario, "Kings of War")


def play_through_api(game, people, submit=contextlib.nullcontext, wait=None, limit=30) -> dict:
    """Both sides' turns in order until the game is over (six rounds: twelve player turns)."""
    clients = {side: client_for(people[name]) for side, name in PLAYERS.items()}
    for _ in range(limit):
        turn = clients["red"].get(f"/api/games/{game.pk}/view/").json()["turn"]
        if turn["game_status"] != "active":
            return turn
        [side] = turn["sides"]  # alternating player turns
        board = clients[side].get(f"/api/games/{game.pk}/view/").json()["board"]
        assert board["awaiting"] == [side]
        text = bot_orders(state_from_view(board), side)
        with submit():
            resp = clients[side].post(f"/api/games/{game.pk}/orders/", {"text": text, "ready": True}, format="json")
        assert resp.status_code == 201, (side, text, resp.content)
        if wait is not None:
            wait(game, turn["number"])
    raise AssertionError(f"the game did not end in {limit} player turns")


def check_scored_end(game, people, turn: dict) -> dict:
    """Finished, the same result in every player's view (its score per side: points of enemy units
    routed, and objectives held), and a clean log."""
    result = turn["result"]
    assert turn["game_status"] == "finished" and result is not None and result["reason"]
    assert set(result["score"]["routed_points"]) == {"red", "blue"} and result["winner"] in ("red", "blue", None)
    for name in PLAYERS.values():
        board = client_for(people[name]).get(f"/api/games/{game.pk}/view/").json()["board"]
        assert board["result"] == result and board["phase"] == "over"
    report = verify_game(game)  # hash chain, snapshots, re-adjudication from the revealed seeds
    assert report.ok, report
    return result


@pytest.mark.parametrize("scenario", ["pitched", "objectives"])
def test_a_scripted_game_through_the_api_reaches_a_scored_end(people, scenario, django_capture_on_commit_callbacks):
    game = new_game(people, scenario)
    turn = play_through_api(game, people, submit=lambda: django_capture_on_commit_callbacks(execute=True))
    result = check_scored_end(game, people, turn)
    assert turn["number"] == 12  # six rounds of two player turns
    if scenario == "objectives":
        assert len(result["score"]["held"]) == 3


def test_orders_out_of_turn_and_bad_lines_are_refused_with_reasons(people):
    game = new_game(people, "pitched")
    carol = client_for(people["carol"])
    resp = carol.post(f"/api/games/{game.pk}/orders/", {"text": "b1 halt", "ready": True}, format="json")
    assert resp.status_code in (400, 403, 409), resp.content
    bob = client_for(people["bob"])
    bad = bob.post(f"/api/games/{game.pk}/orders/", {"text": "r1 halt\nr2 fly\nr3 charge b9"}, format="json")
    assert bad.status_code == 400
    assert [e["line"] for e in bad.json()["errors"]] == [2, 3]
