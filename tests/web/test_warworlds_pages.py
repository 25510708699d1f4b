"""A War of the Worlds game played to its scored end through the web forms, and every page each
seat and the umpire can open checked for blue's hidden pickets (B2 in the town assault, WW-61 #7):
blue places them with the game page's form in the deployment round before turn 1 (rules version 3),
and red never sees them, on the game page, the map or a past turn's page, before they are revealed."""

import html
import re

import pytest
from django.test import Client

from campaigns.models import Event
from campaigns.turns import gamelog, viewing
from rules.core.protocol import Viewer
from rules.warworlds.orders import ORDERS_HELP
from rules.warworlds.testing import bot_orders, state_from_view
from tests.support.playthrough import check_scored_end, new_game
from tests.support.web import game_url, page, post_orders

pytestmark = pytest.mark.django_db(transaction=True)

HIDDEN = "B2"
USERS = {"red": "bob", "blue": "carol", "umpire": "alice"}


def text_of(client, url: str) -> str:
    """A page as its reader sees it, without the order language (its examples name a B2)."""
    response = client.get(url)
    assert response.status_code == 200, url
    text = html.unescape(response.content.decode()).replace(ORDERS_HELP, "")
    # a page's random CSRF token may hold the letters "B2": it names nothing, so it is not read
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", text)


def pages_of(client, game, turn: int | None) -> str:
    """The game page, the map, the dice to check, and the page of past turn ``turn`` (when there is one)."""
    texts = [text_of(client, game_url(game, name)) for name in ("game", "game_map", "verification")]
    if turn:
        texts.append(text_of(client, f"/games/{game.pk}/turns/{turn}/"))
    return "\n".join(texts)


def red_may_see_the_pickets(game) -> bool:
    state = gamelog.load(game.pk).state
    board = viewing.game_view(game, state, Viewer(role="player", side="red"))["board"]
    return HIDDEN in {u["id"] for u in board["units"]}


def order_on_the_page(client, game, side: str) -> None:
    """Orders from the side's own view, sent with the page's form: red ticks 'ready' in the same
    form, blue sends first and presses 'Mark ready' after."""
    state = gamelog.load(game.pk).state
    board = viewing.game_view(game, state, Viewer(role="player", side=side))["board"]
    text = bot_orders(state_from_view(board), side)
    response = post_orders(client, game, text, ready=side == "red")
    assert response.status_code == 302, (side, text, response.content[-2000:])
    if side == "blue":
        assert client.post(game_url(game, "set_ready"), {"ready": "on"}).status_code == 302


def play_a_round_on_the_pages(clients, game) -> int:
    """Every side asked for orders in the open round orders on its page; the round's number."""
    state = gamelog.load(game.pk).state
    number = state.turn.number
    for side in state.turn.sides:
        order_on_the_page(clients[side], game, side)
    after = gamelog.load(game.pk).state
    assert after.turn.number > number or after.status != "active", f"round {number} was not adjudicated"
    return number


def test_a_town_assault_played_on_the_web_leaks_no_hidden_unit(people):
    game = new_game(people, "warworlds", "town_assault")
    clients = {who: Client() for who in USERS}
    for who, name in USERS.items():
        clients[who].force_login(people[name])
    # the deployment round: B2 stands nowhere yet; blue alone is asked to place it, within its zone
    assert gamelog.load(game.pk).state.turn.sides == ["blue"]
    assert f"{HIDDEN} inf" not in pages_of(clients["blue"], game, None)
    assert f"deploy {HIDDEN} at " in text_of(clients["blue"], game_url(game))  # offered from blue's own view
    red_page = text_of(clients["red"], game_url(game))
    assert HIDDEN not in red_page and "move R1 to " not in red_page  # red neither sees B2 nor orders now
    assert HIDDEN not in pages_of(clients["red"], game, None)
    deployment = play_a_round_on_the_pages(clients, game)
    assert not red_may_see_the_pickets(game)
    assert HIDDEN not in pages_of(clients["red"], game, deployment), "red sees where blue deployed"
    assert Event.objects.get(game=game, type="orders.submitted").payload["text"].startswith(f"deploy {HIDDEN} at ")
    # placed: on the map of blue and of the umpire only; turn 1 of play opens, red ordering from its own view
    assert f"{HIDDEN} inf" in pages_of(clients["blue"], game, None)
    assert f"{HIDDEN} inf" in pages_of(clients["umpire"], game, None)
    red_page = text_of(clients["red"], game_url(game))
    assert "Operations open to you now" in red_page and "move R1 to " in red_page  # from red's own view
    first_seen = None
    for _ in range(40):
        state = gamelog.load(game.pk).state
        if state.status != "active":
            break
        number = play_a_round_on_the_pages(clients, game)
        red_pages = pages_of(clients["red"], game, number)
        if first_seen is None and red_may_see_the_pickets(game):
            first_seen = number
        if first_seen is None:
            assert HIDDEN not in red_pages, f"red sees {HIDDEN} after round {number}"
        elif first_seen == number:
            assert f"{HIDDEN} is revealed" in red_pages  # the log tells red, the map shows them
    state = gamelog.load(game.pk).state
    check_scored_end(game, people, viewing.game_view(game, state, Viewer(role="player", side="red"))["turn"])
    submitted = Event.objects.filter(game=game, type="orders.submitted")
    assert {e.payload["source"] for e in submitted} == {"web"}
    revealed = Event.objects.filter(game=game, type="warworlds.revealed", payload__unit=HIDDEN).first()
    assert first_seen == (revealed.turn if revealed else None)
    for who, client_ in clients.items():
        final = text_of(client_, game_url(game))
        assert "wins" in final or "draw" in final, who
        for n in Event.objects.filter(game=game, type="turn.published").values_list("turn", flat=True):
            past = text_of(client_, f"/games/{game.pk}/turns/{n}/")
            if who == "red" and (first_seen is None or n < first_seen):
                assert HIDDEN not in past, f"red's page of turn {n} names {HIDDEN}"
    assert text_of(clients["umpire"], game_url(game, "umpire"))
    assert page(clients["blue"], game, "game_map").startswith("<svg")
