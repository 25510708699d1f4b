"""A Russian reader sees Russian on every page; an English one sees the English, unchanged; the
choice is kept per user, and anonymous visitors get their browser's language."""

import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from campaigns.models import Campaign, Profile
from campaigns.turns import creation
from tests.support.games import play_one

from .catalogue import plain_msgids

pytestmark = pytest.mark.django_db(transaction=True)


class _Visible(HTMLParser):
    """The text a reader sees: text nodes outside script and style, and the labels of controls."""

    def __init__(self):
        super().__init__()
        self.parts, self._hidden = [], 0

    def handle_starttag(self, tag, attrs):
        self._hidden += tag in ("script", "style")
        self.parts += [v for k, v in attrs if k in ("title", "aria-label", "placeholder", "data-label") and v]

    def handle_endtag(self, tag):
        self._hidden -= tag in ("script", "style")

    def handle_data(self, data):
        if not self._hidden:
            self.parts.append(data)


def visible(response) -> str:
    assert response.status_code == 200, response.status_code
    body = response.content.decode()
    assert "{{" not in body and "{%" not in body
    parser = _Visible()
    parser.feed(body)
    return " ".join(" ".join(parser.parts).split())


def untranslated(text: str) -> list[str]:
    """The catalogue's English texts found as whole words in ``text``."""
    return [en for en, _ in plain_msgids() if re.search(rf"(?<!\w){re.escape(en.strip())}(?!\w)", text)]


def speaks(user, language: str) -> None:
    Profile.objects.filter(user=user).update(language=language)


def _game(people, ruleset: str, name: str):
    return creation.create_game(
        campaign=Campaign.objects.create(name=f"{ruleset} campaign"),
        name=name,
        ruleset=ruleset,
        seats=[
            {"role": "umpire", "user": people["alice"], "email": "alice@example.org"},
            {"role": "player", "side": "red", "user": people["bob"], "email": "bob@example.org"},
            {"role": "player", "side": "blue", "user": people["carol"], "email": "carol@example.org"},
        ],
        operator=True,
    )


@pytest.fixture
def games(people, game):
    play_one(game)  # a published Civil War turn: its history page and a log with rule-set events
    return {
        "civilwar": game,
        "littlewars": _game(people, "littlewars", "Little game"),
        "kriegspiel": _game(people, "kriegspiel", "Kriegspiel game"),
    }


def pages(games) -> list[str]:
    urls = [reverse("my_games"), reverse("new_game"), reverse("my_settings")]
    for game in games.values():
        urls += [reverse(name, args=[game.pk]) for name in ("game", "game_seats", "umpire")]
    return urls + [reverse("turn_history", args=[games["civilwar"].pk, 1])]


def test_a_russian_umpire_and_player_see_no_english_on_any_page(client, people, games):
    for who in ("alice", "bob"):
        speaks(people[who], "ru")
        client.force_login(people[who])
        for url in pages(games):
            if who == "bob" and url.endswith("/umpire/"):
                continue
            response = client.get(url)
            text = visible(response)
            assert response["Content-Language"] == "ru" and '<html lang="ru">' in response.content.decode()
            assert not untranslated(text), (who, url, untranslated(text)[:5])
    text = visible(client.get(reverse("game", args=[games["civilwar"].pk])))
    assert "Этот ход" in text and "Журнал" in text and "ГРАЖДАНСКАЯ ВОЙНА: ЯЗЫК ПРИКАЗОВ" in text
    assert "Красные" in text or "красные" in text  # the sides are named in Russian too


def test_an_english_reader_sees_the_english_pages_unchanged(client, people, games):
    client.force_login(people["alice"])
    russian = [ru for _, ru in plain_msgids(min_words=2)]
    for url in pages(games):
        text = visible(client.get(url))
        assert not [ru for ru in russian if ru in text], url
    text = visible(client.get(reverse("game", args=[games["civilwar"].pk])))
    assert "This turn" in text and "Who is in this game" in text and "CIVIL WAR: ORDER LANGUAGE" in text


def test_the_language_choice_is_kept_and_anonymous_visitors_get_their_browsers(client, people):
    response = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="ru-RU,ru;q=0.9,en;q=0.5")
    assert "Войти" in visible(response) and response["Content-Language"] == "ru"
    assert "Sign in" in visible(client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.8"))

    client.force_login(people["bob"])
    settings_page = visible(client.get(reverse("my_settings"), HTTP_ACCEPT_LANGUAGE="en"))
    assert "Language" in settings_page and "Русский" in settings_page
    response = client.post(reverse("my_settings"), {"timezone": "Europe/Moscow", "language": "ru"}, follow=True)
    assert Profile.objects.get(user=people["bob"]).language == "ru"
    assert "Настройки сохранены" in visible(response)
    # kept: a later request, whatever the browser asks, is in the chosen language
    assert "Мои партии" in visible(client.get(reverse("my_games"), HTTP_ACCEPT_LANGUAGE="en"))
    client.post(reverse("my_settings"), {"timezone": "Europe/Moscow", "language": ""})
    assert "My games" in visible(client.get(reverse("my_games"), HTTP_ACCEPT_LANGUAGE="en"))
    assert "Мои партии" in visible(client.get(reverse("my_games"), HTTP_ACCEPT_LANGUAGE="ru"))


def test_a_refused_order_is_explained_in_russian(client, people, game):
    speaks(people["bob"], "ru")
    client.force_login(people["bob"])
    response = client.post(reverse("game", args=[game.pk]), {"text": "штурм C99 из R1\nmоve R1 to C2"})
    text = visible(response)
    assert "Ваши приказы не приняты" in text
    assert "неизвестный пункт C99" in text and "смешаны латинские и русские буквы" in text


def test_the_api_answers_a_token_user_in_their_language(client, people, game):
    from knox.models import AuthToken

    speaks(people["bob"], "ru")
    _, token = AuthToken.objects.create(people["bob"])
    response = client.get(f"/api/games/{game.pk}/events/", HTTP_AUTHORIZATION=f"Token {token}")
    assert response.status_code == 200
    assert "Ход 1 открыт" in response.content.decode()
    refused = client.post(
        f"/api/games/{game.pk}/orders/",
        {"text": "штурм C99 из R1"},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Token {token}",
    )
    assert refused.status_code == 400 and "неизвестный пункт C99" in refused.content.decode(), refused.content


def test_the_apis_paging_errors_are_in_the_token_users_language(client, people, game):
    """A bad limit, page size or cursor is explained in Russian to a Russian token user (and the
    English wording stays for an English one)."""
    from knox.models import AuthToken

    speaks(people["bob"], "ru")
    _, token = AuthToken.objects.create(people["bob"])
    auth = {"HTTP_AUTHORIZATION": f"Token {token}"}
    cases = {
        f"/api/games/{game.pk}/events/?limit=0": "должно быть от 1 до 500",
        f"/api/games/{game.pk}/events/?limit=x": "должно быть целым числом, получено 'x'",
        f"/api/games/{game.pk}/events/?cursor=forged": "этот курсор выдан не этим сервером",
        f"/api/games/{game.pk}/events/?after=3": "не принимается",
        "/api/games/?page_size=999": "должно быть от 1 до 200, получено '999'",
        "/api/games/?page=0": "должно быть целым числом от 1, получено '0'",
    }
    for url, russian in cases.items():
        response = client.get(url, **auth)
        assert response.status_code == 400 and russian in response.content.decode(), (url, response.content)
    speaks(people["bob"], "en")
    response = client.get(f"/api/games/{game.pk}/events/?limit=0", **auth)
    assert "must be between 1 and 500" in response.content.decode()
