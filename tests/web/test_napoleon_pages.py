"""A Napoleon's War game played to its scored end through the web page forms (issue 13): each
player posts its orders in the game page's form (the first without ready, then the Ready
button), and the game page, every turn's history page and the map render for each seat and the
umpire, a side's standing instructions reaching only that side and the umpire."""

import pytest
from django.urls import reverse

from campaigns.turns.gamelog import verify_game
from campaigns.turns.viewing import describe_result
from rules.napoleon.testing import bot_orders
from tests.support.games import new_game_with_people, state_of
from tests.support.web import game_url, page, post_orders

pytestmark = pytest.mark.django_db
PLAYER = {"red": "bob", "blue": "carol"}


def play_turn(client, people, game, capture, first: bool) -> None:
    state = state_of(game)
    side = state.turn.sides[0]
    client.force_login(people[PLAYER[side]])
    text = bot_orders(state.rules, side)
    if first:  # a standing instruction for the opponent's turns; orders saved, then Ready
        text = f"standing square no\n{text}"
        assert post_orders(client, game, text, ready=False).status_code == 302
        assert "not marked ready" in page(client, game)
        with capture(execute=True):
            assert client.post(game_url(game, "set_ready"), {"ready": "on"}).status_code == 302
    else:
        with capture(execute=True):
            response = post_orders(client, game, text)
        assert response.status_code == 302, response.content.decode()[:2000]
    assert state_of(game).turn.number > state.turn.number or state_of(game).status == "finished"


def test_a_napoleon_game_through_the_web_forms(client, people, django_capture_on_commit_callbacks):
    game = new_game_with_people(people, "napoleon", "quatre_bras", "Web")
    first = state_of(game).turn.sides[0]  # blue: its opening turn (NW-55)
    second = "red" if first == "blue" else "blue"
    for n in range(60):
        if state_of(game).status == "finished":
            break
        play_turn(client, people, game, django_capture_on_commit_callbacks, first=n == 0)
    state = state_of(game)
    assert state.status == "finished", "the game did not end in 60 player turns"
    assert state.rules["standing"][first]["square"] == "no"
    assert verify_game(game).ok
    last = state.turn.number
    seen = {}
    for user in ("bob", "carol", "alice"):
        client.force_login(people[user])
        text = page(client, game)
        assert "charge C1 B2 from 0405" in text and describe_result(state.result, game.ruleset) in text, user
        svg = client.get(game_url(game, "game_map"))
        assert svg.status_code == 200 and svg["Content-Type"].startswith("image/svg+xml")
        assert b"napoleon-map" in svg.content and b"NEY" in svg.content
        history = [page_of_turn(client, game, number) for number in range(1, last + 1)]
        assert all("napoleon-map" in h for h in history), user
        seen[user] = text + "".join(history)
    client.force_login(people["alice"])
    assert describe_result(state.result, game.ruleset) in page(client, game, "umpire")  # the umpire's own page
    said = f"{first} standing instruction: square no"
    assert said in seen[PLAYER[first]] and said in seen["alice"]
    assert "standing instruction" not in seen[PLAYER[second]]


def page_of_turn(client, game, number: int) -> str:
    response = client.get(reverse("turn_history", args=[game.pk, number]))
    assert response.status_code == 200, number
    return response.content.decode()
