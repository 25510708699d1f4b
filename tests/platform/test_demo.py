"""load_demo gives a playable game with turns behind it, and is safe to run twice."""
import io

import pytest
from django.core.management import call_command

from campaigns import eventstore
from campaigns.management.commands.load_demo import FRESH_GAMES
from campaigns.models import Game
from campaigns.verify import verify_game

pytestmark = pytest.mark.django_db(transaction=True)


def test_load_demo_twice_gives_one_verified_game_with_turns_played():
    call_command("load_demo", stdout=io.StringIO())
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    assert "already loaded" in out.getvalue()
    game = Game.objects.get(name="Demo: Civil War")
    assert game.turn_number >= 4 and game.turn_status == "open"
    assert verify_game(game).ok
    assert game.outbox.filter(status="sent").count() >= 9
    for name, ruleset in (("Demo: Little Wars skirmish", "littlewars"), ("Demo: Kriegspiel", "kriegspiel")):
        fresh = Game.objects.get(name=name)
        assert fresh.ruleset == ruleset and fresh.turn_number == 1 and fresh.turn_status == "open"
        assert fresh.seats.count() == 3 and verify_game(fresh).ok
    napoleon = Game.objects.get(name="Demo: Napoleon's War, Quatre Bras")
    state = eventstore.load(napoleon.pk).state
    assert napoleon.ruleset == "napoleon" and state["turn"]["sides"] == ["blue"] and state["turn"]["status"] == "open"
    assert state["rules"]["scenario"]["name"] == "quatre_bras" and napoleon.seats.count() == 3
    assert verify_game(napoleon).ok
    assert Game.objects.count() == 1 + len(FRESH_GAMES)
