"""The maps a reader sees are drawn in the reader's language (issue 17; rules/core/MAPS.md,
"Language"): the game page and its map.svg, the turn history, the umpire's console, the API's map
and the map mailed with a turn report (each seat's own). English readers' maps have no Cyrillic."""

import re

import pytest
from django.urls import reverse
from knox.models import AuthToken

from campaigns.mailout import pictures as map_pictures
from campaigns.models import OutboxMail, Profile
from tests.support.games import new_game_with_people, play_one

pytestmark = pytest.mark.django_db(transaction=True)

CYRILLIC = re.compile("[\u0400-\u04ff]")
# One legend entry of each map, in both languages (rules/civilwar/mapwords.py, rules/littlewars/mapwords.py).
LEGEND = {"civilwar": ("road point", "точка дороги"), "littlewars": ("infantry figure", "пехотинец")}


def speaks(user, language: str) -> None:
    Profile.objects.filter(user=user).update(language=language)


def svg_in(response) -> str:
    assert response.status_code == 200, response.status_code
    body = response.content.decode()
    found = re.search(r"<svg[ >].*?</svg>", body, re.S)
    assert found, "a map on the page"
    return found.group(0)


def assert_drawn_in(svg: str, ruleset: str, language: str) -> None:
    english, russian = LEGEND[ruleset]
    if language == "ru":
        assert russian in svg and english not in svg
    else:
        assert english in svg and not CYRILLIC.search(svg)


@pytest.fixture
def games(people, game):
    play_one(game)  # a published turn: its history page
    return {"civilwar": game, "littlewars": new_game_with_people(people, "littlewars", None, "Little Wars")}


def test_a_russian_reader_sees_russian_maps_on_every_page_and_an_english_one_english(client, people, games):
    speaks(people["bob"], "ru")  # red and the umpire read Russian, blue English
    speaks(people["alice"], "ru")
    for who, language in (("bob", "ru"), ("carol", "en"), ("alice", "ru")):
        client.force_login(people[who])
        for ruleset, game in games.items():
            urls = [reverse("game", args=[game.pk]), reverse("game_map", args=[game.pk])]
            urls += [reverse("umpire", args=[game.pk])] if who == "alice" else []
            urls += [reverse("turn_history", args=[game.pk, 1])] if ruleset == "civilwar" else []
            for url in urls:
                svg = svg_in(client.get(url, HTTP_ACCEPT_LANGUAGE="en"))
                assert_drawn_in(svg, ruleset, language)
                if ruleset == "civilwar":  # the last operation: a rule text the view carries, from the catalogue
                    assert ("Red formed a unit in" in svg) == (language == "en"), (who, url)
                    assert ("Красные сформировали отряд в" in svg) == (language == "ru"), (who, url)


def test_the_api_map_is_drawn_in_the_token_users_language(client, people, games):
    for who, language in (("bob", "ru"), ("carol", "en")):
        speaks(people[who], language)
        _, token = AuthToken.objects.create(people[who])
        for ruleset, game in games.items():
            response = client.get(f"/api/games/{game.pk}/map.svg", HTTP_AUTHORIZATION=f"Token {token}")
            assert response["Content-Type"].startswith("image/svg+xml")
            assert_drawn_in(response.content.decode(), ruleset, language)


def test_each_seat_is_mailed_its_map_in_its_own_language(people, game, smtp):
    speaks(people["bob"], "ru")  # red reads Russian; blue and the umpire English
    play_one(game)
    reports = {row.seat.side or row.seat.role: row for row in OutboxMail.objects.filter(game=game, kind="report")}
    assert_drawn_in(reports["red"].svg, "civilwar", "ru")
    assert "Красные сформировали отряд в" in reports["red"].svg  # the last operation, from the catalogue
    assert_drawn_in(reports["blue"].svg, "civilwar", "en")
    assert_drawn_in(reports["umpire"].svg, "civilwar", "en")
    [ru] = smtp.to("bob@example.org")
    [en] = smtp.to("carol@example.org")
    pictures = {m["To"]: [p.get_content() for p in m.walk() if p.get_filename() == "map.png"] for m in (ru, en)}
    [shown] = pictures["bob@example.org"]  # once, inline in the HTML (issue 30): the Russian map
    assert shown == map_pictures.draw(reports["red"].svg)
    assert shown != pictures["carol@example.org"][0]
