"""The battles on a strategic game's page (issue 28): every seat reads them, in its language; the umpire
chooses how a waiting battle is fought and passes a finished one's result on, or amends it."""

import pytest

from campaigns.battles import record
from campaigns.models import Game
from tests.battles.test_linked_battles import open_battles, play_strategic_until, strategic_game
from tests.support.playthrough import play_through_api

pytestmark = pytest.mark.django_db


def page(client, game):
    resp = client.get(f"/games/{game.pk}/")
    assert resp.status_code == 200
    return resp.content.decode()


def test_a_player_reads_the_battles_and_the_umpire_chooses(client, people, django_capture_on_commit_callbacks):
    game = strategic_game(people, battle_ruleset="ask")
    play_strategic_until(game, django_capture_on_commit_callbacks, lambda s: open_battles(s))
    (battle,) = record.battles(game.campaign).values()
    client.force_login(people["bob"])
    text = page(client, game)
    assert 'id="battles"' in text and "waiting for the umpire&#x27;s choice" in text and battle.battle in text
    assert "Fight it in" not in text  # the players read; only the umpire chooses
    action = f"/games/{game.pk}/battles/{battle.battle}/"
    assert client.post(action, {"action": "choose", "ruleset": "littlewars"}).status_code == 404
    client.force_login(people["alice"])
    assert "Fight it in" in page(client, game)
    with django_capture_on_commit_callbacks(execute=True):
        resp = client.post(action, {"action": "choose", "ruleset": "littlewars"}, follow=True)
    assert "your choice is made" in resp.content.decode()
    battle = record.battles(game.campaign)[battle.key]
    fought = Game.objects.get(uid=battle.game)
    assert f'href="/games/{fought.pk}/"' in page(client, game)
    resp = client.post(action, {"action": "choose", "ruleset": "rules"}, follow=True)
    assert "nothing to do now" in resp.content.decode()  # refused with the reason, nothing changed


def test_the_umpire_amends_on_the_page_and_a_russian_player_reads_it(
    client, people, django_capture_on_commit_callbacks
):
    people["carol"].profile.language = "ru"
    people["carol"].profile.save()
    game = strategic_game(people, battle_review=True)
    play_strategic_until(game, django_capture_on_commit_callbacks, lambda s: open_battles(s))
    (battle,) = record.battles(game.campaign).values()
    play_through_api(
        Game.objects.get(uid=battle.game), people, submit=lambda: django_capture_on_commit_callbacks(execute=True)
    )
    client.force_login(people["alice"])
    assert "Pass the result on" in page(client, game)
    action = f"/games/{game.pk}/battles/{battle.battle}/"
    resp = client.post(action, {"action": "amend", "winner": "none", "note": "мост не взят"}, follow=True)
    assert "the result is in the game" in resp.content.decode()
    client.force_login(people["carol"])
    text = page(client, game)
    assert "Сражения" in text and "никто не победил" in text and "мост не взят" in text
    assert "waiting for" not in text and "neither side won" not in text
