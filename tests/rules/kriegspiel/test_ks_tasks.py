"""Engineers' and arsonists' tasks in play, and driving depots (KS-18, KS-20, KS-38, KS-54, KS-56)."""

import pytest

from rules.kriegspiel import pace
from rules.kriegspiel.scenario import load
from rules.littlewars.table import table_of

RIVER = {"id": "brook", "type": "river", "polygon": [[0, 60], [96, 60], [96, 64], [0, 64]]}
BRIDGE = {"id": "bridge1", "type": "bridge", "polygon": [[40, 58], [46, 58], [46, 66], [40, 66]]}


def scenario():
    sc = load("ks_farm")
    sc["terrain"] = sc["terrain"] + [RIVER, BRIDGE]
    sc["kriegspiel"]["engineers"] = {"red": ["foot2"]}
    return load(sc)


@pytest.fixture
def g(new_game):
    game = new_game(scenario())
    game.deploy()
    return game


def test_only_engineers_blow_bridges(g):
    g.place({f"red:i{k}": (41 + k * 0.3, 56.5) for k in range(1, 3)})
    g.turn(red="split foot1 2 as pioneers nearest 41,56\ndemolish pioneers bridge1")
    assert "needs Royal Engineers (KS-54)" in g.rejected["red"][0].message


def test_engineers_blow_and_rebuild_a_bridge(g):
    g.place({f"red:i{k}": (40 + (k - 10) * 0.6, 56.5) for k in range(11, 21)})  # foot2, the engineers
    assert pace.arm_of(g.state, "red:i11") == "eng" and pace.speed(g.state, "red:i11") == 24  # KS-18: 2 ft
    evs = g.turn(red="demolish foot2 bridge1")
    assert not g.rejected["red"] and not [e for e in evs if e.type == "kriegspiel.work_completed"]
    evs = g.turn()
    done = [e for e in evs if e.type == "kriegspiel.work_completed"]
    assert len(done) == 1 and done[0].audience == "public" and done[0].payload["target"] == "bridge1"
    assert "bridge1" not in {t["id"] for t in g.state["scenario"]["terrain"]}
    assert "bridge1" in g.state["ks"]["blown"]
    assert table_of(g.state["scenario"]).path("inf", (43, 50), (43, 70)) != [(43, 50), (43, 70)]  # no way straight over
    assert "blue blew" not in g.rs.describe_event(done[0].type, done[0].payload)
    g.turn(red="restore foot2 bridge1")
    for _ in range(8):
        g.turn()
    assert "bridge1" in g.state["ks"]["blown"]
    g.turn()  # the tenth turn (KS-54)
    assert "bridge1" in {t["id"] for t in g.state["scenario"]["terrain"]} and not g.state["ks"]["blown"]


def test_one_man_burns_a_depot_in_two_turns(g):
    g.place({"red:c1": (47, 284)})  # a raider beside blue's wagons at (48, 286)
    g.turn(red="burn c1 at 48.4,283.9")
    assert "no enemy depot within 2 in of 48.4,283.9" in g.rejected["red"][0].message
    g.turn(red="burn c1 at 48,285")
    assert not g.rejected["red"] and "wagons" in g.state["ks"]["supply"]["blue"]["depots"]
    evs = g.turn()
    assert [e.payload["target"] for e in evs if e.type == "kriegspiel.work_completed"] == ["wagons"]
    assert g.state["ks"]["supply"]["blue"]["depots"] == {}
    g.turn()
    status = g.state["ks"]["supply"]["blue"]["status"]
    assert not status["horse"]["can_move"]  # no forage for blue's horse now (KS-52)


def test_driving_a_depot_at_the_transport_pace(g):
    g.turn(red="drive wagons to 48,8.5")  # 6.5 in off the road: more than 1/2 ft
    assert "out of range" in g.rejected["red"][0].message
    evs = g.turn(red="drive wagons to 48,8")
    assert not g.rejected["red"]
    report = [e for e in evs if e.type == "kriegspiel.works" and e.payload["side"] == "red"][0]
    assert report.audience == "side:red" and report.payload["depots"] == {"wagons": [48.0, 8.0]}
    ledger = [e for e in evs if e.type == "kriegspiel.supplied" and e.payload["side"] == "red"][0].payload
    assert ledger["draws"] == [] and "KS-38" in ledger["groups"]["horse"]["missing"]["forage"]
    assert g.state["ks"]["supply"]["red"]["depots"]["wagons"]["y"] == 8


def test_four_men_empty_six_wagons_a_turn(new_game):
    sc = scenario()
    sc["kriegspiel"]["supply"]["blue"][0]["wagons"] = 12
    g = new_game(load(sc))
    g.deploy()
    food = g.state["ks"]["supply"]["blue"]["depots"]["wagons"]["food"]
    g.place({f"red:c{k}": (47 + k * 0.25, 285) for k in range(1, 5)})  # four raiders at blue's wagons
    g.turn(red="form raiders from c1, c2, c3, c4\nempty raiders at 48,285")
    assert not g.rejected["red"]
    depot = g.state["ks"]["supply"]["blue"]["depots"]["wagons"]
    assert depot["wagons"] == 6 and depot["food"] <= food // 2 + 1  # half the stores gone (KS-57)
    g.turn(red="split raiders 1 as lone\nempty lone at 48,285")
    assert "wagons destroy needs 4 figures; 1 given" in g.rejected["red"][0].message
    g.turn(red="merge lone into raiders\nempty raiders at 48,285")
    assert "wagons" not in g.state["ks"]["supply"]["blue"]["depots"]  # the last six emptied
