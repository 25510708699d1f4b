"""Whole Kriegspiel games played by the main part's scripted player, to the end: no crash, the
Little Wars invariants hold after every turn, and the same seed replays to the same log."""

import json

import pytest

from rules.littlewars.testing import bot_orders


def play_out(new_game, scenario, seed, max_turns=45):
    g = new_game(scenario, seed=seed)
    g.deploy()
    for turn in range(max_turns):
        if g.rs.result(g.state) is not None:
            break
        g.turn(seed=seed * 100 + turn, red=bot_orders(g.state, "red"), blue=bot_orders(g.state, "blue"))
        assert g.rs.check_invariants(g.state) == [], turn
    return g


@pytest.mark.parametrize("scenario,seed", [("ks_farm", 1), ("skirmish", 2), ({"base": "wells"}, 3)])
def test_scripted_games_run_to_the_end(new_game, scenario, seed):
    g = play_out(new_game, scenario, seed)
    again = play_out(new_game, scenario, seed)
    log = [(e.type, e.audience, json.dumps(dict(e.payload), sort_keys=True)) for e in g.events]
    assert log == [(e.type, e.audience, json.dumps(dict(e.payload), sort_keys=True)) for e in again.events]
    kinds = {e.type for e in g.events}
    assert {"kriegspiel.sighted", "kriegspiel.works", "littlewars.moved"} <= kinds
    if scenario == "skirmish":
        assert g.rs.result(g.state) is not None  # the small game is fought out
