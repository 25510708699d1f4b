"""load_demo gives a playable game with turns behind it, and is safe to run twice."""

import io

import pytest
from django.core.management import call_command

from campaigns.management.commands.load_demo import FRESH_GAMES
from campaigns.models import Game
from campaigns.turns import gamelog
from campaigns.turns.gamelog import verify_game

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
    fresh_games = (
        ("Demo: Little Wars skirmish", "littlewars"),
        ("Demo: Kriegspiel", "kriegspiel"),
        ("Demo: War of the Worlds", "warworlds"),
    )
    for name, ruleset in fresh_games:
        fresh = Game.objects.get(name=name)
        assert fresh.ruleset == ruleset and fresh.turn_number == 1 and fresh.turn_status == "open"
        assert fresh.seats.count() == 3 and verify_game(fresh).ok
    ww = gamelog.load(Game.objects.get(name="Demo: War of the Worlds").pk).state
    assert ww.rules["scenario"]["name"] == "field_battle" and ww.rules["round"] == "movement"
    assert set(ww.turn.sides) == {"red", "blue"}
    kow = Game.objects.get(name="Demo: Kings of War")
    assert kow.ruleset == "kingsofwar" and kow.turn_number == 1 and kow.turn_status == "open"
    assert gamelog.load(kow.pk).state.turn.sides == ["red"]  # alternating: red moves first
    assert kow.seats.count() == 3 and verify_game(kow).ok
    napoleon = Game.objects.get(name="Demo: Napoleon's War, Quatre Bras")
    state = gamelog.load(napoleon.pk).state
    assert napoleon.ruleset == "napoleon" and state.turn.sides == ["blue"] and state.turn.status == "open"
    assert state.rules["scenario"]["name"] == "quatre_bras" and napoleon.seats.count() == 3
    assert verify_game(napoleon).ok
    assert Game.objects.count() == 1 + len(FRESH_GAMES)
