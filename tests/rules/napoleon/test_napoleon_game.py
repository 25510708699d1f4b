"""Napoleon's War games: both scenarios played by the bot to a scored end, deterministic with
seeded dice; the turn protocol (alternation, validation, standing instructions), view and map."""

import random

import pytest

from rules.catalog import get
from rules.core.protocol import Viewer
from rules.napoleon import RULESET as RS
from rules.napoleon.testing import bot_orders, play_game, start, state_from_view
from rules.napoleon.turn import score


@pytest.mark.parametrize("scenario", ["quatre_bras", "mill_ford"])
def test_a_bot_game_reaches_a_scored_end(scenario):
    state, turns = play_game(scenario, seed=5)
    res = state["result"]
    assert res is not None and state["phase"] == "over"
    assert res["score"] == score(state)
    assert res["winner"] in ("red", "blue", None) and res["reason"]
    sc = state["scenario"]
    expected = 2 * sc["turns"] + (1 if sc["opening"] else 0)
    gone = any(
        not [u for u in state["units"].values() if u["side"] == s and u["status"] == "active"] for s in ("red", "blue")
    )
    assert turns == expected or gone
    assert any(u["figures"] < u["start"] for u in state["units"].values())  # there was fighting


@pytest.mark.parametrize("scenario", ["quatre_bras", "mill_ford"])
def test_loading_a_loaded_scenario_gives_it_back(scenario):
    from rules.napoleon.scenario import load

    once = load(scenario)
    assert load(once) == once


def test_games_are_deterministic_with_seeded_dice():
    a, _ = play_game("mill_ford", seed=9)
    b, _ = play_game("mill_ford", seed=9)
    assert a == b


def test_registered_and_alternating():
    assert get("napoleon") is RS and RS.turn_mode == "alternating"
    st = start("mill_ford")
    assert RS.next_turn(st).sides == ("red",)
    errors = RS.validate(st, "blue", RS.parse_orders(st, "blue", "pass").orders)
    assert "red's turn" in errors[0].message


def test_orders_get_line_errors():
    st = start("mill_ford")
    text = "move R1 to 0406\nfly R2\ncharge R3\nmove B1 to 0505\nfire R4 at R1\nstanding square maybe"
    parsed = RS.parse_orders(st, "red", text)
    assert [e.line for e in parsed.errors] == [2, 3, 6]
    assert "unknown order 'fly'" in parsed.errors[0].message and "e.g. 'charge C1 B2" in parsed.errors[1].message
    errors = RS.validate(st, "red", parsed.orders)
    assert [(e.line, e.message) for e in errors] == [
        (4, "you have no unit or leader B1"),
        (5, "R1 is not an enemy unit"),
    ]


def test_standing_instructions_persist_into_the_opponents_turn():
    st = start("mill_ford")
    parsed = RS.parse_orders(st, "red", "standing square no\nstanding leader_morale no\npass")
    events = RS.adjudicate(st, {"red": parsed.orders}, random.Random(1))
    for ev in events:
        st = RS.fold(st, ev.type, ev.payload)
    assert st["standing"]["red"] == {"square": "no", "countercharge": "yes", "leader_morale": "no"}
    assert st["side"] == "blue"
    # A side's standing instructions are its own: the events and the log say them to it alone.
    assert {ev.audience for ev in events if ev.type == "napoleon.standing_set"} == {"side:red"}

    def said(viewer):
        return " ".join(RS.view(st, viewer)["log"])

    assert "standing instruction" in said(Viewer("player", "red")) and "standing" in said(Viewer("umpire"))
    assert "standing instruction" not in said(Viewer("player", "blue"))


def test_views_and_the_map():
    st, _ = play_game("quatre_bras", seed=2, max_turns=5)
    v = RS.view(st, Viewer("player", "red"))
    assert v["turn"]["side"] == st["side"] and "blue" not in v["standing"]
    assert state_from_view(v)["units"].keys() == st["units"].keys()
    assert bot_orders(state_from_view(v), st["side"]) == bot_orders(st, st["side"])
    svg = RS.render_svg(v)
    assert svg.startswith("<svg") and "Quatre Bras" in svg and "NEY" in svg
    assert all(isinstance(line, str) for line in v["log"])
