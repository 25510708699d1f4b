"""A campaign's page (issue 28): the reader's games in it, each strategic game's battles and standings,
and the record as a timeline; only for those who sit in one of its games, in their language."""

import pytest

from campaigns.battles import record
from campaigns.models import Game
from tests.battles.test_linked_battles import open_battles, play_strategic_until, strategic_game
from tests.support.api import client_for
from tests.support.playthrough import play_through_api

pytestmark = pytest.mark.django_db


def test_the_campaign_page_shows_games_battles_and_the_record(client, people, django_capture_on_commit_callbacks):
    game = strategic_game(people)
    play_strategic_until(game, django_capture_on_commit_callbacks, lambda s: open_battles(s))
    (battle,) = record.battles(game.campaign).values()
    fought = Game.objects.get(uid=battle.game)
    play_through_api(fought, people, submit=lambda: django_capture_on_commit_callbacks(execute=True))
    url = f"/campaigns/{game.campaign_id}/"
    client.force_login(people["dave"])  # no seat in any of its games
    assert client.get(url).status_code == 404
    client.force_login(people["bob"])
    text = client.get(url).content.decode()
    assert f'href="/games/{game.pk}/"' in text and f'href="/games/{fought.pk}/"' in text
    assert "Battles of Civil War" in text and battle.battle in text
    assert "joined at" in text and "fought in Little Wars" in text and "decided:" in text
    assert f'href="/campaigns/{game.campaign_id}/"' in client.get(f"/games/{game.pk}/").content.decode()
    people["carol"].profile.language = "ru"
    people["carol"].profile.save()
    client.force_login(people["carol"])
    ru = client.get(url).content.decode()
    assert "Летопись кампании" in ru and "joined at" not in ru and "Battles of" not in ru
    assert client_for(people["dave"]).get(url).status_code in (302, 404)
