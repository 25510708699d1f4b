"""No rendered page shows template code: every page of the app, as a player, the umpire and an
observer would open it, in each state a turn passes through."""

import pytest
from django.urls import reverse

from campaigns.models import Seat
from campaigns.turns import commands, invitations
from tests.support.games import legal_op
from tests.support.web import post_orders

pytestmark = pytest.mark.django_db(transaction=True)


def pages_of(game) -> list[str]:
    g = [game.pk]
    return [
        reverse("my_games"),
        reverse("my_settings"),
        reverse("new_game"),
        reverse("game", args=g),
        reverse("game_seats", args=g),
        reverse("verification", args=g),
        reverse("game_map", args=g),
    ]


def assert_clean(client, url):
    response = client.get(url)
    assert response.status_code == 200, url
    text = response.content.decode()
    assert "{{" not in text and "{%" not in text, f"template code on {url}"


def test_no_page_shows_template_code(client, people, approval_game):
    game = approval_game
    assert_clean(client, reverse("login"))  # signed out
    client.force_login(people["dave"])
    assert_clean(client, reverse("confirm_address", args=["any-token"]))  # the page asks to confirm by POST
    for state in ("open", "adjudicated", "published"):
        if state == "adjudicated":
            client.force_login(people["bob"])
            post_orders(client, game, legal_op(game))
        if state == "published":
            commands.approve(game.pk, 1, note="well played")
        for name in ("bob", "carol", "alice"):
            client.force_login(people[name])
            for url in pages_of(game):
                assert_clean(client, url)
        client.force_login(people["alice"])
        for url in (
            reverse("umpire", args=[game.pk]),
            reverse("umpire", args=[game.pk]) + "?kind=turn",
            reverse("mailin_held", args=[game.pk]),
        ):
            assert_clean(client, url)
    client.force_login(people["bob"])
    assert_clean(client, reverse("turn_history", args=[game.pk, 1]))
    seat = game.seats.get(side="blue")
    Seat.objects.filter(pk=seat.pk).update(status=Seat.Status.INVITED)
    client.force_login(people["carol"])
    assert_clean(client, reverse("invitation", args=[invitations.token_for(game.seats.get(pk=seat.pk))]))
