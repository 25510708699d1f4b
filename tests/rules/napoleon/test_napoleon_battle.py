"""A strategic battle fought as a Napoleon's War game (RULES.md "A strategic battle on this map"):
the scenario built from a battle, and the finished game read back, both ways of the conversion."""

import random

import pytest

from rules.core.battles import PLACE_KINDS
from rules.core.protocol import ScenarioError, Tactical
from rules.napoleon.ruleset import RULESET as RS
from rules.napoleon.tactical import battle_result, brigades_for, figures_for
from rules.napoleon.testing import bot_orders, play_turn


def battle(kind="town", red=("R6_7", "R7_8", "R7_12"), blue=(("C7", 1), ("R7_13", 0.5))):
    return {
        "id": "B1",
        "place": {"id": "C7", "name": "Riverton", "kind": kind},
        "attacker": "red",
        "defender": "blue",
        "forces": {
            "red": [{"unit": u, "strength": 1} for u in red],
            "blue": [{"unit": u, "strength": s} for u, s in blue],
        },
    }


def laid(b):
    state = RS.initial_state()
    for ev in RS.setup(RS.load_scenario(RS.battle_scenario(b)), random.Random(1)):
        state = RS.fold(state, ev.type, ev.payload)
    return state


def test_troops_from_strength():
    assert isinstance(RS, Tactical)
    assert [figures_for(s) for s in (1, 0.5, 0.6, 0.1, 1.5, 2, 10)] == [4, 2, 2, 1, 6, 8, 40]
    assert [brigades_for(s) for s in (0.1, 1, 1.5, 2, 2.25, 2.5)] == [[1], [4], [3, 3], [4, 4], [3, 3, 3], [4, 3, 3]]
    b = battle(red=("R6_7", "R7_8", "R7_12"), blue=(("C7", 1.5), ("R7_13", 0.5)))
    sc = RS.battle_scenario(b)
    units = {u["id"]: u for u in sc["units"]}
    red = [(u["id"], u["arm"], u["figures"], u["name"]) for u in sc["units"] if u["side"] == "red"]
    assert red == [
        ("R1", "infantry", 4, "R6_7"),
        ("R2", "infantry", 4, "R7_8"),
        ("R3", "infantry", 4, "R7_12"),
        ("RA1", "artillery", 3, "Battery 1"),
        ("RA2", "artillery", 3, "Battery 2"),  # a battery for every started pair of units
    ]
    blue = [(u["id"], u["figures"], u["name"]) for u in sc["units"] if u["side"] == "blue"]
    assert blue == [("B1", 3, "C7 (1)"), ("B2", 3, "C7 (2)"), ("B3", 2, "R7_13"), ("BA1", 3, "Battery 1")]
    assert sc["battle"]["units"] == {
        "red": {"R1": "R6_7", "R2": "R7_8", "R3": "R7_12"},
        "blue": {"B1": "C7", "B2": "C7", "B3": "R7_13"},
    }
    assert [(x["id"], x["side"], x["level"], x["at"]) for x in sc["leaders"]] == [
        ("RGEN", "red", 2, units["R1"]["at"]),
        ("BGEN", "blue", 2, units["B1"]["at"]),
    ]
    assert sc["first"] == "red" and sc["turns"] == 10 and sc["caps"] == {"red": 3, "blue": 3}
    # the attacker on the south rows, the defender on the north
    assert {u["at"][2:] for u in sc["units"] if u["side"] == "red"} <= {"09", "10"}
    assert {u["at"][2:] for u in sc["units"] if u["side"] == "blue"} <= {"01", "02"}


def test_a_big_force_widens_the_field_and_earns_more_command():
    sc = RS.battle_scenario(battle(red=tuple(f"U{i}" for i in range(12))))  # 12 brigades + 6 batteries
    assert sc["map"]["cols"] == 11 and sc["caps"]["red"] == 9
    RS.load_scenario(sc)


def play(state, seed=1, limit=60):
    n = 0
    while state["result"] is None and n < limit:
        state, _ = play_turn(state, bot_orders(state, state["side"]), seed * 1000 + n)
        n += 1
    return state


