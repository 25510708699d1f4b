"""War of the Worlds through the REST API: bad orders get line errors and hidden units stay hidden.
Both shipped scenarios played to a scored end by two scripted players are
tests/api/test_playthrough_api.py's (every rule set in the catalogue); tests/platform/test_warworlds_game.py
runs one game on a real worker."""

import pytest

from tests.support.api import client_for
from tests.support.playthrough import new_game

pytestmark = pytest.mark.django_db


def test_bad_orders_get_line_errors_and_hidden_units_stay_hidden(people, django_capture_on_commit_callbacks):
    game = new_game(people, "warworlds", "town_assault")
    bob, carol = client_for(people["bob"]), client_for(people["carol"])
    orders = f"/api/games/{game.pk}/orders/"
    # the deployment round (rules version 3): blue alone places its hidden pickets, red is refused
    assert bob.post(orders, {"text": "move R1 to 0303"}, format="json").status_code == 409
    assert "B2" not in str(bob.get(f"/api/games/{game.pk}/view/").json())
    wrong = carol.post(orders, {"text": "deploy B2 at 0203"}, format="json")  # red's side of the map
    assert wrong.status_code == 400 and "not in your deployment zone" in wrong.json()["errors"][0]["message"]
    with django_capture_on_commit_callbacks(execute=True):
        placed = carol.post(orders, {"text": "deploy B2 at 0807", "ready": True}, format="json")
    assert placed.status_code == 201, placed.content
    blue_board = carol.get(f"/api/games/{game.pk}/view/").json()["board"]
    assert {u["id"]: u["hex"] for u in blue_board["units"]}["B2"] == "0807"
    board = bob.get(f"/api/games/{game.pk}/view/").json()["board"]
    assert "B2" not in {u["id"] for u in board["units"]}  # hidden pickets (WW-61 #7)
    events = bob.get(f"/api/games/{game.pk}/events/?limit=500").json()["results"]
    assert "B2" not in str(events)  # neither blue's deploy order nor where it put B2 (the zone is public)
    types = {e["type"] for e in events}
    assert "warworlds.deployment_done" in types and "warworlds.deployed" not in types
    bad = bob.post(orders, {"text": "move R1 to 0303\nfire R2 at B1\nfly R3"}, format="json")
    assert bad.status_code == 400
    errors = bad.json()["errors"]
    assert [e["line"] for e in errors] == [2, 3]
    assert "this is the movement round" in errors[0]["message"] and "unknown order 'fly'" in errors[1]["message"]
