import pytest

from campaigns.turns import gamelog


@pytest.fixture
def red(game):
    return game.seats.get(side="red")


@pytest.fixture
def blue(game):
    return game.seats.get(side="blue")


@pytest.fixture
def umpire(game):
    return game.seats.get(role="umpire")


def red_opening(game) -> str:
    """A legal first order for red: form a unit in a city that sympathises with red."""
    tokens = gamelog.load(game.pk).state.rules["tokens"]
    city = sorted((c for c, face in tokens.items() if face == "red"), key=lambda c: int(c[1:]))[0]
    return f"form {city}"


def orders_of(game, side):
    return gamelog.load(game.pk).state.turn.orders.get(side)
