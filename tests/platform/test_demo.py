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


def test_the_demos_links_follow_the_port_it_serves_on():
    """Issue 31: `PORT=8123 ./kb demo` mailed links to port 8000."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = {k: v for k, v in os.environ.items() if k != "SITE_URL"}
    code = "import django; django.setup(); from django.conf import settings; print(settings.SITE_URL)"
    root = Path(__file__).resolve().parents[2]
    for port, url in (("8123", "http://127.0.0.1:8123"), (None, "http://127.0.0.1:8000")):
        run_env = {**env, "PORT": port} if port else {k: v for k, v in env.items() if k != "PORT"}
        out = subprocess.run([sys.executable, "-c", code], cwd=root, env=run_env, capture_output=True, text=True)
        assert out.stdout.strip() == url, out.stderr
