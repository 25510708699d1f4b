"""Trains and boats carrying troops in play (KS-22, KS-28/29, KS-87..89, LW-71/72)."""

import pytest

from rules.core.protocol import ScenarioError
from rules.kriegspiel.scenario import load

RIVER = {"id": "canal", "type": "river", "polygon": [[0, 200], [96, 200], [96, 206], [0, 206]]}


def scenario(wagons=2):
    sc = load("ks_farm")
    sc["terrain"] = sc["terrain"] + [RIVER]
    sc["kriegspiel"].update(
        railways=[{"id": "line1", "line": [[80, 0], [80, 150], [90, 288]]}],
        trains={"red": [{"name": "train1", "at": [80, 10], "wagons": wagons}]},
        boats={"blue": [{"name": "barge", "at": [40, 203]}]},
    )
    return load(sc)


@pytest.fixture
def g(new_game):
    game = new_game(scenario())
    game.deploy()
    game.place({f"red:i{k}": (78 + (k % 5) * 0.6, 8 + (k // 5) * 0.6) for k in range(1, 11)})
    return game


def test_board_ride_and_land(g):
    g.turn(red="board foot1 on train1")
    assert not g.rejected["red"]
    assert g.state["ks"]["vehicles"]["red:train1"]["aboard"] == []  # 10 figures: two turns (KS-28/88)
    evs = g.turn()
    report = [e for e in evs if e.type == "kriegspiel.works" and e.payload["side"] == "red"][0]
    assert report.audience == "side:red" and len(report.payload["loaded"][0]["boarded"]) == 10
    assert "10 boarded train1" in g.rs.describe_event(report.type, report.payload)
    assert len(g.state["ks"]["vehicles"]["red:train1"]["aboard"]) == 10
    g.turn(red="move foot1 to 70,10")
    assert "aboard train1: land first" in g.rejected["red"][0].message
    g.turn(red="steam train1 to 80,106")  # 8 ft along the line (KS-87)
    assert not g.rejected["red"]
    assert {(g.state["figures"][f"red:i{k}"]["x"], g.state["figures"][f"red:i{k}"]["y"]) for k in range(1, 11)} == {
        (80.0, 106.0)
    }
    g.turn(red="steam train1 to 80,150\nland train1 at 84,106")  # the first line runs, the second not
    assert [e.line for e in g.rejected["red"]] == [2] and "already has an order" in g.rejected["red"][0].message
    assert g.state["ks"]["vehicles"]["red:train1"]["y"] == 150
    g.turn(red="land train1 at 84,150")  # 10 figures: one turn (KS-29)
    assert g.state["ks"]["vehicles"]["red:train1"]["aboard"] == []
    assert all(abs(g.state["figures"][f"red:i{k}"]["y"] - 150) < 3 for k in range(1, 11))
    g.turn(red="move foot1 to 84,156")
    assert not g.rejected["red"]


def test_a_train_keeps_to_its_line_its_pace_and_its_load(g):
    g.turn(red="steam train1 to 70,40")
    assert "not on train1's railway" in g.rejected["red"][0].message
    g.turn(red="steam train1 to 80,110")
    assert "a train runs 8 ft a turn" in g.rejected["red"][0].message
    g.place({f"red:c{k}": (79 + k * 0.2, 12) for k in range(1, 13)})
    g.turn(red="board foot1 on train1")
    g.turn()
    g.turn(red="board horse on train1")  # 12 cavalry need 3 more wagons
    assert "2 wagon(s); 22 figures need 4" in g.rejected["red"][0].message
    g.turn(red="board foot2 on train1")
    assert "figures board from within 4 in" in g.rejected["red"][0].message


def test_boats_move_on_water_only(new_game):
    g = new_game(scenario())
    g.deploy()
    g.turn(blue="steam barge to 52,203")
    assert not g.rejected["blue"] and g.state["ks"]["vehicles"]["blue:barge"]["x"] == 52
    g.turn(blue="steam barge to 52,190")
    assert "boats move on water only" in g.rejected["blue"][0].message
    g.turn(blue="steam barge to 65,203")
    assert "out of range" in g.rejected["blue"][0].message


def test_a_shell_on_the_train_destroys_it_and_all_aboard(g):
    from rules.kriegspiel.state import fold

    g.turn(red="board foot1 on train1")
    g.turn()
    st = fold(
        g.state,
        "kriegspiel.blast",
        {"turn": 3, "guns_destroyed": [], "guns_out": [], "wagons": {}, "generals_out": [], "vehicles": ["red:train1"]},
    )
    assert "red:train1" not in st["ks"]["vehicles"]
    assert all(st["figures"][f"red:i{k}"]["st"] == "dead" for k in range(1, 11))
    assert "red:i1" not in st["groups"]["red"].get("foot1", [])


def test_the_scenario_places_trains_on_rails_and_boats_on_water():
    sc = scenario()
    sc["kriegspiel"]["trains"]["red"][0]["at"] = [60, 10]
    with pytest.raises(ScenarioError, match="kriegspiel.trains.red\\[0\\].at: must be on a railway"):
        load(sc)
    sc = scenario()
    sc["kriegspiel"]["trains"]["red"][0]["wagons"] = 9
    with pytest.raises(ScenarioError, match="an engine pulls 1 to 8 wagons"):
        load(sc)
    sc = scenario()
    sc["kriegspiel"]["boats"]["blue"][0]["at"] = [40, 190]
    with pytest.raises(ScenarioError, match="must be on a river"):
        load(sc)


def test_soldiers_break_and_repair_the_rails_and_no_train_passes_a_break(g):
    """LW-73 (no engineers among them): 4 soldiers break the rails in 2 turns, 8 repair them in 3;
    a train cannot run past (or onto) the broken stretch until then (KS-55 gives engineers 1 and 5)."""
    g.place({f"red:i{k}": (78.8 + (k % 5) * 0.6, 39.4 + (k // 5) * 0.6) for k in range(1, 11)})
    g.turn(red="break foot1 rail9 at 80,40")
    assert "no railway 'rail9' (railways: line1)" in g.rejected["red"][0].message
    g.turn(red="break foot1 line1 at 70,40")
    assert "not on railway line1" in g.rejected["red"][0].message
    g.turn(red="break foot1 line1 at 80.4,40")
    assert not g.rejected["red"]
    assert g.state["ks"]["breaks"] == {}
    evs = g.turn()
    (done,) = [e for e in evs if e.type == "kriegspiel.work_completed"]
    assert done.audience == "public" and done.payload["target"] == "line1@80,40"
    assert "broke the rails of line1@80,40" in g.rs.describe_event(done.type, done.payload)
    assert g.state["ks"]["breaks"] == {"line1": [[80.0, 40.0]]}
    blue = g.view("blue")
    assert blue["kriegspiel"]["rail_breaks"] == {"line1": [[80.0, 40.0]]}
    assert "rails of line1 broken" in g.rs.render_svg(blue)
    g.turn(red="steam train1 to 80,100")
    assert "the rails of line1 are broken at 80,40" in g.rejected["red"][0].message
    assert g.state["ks"]["vehicles"]["red:train1"]["y"] == 10
    g.turn(red="steam train1 to 80,39.5")  # onto the break: no
    assert "broken at 80,40" in g.rejected["red"][0].message
    g.turn(red="steam train1 to 80,30")  # short of it: yes
    assert not g.rejected["red"] and g.state["ks"]["vehicles"]["red:train1"]["y"] == 30
    g.turn(red="break foot1 line1 at 80,40.5")
    assert "already broken at 80,40" in g.rejected["red"][0].message
    g.turn(red="repair foot1 line1 at 80,45")
    assert "not broken within 1 in of 80,45" in g.rejected["red"][0].message
    g.turn(red="repair foot1 line1 at 80,40.5")  # 10 soldiers: 3 turns (LW-73)
    assert not g.rejected["red"]
    g.turn()
    assert g.state["ks"]["breaks"] == {"line1": [[80.0, 40.0]]}
    g.turn()
    assert g.state["ks"]["breaks"] == {}
    g.turn(red="steam train1 to 80,100")
    assert not g.rejected["red"] and g.state["ks"]["vehicles"]["red:train1"]["y"] == 100
