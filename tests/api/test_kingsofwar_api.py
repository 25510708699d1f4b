"""Kings of War through the REST API: orders out of turn and bad lines are refused with reasons. Both
shipped scenarios played to a scored end by two scripted players are tests/api/test_playthrough_api.py's
(every rule set in the catalogue; rules.kingsofwar.testing.check_result reads the result: six rounds
played or a side wiped out, every objective's holder); tests/platform/test_kingsofwar_game.py runs one
game on a real worker."""

import pytest

from tests.support.api import client_for
from tests.support.playthrough import new_game

pytestmark = pytest.mark.django_db


def test_orders_out_of_turn_and_bad_lines_are_refused_with_reasons(people):
    game = new_game(people, "kingsofwar", "pitched")
    carol = client_for(people["carol"])
    resp = carol.post(f"/api/games/{game.pk}/orders/", {"text": "b1 halt", "ready": True}, format="json")
    assert resp.status_code in (400, 403, 409), resp.content
    bob = client_for(people["bob"])
    bad = bob.post(f"/api/games/{game.pk}/orders/", {"text": "r1 halt\nr2 fly\nr3 charge b9"}, format="json")
    assert bad.status_code == 400
    assert [e["line"] for e in bad.json()["errors"]] == [2, 3]
