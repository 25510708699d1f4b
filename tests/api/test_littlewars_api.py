"""Little Wars through the REST API: two scripted players (bob red, carol blue) order every turn by
POST /api/games/<id>/orders/, read whose turn it is and the result from GET .../view/ and .../events/,
and play each shipped scenario to a scored end. Adjudication runs as the platform's Celery task
(in-process here; tests/platform/test_littlewars_game.py runs one game on a real worker).

Each scripted player knows only what the API shows it: it rebuilds a position from its own board
(GET .../view/, through rules.littlewars.testing.state_from_view), checks its orders as a whole
against that, and sends them; the server must accept them as they are."""

import contextlib

import pytest

from campaigns.turns.gamelog import verify_game
from rules.littlewars.testing import bot_orders, state_from_view
from tests.support.api import client_for
from tests.support.games import new_game_with_people

pytestmark = pytest.mark.django_db

PLAYERS = {"red": "bob", "blue": "carol"}


def new_game(people, scenario):
    return new_game_with_people(people, "littlewars", scenario, "Little Wars")


def api_turn(client, game) -> dict:
    resp = client.get(f"/api/games/{game.pk}/view/")
    assert resp.status_code == 200, resp.content
    return resp.json()["turn"]


def play_through_api(game, people, submit=contextlib.nullcontext, wait=None, limit=90) -> dict:
    """Both players order through the API until the game is over; returns the last turn view.

    ``submit``: a context manager around each POST (runs the on-commit adjudication in-process);
    ``wait(game, number)``: blocks until turn ``number`` is no longer open (a real worker)."""
    clients = {side: client_for(people[name]) for side, name in PLAYERS.items()}
    for _ in range(limit):
        turn = api_turn(clients["red"], game)
        if turn["game_status"] != "active":
            return turn
        assert turn["status"] == "open", turn
        for side in turn["sides"]:
            board = clients[side].get(f"/api/games/{game.pk}/view/").json()["board"]
            text = bot_orders(state_from_view(board), side)
            with submit():
                resp = clients[side].post(f"/api/games/{game.pk}/orders/", {"text": text, "ready": True}, format="json")
            assert resp.status_code == 201, (side, text, resp.content)
        if wait is not None:
            wait(game, turn["number"])
        assert (
            api_turn(clients["blue"], game)["number"] > turn["number"]
            or api_turn(clients["blue"], game)["game_status"] != "active"
        )
    raise AssertionError(f"the game did not end in {limit} turns")


def check_scored_end(game, people, turn: dict) -> dict:
    """The result as every player sees it through the API: a full score sheet, and the game_over event."""
    result = turn["result"]
    assert turn["game_status"] == "finished" and result is not None
    assert set(result["scores"]) == {"red", "blue"}
    for sheet in result["scores"].values():
        assert sheet["total"] == (
            sheet["victory"]
            + sheet["guns_points"]
            + sheet["cavalry_points"]
            + sheet["infantry_points"]
            + sheet["prisoner_points"]
        )
    assert sum(s["victory"] for s in result["scores"].values()) == 100
    for name in PLAYERS.values():
        client = client_for(people[name])
        board = client.get(f"/api/games/{game.pk}/view/").json()["board"]
        assert board["result"]["scores"] == result["scores"] and board["phase"] == "over"
        events = client.get(f"/api/games/{game.pk}/events/?limit=500").json()
        while events["next"]:  # the game_over event is near the end of the log
            events = client.get(events["next"]).json()
        over = [e for e in events["results"] if e["type"] == "littlewars.game_over"]
        assert len(over) == 1 and over[0]["payload"]["scores"] == result["scores"]
    report = verify_game(game)  # hash chain, snapshots, re-adjudication from the revealed seeds
    assert report.ok, report
    return result


@pytest.mark.parametrize("scenario", ["skirmish", "defence", "wells", "big_battle", "convoy"])
def test_a_scripted_game_through_the_api_reaches_a_scored_end(people, scenario, django_capture_on_commit_callbacks):
    game = new_game(people, scenario)
    turn = play_through_api(game, people, submit=lambda: django_capture_on_commit_callbacks(execute=True))
    result = check_scored_end(game, people, turn)
    assert result["reason"]


def test_bad_orders_through_the_api_get_line_errors_and_the_curtain_holds(people, django_capture_on_commit_callbacks):
    game = new_game(people, "skirmish")
    bob, carol = client_for(people["bob"]), client_for(people["carol"])
    red_board = bob.get(f"/api/games/{game.pk}/view/").json()["board"]
    assert {f["side"] for f in red_board["figures"]} == {"red"}  # behind the curtain (LW-8)
    bad = bob.post(
        f"/api/games/{game.pk}/orders/", {"text": "deploy foot1 at 16,30\ndeploy ghost at 1,1"}, format="json"
    )
    assert bad.status_code == 400
    errors = bad.json()["errors"]
    assert [e["line"] for e in errors] == [1, 2]
    assert "deployment is within 8 in" in errors[0]["message"] and "unknown name 'ghost'" in errors[1]["message"]
    with django_capture_on_commit_callbacks(execute=True):
        assert (
            bob.post(
                f"/api/games/{game.pk}/orders/", {"text": "deploy foot1 at 16,5", "ready": True}, format="json"
            ).status_code
            == 201
        )
        assert (
            carol.post(f"/api/games/{game.pk}/orders/", {"text": "hold", "ready": True}, format="json").status_code
            == 201
        )
    board = carol.get(f"/api/games/{game.pk}/view/").json()["board"]
    assert {f["side"] for f in board["figures"]} == {"red", "blue"}  # the curtain lifted
    # turn 2, the first of play: guns may not fire yet (LW-14), and a clash between two lines is refused whole
    clash = bob.post(
        f"/api/games/{game.pk}/orders/",
        {"text": "fire gun1 at 24,30\nmove foot1 to 16,10\nmove foot1 to 16,12"},
        format="json",
    )
    assert clash.status_code == 400
    assert [(e["line"], e["message"]) for e in clash.json()["errors"]] == [
        (1, "no gun fires before turn 3 (LW-14: none in the first turn of play)"),
        (3, "i1 already has an order on line 2"),
    ]
