"""Helpers for the API tests."""
from rest_framework.test import APIClient

from campaigns.models import Seat
from campaigns.turns import creation, gamelog


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def new_game_with_people(people, ruleset: str, scenario, campaign: str):
    """A game of ``ruleset``: alice umpires, bob plays red, carol blue."""
    from campaigns.models import Campaign

    return creation.create_game(
        campaign=Campaign.objects.create(name=campaign), name=f"{campaign} {scenario}", ruleset=ruleset,
        scenario=scenario,
        seats=[{"role": "umpire", "user": people["alice"], "email": "alice@example.org"},
               {"role": "player", "side": "red", "user": people["bob"], "email": "bob@example.org"},
               {"role": "player", "side": "blue", "user": people["carol"], "email": "carol@example.org"}], operator=True)


def seat_observer(game, user) -> None:
    Seat.objects.create(game=game, role=Seat.Role.OBSERVER, user=user, email=user.email)


def state_of(game) -> dict:
    return gamelog.load(game.pk).state


def legal_red_orders(game) -> list[str]:
    from rules.civilwar import legal_operations

    return legal_operations(state_of(game).rules, "red")


def all_strings(value):
    """Every string (keys included) in a JSON value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from all_strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from all_strings(v)
