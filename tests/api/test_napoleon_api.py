"""Napoleon's War through the REST API: orders out of turn and bad lines are refused with reasons.
Both shipped scenarios played to a scored end by two scripted players are
tests/api/test_playthrough_api.py's (every rule set in the catalogue)."""

import pytest

from tests.support.api import client_for
from tests.support.playthrough import new_game

pytestmark = pytest.mark.django_db


def test_orders_out_of_turn_and_bad_lines_are_refused_with_reasons(people):
    game = new_game(people, "napoleon", "mill_ford")
    carol = client_for(people["carol"])
    resp = carol.post(f"/api/games/{game.pk}/orders/", {"text": "pass", "ready": True}, format="json")
    assert resp.status_code in (400, 403, 409), resp.content
    bob = client_for(people["bob"])
    bad = bob.post(f"/api/games/{game.pk}/orders/", {"text": "move R1 to 0406\nfly R2\nfire R4 at R1"}, format="json")
    assert bad.status_code == 400
    errors = bad.json()["errors"]
    assert [e["line"] for e in errors] == [2, 3]
