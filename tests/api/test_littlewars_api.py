"""Little Wars through the REST API: bad orders get line errors and the curtain holds. Each shipped
scenario played to a scored end by two scripted players is tests/api/test_playthrough_api.py's (every
rule set in the catalogue); tests/platform/test_littlewars_game.py runs one game on a real worker."""

import pytest

from tests.support.api import client_for
from tests.support.playthrough import new_game

pytestmark = pytest.mark.django_db


def test_bad_orders_through_the_api_get_line_errors_and_the_curtain_holds(people, django_capture_on_commit_callbacks):
    game = new_game(people, "littlewars", "skirmish")
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
