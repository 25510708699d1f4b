"""Trains and boats carrying troops in play (KS-22, KS-28/29, KS-87..89, LW-71/72)."""
import pytest

from rules.core.protocol import ScenarioError
from rules.littlewars.kriegspiel.scenario import load

RIVER = {"id": "canal", "type": "river", "polygon": [[0, 200], [96, 200], [96, 206], [0, 206]]}


def scenario(wagons=2):
    sc = load("ks_farm")
    sc["terrain"] = sc["terrain"] + [RIVER]
    sc["kriegspiel"].update(railways=[{"id": "line1", "line": [[80, 0], [80, 150], [90, 288]]}],
                            trains={"red": [{"name": "train1", "at": [80, 10], "wagons": wagons}]},
                            boats={"blue": [{"name": "barge", "at": [40, 203]}]})
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
    assert g.state["ks"]["vehicles"]["red:train1"]["aboard"] == []      # 10 figures: two turns (KS-28/88)
    evs = g.turn()
    report = [e for e in evs if e.type == "kriegspiel.works" and e.payload["side"] == "red"][0]
    assert report.audience == "side:red" and len(report.payload["loaded"][0]["boarded"]) == 10
    assert "10 boarded train1" in g.rs.describe_event(report.type, report.payload)
    assert len(g.state["ks"]["vehicles"]["red:train1"]["aboard"]) == 10
    g.turn(red="move foot1 to 70,10")
    assert "aboard train1: land first" in g.rejected["red"][0].message
    g.turn(red="steam train1 to 80,106")                                  # 8 ft along the line (KS-87)
    assert not g.rejected["red"]
    assert {(g.state["figures"][f"red:i{k}"]["x"], g.state["figures"][f"red:i{k}"]["y"])
            for k in range(1, 11)} == {(80.0, 106.0)}
    g.turn(red="steam train1 to 80,150\nland train1 at 84,106")         # the first line runs, the second not
    assert [e.line for e in g.rejected["red"]] == [2] and "already has an order" in g.rejected["red"][0].message
    assert g.state["ks"]["vehicles"]["red:train1"]["y"] == 150
    g.turn(red="land train1 at 84,150")                                   # 10 figures: one turn (KS-29)
    assert g.state["ks"]["vehicles"]["red:train1"]["aboard"] == []
    assert all(abs(g.state["figures"][f"red:i{k}"]["y"] - 150) < 3 for k in range(1, 11))
    g.turn(red="move foot1 to 84,156")
    assert not g.rejected["red"]


def test_a_train_keeps_to_its_line_its_pace_and_its_load(g):
    g.turn(red="steam train1 to 70,40")
    assert "not on train1's railway" in g.rejected["red"][0].message
    g.turn(red="steam train1 to 80,110")
    assert "a train runs 8 ft a turn" in g.rejected["red"][0].message
    g.place({f"red:c{k}": (79 + k * 0.2, 12) for k in range(1, 7)})
    g.turn(red="board foot1 on train1")
    g.turn()
    g.turn(red="board horse on train1")                                   # 6 cavalry need 2 more wagons
    assert "2 wagon(s); 16 figures need 3" in g.rejected["red"][0].message
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
    from rules.littlewars.kriegspiel.state import fold

    g.turn(red="board foot1 on train1")
    g.turn()
    st = fold(g.state, "kriegspiel.blast", {"turn": 3, "guns_destroyed": [], "guns_out": [], "wagons": {},
                                            "generals_out": [], "vehicles": ["red:train1"]})
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
