"""Kings of War through the REST API: two scripted players (bob red, carol blue) take alternating
player turns by POST /api/games/<id>/orders/, knowing only their own view, and play both shipped
scenarios to a scored end. Adjudication runs as the platform's Celery task (in-process here;
tests/platform/test_kingsofwar_game.py runs one game on a real worker)."""

import pytest

from tests.support.api import client_for
from tests.support.playthrough import check_scored_end, new_game, play_through_api

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("scenario", ["pitched", "objectives"])
def test_a_scripted_game_through_the_api_reaches_a_scored_end(people, scenario, django_capture_on_commit_callbacks):
    game = new_game(people, "kingsofwar", scenario)
    turn = play_through_api(game, people, submit=lambda: django_capture_on_commit_callbacks(execute=True))
    result = check_scored_end(game, people, turn)
    assert turn["number"] == 12  # six rounds of two player turns
    if scenario == "objectives":
        assert len(result["score"]["held"]) == 3


def test_orders_out_of_turn_and_bad_lines_are_refused_with_reasons(people):
    game = new_game(people, "kingsofwar", "pitched")
    carol = client_for(people["carol"])
    resp = carol.post(f"/api/games/{game.pk}/orders/", {"text": "b1 halt", "ready": True}, format="json")
    assert resp.status_code in (400, 403, 409), resp.content
    bob = client_for(people["bob"])
    bad = bob.post(f"/api/games/{game.pk}/orders/", {"text": "r1 halt\nr2 fly\nr3 charge b9"}, format="json")
    assert bad.status_code == 400
    assert [e["line"] for e in bad.json()["errors"]] == [2, 3]
