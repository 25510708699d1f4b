"""Whole games: both scenarios played to a scored end, replayable; the rule set's contract."""

import pytest

from rules import catalog
from rules.core.protocol import ScenarioError, Viewer
from rules.kingsofwar import RULESET as KW
from rules.kingsofwar.scoring import final_result
from rules.kingsofwar.testing import bot_orders, make_scenario, play_to_end, start


@pytest.mark.parametrize("name", ["pitched", "objectives"])
def test_scenario_played_to_a_scored_end(name):
    state, events = play_to_end(name, seed=f"kw-{name}")
    res = KW.result(state)
    assert res is not None and KW.next_turn(state).sides == ()
    assert res["reason"] and "score" in res
    if res["winner"]:
        assert res["winner"] in ("red", "blue")
    kinds = {e.type.split(".")[1] for e in events}
    assert {"unit_charged", "fight", "shot", "nerve_test", "turn_ended", "game_over"} <= kinds
    if name == "objectives":
        assert len(res["score"]["held"]) == 3
    again, events2 = play_to_end(name, seed=f"kw-{name}")
    assert [(e.type, dict(e.payload)) for e in events2] == [(e.type, dict(e.payload)) for e in events]


def test_alternating_turns_and_rounds():
    s = start("pitched")
    assert KW.turn_mode == "alternating" and KW.next_turn(s).sides == ("red",)
    from rules.kingsofwar.testing import play

    s, _ = play(s, "red", bot_orders(s, "red"))
    assert KW.next_turn(s).sides == ("blue",) and s["round"] == 1
    s, _ = play(s, "blue", bot_orders(s, "blue"))
    assert KW.next_turn(s).sides == ("red",) and s["round"] == 2


def test_points_victory_after_the_last_round():
    s = start(
        make_scenario(
            [("r1", "spearmen", 20, 8, 90), ("b1", "axe band", 20, 40, 270), ("b2", "bowmen", 50, 40, 270)], rounds=1
        )
    )
    s["units"]["b2"]["status"] = "routed"
    s["round"] = 2
    res = final_result(s)
    assert res["winner"] == "red" and res["score"]["routed_points"] == {"red": 95, "blue": 0}


def test_objectives_victory_counts_steady_uncontested_units():
    s = start(
        make_scenario(
            [("r1", "spearmen", 20, 20, 90), ("b1", "axe band", 50, 28, 270), ("b2", "bowmen", 60, 40, 270)],
            rounds=1,
            victory="objectives",
            objectives=[(20, 22), (50, 30), (5, 45)],
        )
    )
    s["round"] = 2
    res = final_result(s)
    assert res["score"]["held"] == ["red", "blue", None] and res["winner"] is None  # 1-1, no routs: draw
    s["units"]["b1"]["status"] = "wavering"
    assert final_result(s)["winner"] == "red"


def test_scenario_errors_name_the_field():
    bad = make_scenario([("r1", "trolls", 20, 8, 90)])
    with pytest.raises(ScenarioError, match=r"units\[0\]: kingdom has no unit type 'trolls'"):
        KW.load_scenario(bad)
    with pytest.raises(ScenarioError, match="unknown scenario 'nope'"):
        KW.load_scenario("nope")
    with pytest.raises(ScenarioError, match=r"units\[1\]: r2 overlaps r1"):
        KW.load_scenario(make_scenario([("r1", "spearmen", 20, 8, 90), ("r2", "spearmen", 21, 8, 90)]))


def test_view_and_svg_draw_units_arcs_and_damage():
    s = start("pitched")
    s["units"]["b1"]["damage"] = 3
    view = KW.view(s, Viewer("observer"))
    assert len(view["units"]) == 16 and view["units"][0]["profile"]["sp"]
    svg = KW.render_svg(view)
    assert svg.startswith("<svg") and svg.count('class="unit ') == 16 and 'id="unit-b1"' in svg
    assert "✕3" in svg and svg.count('class="arc front"') == 16 and 'class="terrain difficult"' in svg


def test_registered_and_describes_every_event():
    assert "kingsofwar" in catalog.names() and catalog.get("kingsofwar") is KW
    state, events = play_to_end("pitched", seed="describe", max_turns=4)
    for e in events:
        line = KW.describe_event(e.type, e.payload)
        assert line and line != e.type.split(".")[1]


@pytest.mark.parametrize("seed", range(4))
def test_games_keep_the_invariants(seed):
    for name in ("pitched", "objectives"):
        state, _ = play_to_end(name, seed=f"inv{seed}", check=True)
        assert state["result"] is not None


def test_invariants_catch_overlaps_and_the_table_edge():
    s = start(make_scenario([("r1", "spearmen", 20, 8, 90), ("b1", "axe band", 50, 40, 270)]))
    assert KW.check_invariants(s) == []
    s["units"]["b1"].update(x=21, y=6, facing=90)
    assert KW.check_invariants(s) == ["b1 overlaps r1"]
    s["units"]["b1"]["status"] = "routed"  # a routed unit has left the field
    s["units"]["r1"]["x"] = 1
    assert KW.check_invariants(s) == ["r1 is off the table"]


def test_a_player_knowing_only_its_view_orders_as_with_the_whole_state():
    """What the API and mail bots order from their view is what they would order from the state."""
    from rules.kingsofwar.testing import play, state_from_view

    s = start("objectives")
    for n in range(6):
        side = KW.next_turn(s).sides[0]
        view = KW.view(s, Viewer(role="player", side=side))
        text = bot_orders(state_from_view(view), side)
        assert text == bot_orders(s, side)
        s, _ = play(s, side, text, f"view:{n}")
