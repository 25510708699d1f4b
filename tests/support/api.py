"""API clients for the tests, and what a JSON answer holds."""

from rest_framework.test import APIClient

from campaigns.models import Seat


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def seat_observer(game, user) -> None:
    Seat.objects.create(game=game, role=Seat.Role.OBSERVER, user=user, email=user.email)


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
