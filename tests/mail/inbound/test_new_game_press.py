"""The new-game page sets the game's ``press`` setting, and MESSAGE by mail obeys it."""

import pytest
from django.urls import reverse

from campaigns.mailin import ingest
from campaigns.models import Game, OutboxMail
from campaigns.turns import gamelog
from tests.conftest import accept_invitations
from tests.support.mail import last_reply, seat_mail

FORM = {
    "new_campaign": "Press",
    "ruleset": "civilwar",
    "umpire": "alice",
    "player_red": "bob",
    "player_blue": "carol",
    "deadline_hours": "48",
    "decision_deadline_hours": "12",
    "ready_delay_seconds": "0",
}


def create(client, people, name, **extra):
    client.force_login(people["alice"])
    response = client.post(reverse("new_game"), {**FORM, "name": name, **extra})
    assert response.status_code == 302, response.content.decode()[:2000]
    accept_invitations(Game.objects.get(name=name))
    return Game.objects.get(name=name)


def press_of(game):
    return gamelog.load(game.pk).state.settings["press"]


def message(game, side, to):
    seat = game.seats.get(side=side)
    assert ingest.ingest(seat_mail(seat, f"MESSAGE {to}\nShall we parley?\nEND"), via="test").status == "applied"
    return last_reply(seat.email).body


def test_the_form_offers_the_three_choices_with_umpire_preselected(client, people):
    client.force_login(people["alice"])
    page = client.get(reverse("new_game")).content.decode()
    for value in ("none", "umpire", "all"):
        assert f'value="{value}"' in page
    assert 'value="umpire" selected' in page


@pytest.mark.parametrize(
    "press, to_blue, to_umpire", [("all", True, True), ("umpire", False, True), ("none", False, False)]
)
def test_each_press_setting_governs_messages_by_mail(client, people, press, to_blue, to_umpire):
    game = create(client, people, f"Press {press}", press=press)
    assert press_of(game) == press
    for to, allowed, address in (("blue", to_blue, "carol@example.org"), ("umpire", to_umpire, "alice@example.org")):
        body = message(game, "red", to)
        assert (f"MESSAGE to {to}: sent" in body) is allowed, body
        assert (f"this game does not allow messages to {to}" in body) is not allowed, body
        assert OutboxMail.objects.filter(to=address, kind="mail-forward").exists() is allowed


def test_without_a_choice_the_game_gets_the_default_and_a_bad_choice_is_refused(client, people):
    assert press_of(create(client, people, "Press default")) == "umpire"
    response = client.post(reverse("new_game"), {**FORM, "name": "Press bad", "press": "everyone"})
    assert response.status_code == 200
    assert "Select a valid choice. everyone is not one of the available choices." in response.content.decode()
    assert not Game.objects.filter(name="Press bad").exists()