@pytest.mark.parametrize("kind", PLACE_KINDS)
def test_every_ground_makes_a_valid_map_that_plays_to_a_result(kind):
    b = battle(kind, red=tuple(f"R{i}" for i in range(6)))
    state = laid(b)
    assert state["scenario"]["battle"]["units"]["red"]["R1"] == "R0"  # setup keeps the record
    assert len(state["scenario"]["objectives"]) == 1
    assert battle_result(state) is None
    end = play(state)
    res = battle_result(end)
    assert res is not None and res["winner"] in ("red", "blue", None)
    assert end["turn"] <= 10
    assert set(res["strength_left"]["red"]) == {f"R{i}" for i in range(6)}
    assert set(res["strength_left"]["blue"]) == {"C7", "R7_13"}
    assert all(0 <= v <= 1 for side in res["strength_left"].values() for v in side.values())
    assert res["lost"] == {s: sorted(u for u, v in res["strength_left"][s].items() if v < 0.5) for s in ("red", "blue")}


def test_the_crossing_is_a_stream_with_a_bridge_on_the_road():
    m = RS.load_scenario(RS.battle_scenario(battle("crossing")))["map"]
    assert list(m["sides"].values()).count("bridge") == 1
    assert m["sides"]["0506/0505"] == "bridge" and m["hexes"]["0505"]["road"] and m["hexes"]["0506"]["road"]
    assert len(m["sides"]) == 2 * 10 - 1  # every hexside between rows 5 and 6: nobody walks round it


def with_figures(state, figures, destroyed=()):
    units = {uid: dict(u) for uid, u in state["units"].items()}
    for uid, n in figures.items():
        units[uid]["figures"] = n
    for uid in destroyed:
        units[uid].update(figures=0, status="destroyed", hex=None)
    return units


def test_losses_read_back_by_the_figures_each_unit_came_with():
    # blue C7 (1.5) is B1 + B2 of 3 figures each; R7_13 (0.5) is B3 of 2
    state = laid(battle(blue=(("C7", 1.5), ("R7_13", 0.5))))
    # red R1 (R6_7): 2 of 4 left keeps it; R2 (R7_8): 1 of 4 loses it; batteries count for nobody
    units = with_figures(state, {"R1": 2, "R2": 1, "B1": 2, "B3": 1}, destroyed=("RA1", "B2"))
    over = {**state, "units": units, "result": {"winner": "red", "reason": "after 10 turns, 9 to 4", "score": {}}}
    res = battle_result(over)
    assert res["strength_left"] == {
        "red": {"R6_7": 0.5, "R7_8": 0.25, "R7_12": 1.0},
        "blue": {"C7": 0.333, "R7_13": 0.5},  # 2 of 6 (B2 destroyed); 1 of 2
    }
    assert res["lost"] == {"red": ["R7_8"], "blue": ["C7"]}
    assert res["prisoners"] == {"red": 0, "blue": 0} and res["guns_captured"] == {"red": 0, "blue": 0}
    assert res["winner"] == "red" and res["reason"] == "after 10 turns, 9 to 4"


def test_a_draw_at_the_turn_limit_is_no_ones_win():
    state = laid(battle())
    over = {**state, "result": {"winner": None, "reason": "after 10 turns, 3 to 3 points", "score": {}}}
    assert battle_result(over)["winner"] is None


def test_a_battle_that_does_not_fit_is_refused_naming_the_field():
    bad = battle()
    bad["place"]["kind"] = "swamp"
    with pytest.raises(ScenarioError, match="battle.place.kind"):
        RS.battle_scenario(bad)
    bad = battle()
    bad["forces"]["blue"] = []
    with pytest.raises(ScenarioError, match="battle.forces.blue"):
        RS.battle_scenario(bad)
    bad = battle()
    bad["forces"]["red"][0]["strength"] = 0
    with pytest.raises(ScenarioError, match=r"forces.red\[0\].strength"):
        RS.battle_scenario(bad)
    huge = battle()
    huge["forces"]["red"] = [{"unit": f"U{i}", "strength": 10} for i in range(20)]  # 200 brigades
    with pytest.raises(ScenarioError, match="battle.forces.red"):  # more than the widest map holds
        RS.battle_scenario(huge)
    sc = RS.battle_scenario(battle())
    sc["battle"]["units"]["red"]["B1"] = "C7"
    with pytest.raises(ScenarioError, match="battle.units.red.B1"):
        RS.load_scenario(sc)


def test_an_ordinary_game_is_no_battle_and_loads_as_before():
    state = RS.initial_state()
    for ev in RS.setup(RS.load_scenario(None), random.Random(1)):
        state = RS.fold(state, ev.type, ev.payload)
    assert "battle" not in state["scenario"]
    assert battle_result({**state, "result": {"winner": "red", "reason": "x", "score": {}}}) is None
