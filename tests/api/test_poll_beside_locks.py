"""A poll never waits for an adjudication (issue 18). The adjudication holds its game's row lock
(``gamelog.load(lock=True)``) for the whole turn's results; a GET of the view reads the log without
locking, so it is answered from what was committed before, while the lock is still held. A request
that waited for the lock would hold its web thread meanwhile, and under load every request behind it
would queue (bench/load.py measured such queueing as seconds of latency)."""

import threading

import pytest
from django.db import DatabaseError, connection, transaction

from campaigns.models import Game
from campaigns.turns import commands, signals
from tests.api.test_conditional_get import token_client, view
from tests.services import postgres_only
from tests.support.games import legal_red_orders

pytestmark = [postgres_only, pytest.mark.django_db(transaction=True)]

WAIT = 60  # seconds: only a bound on a hung test, never a measure of speed


def _locked_by_someone_else(game_id: int) -> bool:
    """Whether another transaction holds the game's row lock (NOWAIT refuses at once if so)."""
    try:
        with transaction.atomic():
            list(Game.objects.select_for_update(nowait=True).filter(pk=game_id).values_list("pk"))
    except DatabaseError:
        return True
    return False


def test_the_view_is_answered_while_an_adjudication_holds_the_games_lock(game, people):
    carol = token_client(people["carol"])  # blue: waits while red moves in turn 1
    assert commands.submit_orders(game.pk, "red", legal_red_orders(game)[0], source="api", ready=False).accepted
    before = view(carol, game)
    holding, release = threading.Event(), threading.Event()
    adjudicator = None

    def hold(**_):
        # Sent inside the adjudication's transaction, the game row locked: stay there until told.
        if threading.current_thread() is adjudicator:
            holding.set()
            release.wait(WAIT)

    def close_and_adjudicate():
        try:
            # Red ready closes the turn; after that commit the (eager) adjudication runs here.
            commands.set_ready(game.pk, "red", True)
        finally:
            connection.close()

    signals.turn_published.connect(hold)
    adjudicator = threading.Thread(target=close_and_adjudicate)
    try:
        adjudicator.start()
        assert holding.wait(WAIT), "the adjudication did not reach its publication"
        assert _locked_by_someone_else(game.pk)
        during = view(carol, game)
        assert _locked_by_someone_else(game.pk)  # the answer came while the lock was held
    finally:
        release.set()
        adjudicator.join(WAIT)
        signals.turn_published.disconnect(hold)
    assert during.status_code == 200
    # What was committed before the adjudication: turn 1, closed (nothing of its results yet).
    turn = during.json()["turn"]
    assert (turn["number"], turn["status"]) == (before.json()["turn"]["number"], "closed")
    after = view(carol, game).json()["turn"]
    assert after["number"] == turn["number"] + 1 and after["status"] == "open"
