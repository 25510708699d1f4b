"""Every rule set in the catalogue through the REST API (issue 33, the conformance kit): for each of
its shipped scenarios two scripted players (bob red, carol blue) order every turn by POST
/api/games/<id>/orders/, each knowing only its own view (GET .../view/, rebuilt by the rule set's
``testing.state_from_view``), and play to a scored end that every player's board and log agree on
and whose log verifies. Adjudication runs as the platform's Celery task (in-process here; the
tests/platform games run on a real worker).

No rule set is named: a new one is played once its testing module offers ``bot_orders`` and
``state_from_view``, and is skipped, saying which it lacks, until then."""

import pytest

from tests.support.playthrough import catalogue_games, check_scored_end, new_game, play_through_api

pytestmark = pytest.mark.django_db

GAMES = [
    pytest.param(name, scenario, marks=[pytest.mark.skip(reason=why)] if why else [], id=f"{name}-{scenario}")
    for name, scenario, why in catalogue_games()
]


@pytest.mark.parametrize("ruleset, scenario", GAMES)
def test_a_scripted_game_through_the_api_reaches_a_scored_end(
    people, ruleset, scenario, django_capture_on_commit_callbacks
):
    game = new_game(people, ruleset, scenario)
    turn = play_through_api(game, people, submit=lambda: django_capture_on_commit_callbacks(execute=True))
    check_scored_end(game, people, turn)
