"""Whole games by two scripted players, one per scenario, to a scored end (the rule set alone)."""

import pytest

from rules.littlewars import RULESET as RS
from rules.littlewars.scenario import builtin_names
from rules.littlewars.testing import new_game, play_bots, types

SHEET_KEYS = {
    "victory",
    "guns",
    "guns_points",
    "cavalry",
    "cavalry_points",
    "infantry",
    "infantry_points",
    "own_men_prisoner",
    "prisoners_taken",
    "prisoner_points",
    "total",
}


@pytest.mark.parametrize("name", builtin_names())
def test_scripted_game_reaches_a_scored_end(name):
    state, events = play_bots(new_game(name, 11), seed=11)
    assert RS.next_turn(state).sides == ()
    result = RS.result(state)
    assert result is not None and result["reason"]
    assert types(events).count("game_over") == 1 and types(events)[-1] == "game_over"
    for side in ("red", "blue"):
        sheet = result["scores"][side]
        assert set(sheet) == SHEET_KEYS
        total = (
            sheet["victory"]
            + sheet["guns_points"]
            + sheet["cavalry_points"]
            + sheet["infantry_points"]
            + sheet["prisoner_points"]
        )
        assert sheet["total"] == total
    assert "melee" in types(events) and "fired" in types(events)
    assert RS.check_invariants(state) == []


def test_the_same_seed_replays_the_same_game():
    a_state, a = play_bots(new_game("skirmish", 4), seed=4)
    b_state, b = play_bots(new_game("skirmish", 4), seed=4)
    assert [(e.type, e.payload) for e in a] == [(e.type, e.payload) for e in b]
    assert a_state == b_state
