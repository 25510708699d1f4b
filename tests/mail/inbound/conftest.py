import pytest


@pytest.fixture
def red(game):
    return game.seats.get(side="red")


@pytest.fixture
def blue(game):
    return game.seats.get(side="blue")


@pytest.fixture
def umpire(game):
    return game.seats.get(role="umpire")
