"""A strategic battle fought as a War of the Worlds game (RULES.md "A strategic battle on this map"):
the scenario built from a battle, and the finished game read back, both ways of the conversion."""

import random

import pytest

from rules.core.battles import PLACE_KINDS
from rules.core.protocol import ScenarioError, Tactical
from rules.warworlds.ruleset import RULESET as RS
from rules.warworlds.tactical import battle_result, models_for, soldiers_for, squads_for
from rules.warworlds.testing import bot_orders, invariants, play_round


def battle(kind="town", red=("R6_7", "R7_8", "R7_12"), blue=(("C7", 1), ("R7_13", 0.5)), attacker="red"):
    return {
        "id": "B1",
        "place": {"id": "C7", "name": "Riverton", "kind": kind},
        "attacker": attacker,
        "defender": "blue" if attacker == "red" else "red",
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
    assert [soldiers_for(s) for s in (1, 0.04, 0.25, 0.5, 1.5, 2, 10)] == [10, 1, 3, 5, 15, 20, 100]
    assert [squads_for(s) for s in (0.5, 1, 1.5, 2, 2.5)] == [[5], [10], [8, 7], [10, 10], [9, 8, 8]]
    assert models_for(10) == {"rifle": 8, "lmg": 1, "officer": 1}  # the squads of field_battle
    assert models_for(4) == {"rifle": 3, "officer": 1} and models_for(1) == {"rifle": 1}
    sc = RS.battle_scenario(battle(blue=(("C7", 1.5), ("R7_13", 0.5))))
    red = [(u["id"], u["profile"], sum(u["models"].values()), u["name"]) for u in sc["units"] if u["side"] == "red"]
    assert red == [
        ("R1", "infantry", 10, "R6_7"),
        ("R2", "infantry", 10, "R7_8"),
        ("R3", "infantry", 10, "R7_12"),
        ("RG1", "infantry_artillery", 3, "Gun 1"),
        ("RG2", "infantry_artillery", 3, "Gun 2"),  # a gun for every started pair of units
    ]
    blue = [(u["id"], sum(u["models"].values()), u["name"]) for u in sc["units"] if u["side"] == "blue"]
    assert blue == [("B1", 8, "C7 (1)"), ("B2", 7, "C7 (2)"), ("B3", 5, "R7_13"), ("BG1", 3, "Gun 1")]
    assert sc["battle"]["units"] == {
        "red": {"R1": "R6_7", "R2": "R7_8", "R3": "R7_12"},
        "blue": {"B1": "C7", "B2": "C7", "B3": "R7_13"},
    }
    assert not any(u.get("hidden") for u in sc["units"]) and "deployment" not in sc
    assert sc["first"] == "red" and sc["turns"] == 8
    assert {u["at"][2:] for u in sc["units"] if u["side"] == "red"} <= {"09", "10"}
    assert {u["at"][2:] for u in sc["units"] if u["side"] == "blue"} <= {"01", "02"}
    # blue attacking: blue comes from the south and activates first
    sc = RS.battle_scenario(battle(attacker="blue"))
    assert sc["first"] == "blue" and {u["at"][2:] for u in sc["units"] if u["side"] == "blue"} <= {"09", "10"}


def play(state, seed=1, limit=200):
    n = 0
    while state["result"] is None and n < limit:
        texts = {s: bot_orders(state, s) for s in RS.next_turn(state).sides}
        state, _ = play_round(state, texts, seed * 1000 + n)
        assert invariants(state) == []
        n += 1
    return state


@pytest.mark.parametrize("kind", PLACE_KINDS)
def test_every_ground_makes_a_valid_map_that_plays_to_a_result(kind):
    b = battle(kind, red=tuple(f"R{i}" for i in range(6)))
    state = laid(b)
    assert state["phase"] == "play"  # no deployment round: nothing is hidden
    assert state["scenario"]["battle"]["units"]["red"]["R1"] == "R0"  # setup keeps the record
    assert battle_result(state) is None
    end = play(state)
    res = battle_result(end)
    assert res is not None and res["winner"] in ("red", "blue", None)
    assert end["turn"] <= 8
    assert set(res["strength_left"]["red"]) == {f"R{i}" for i in range(6)}
    assert set(res["strength_left"]["blue"]) == {"C7", "R7_13"}
    assert all(0 <= v <= 1 for side in res["strength_left"].values() for v in side.values())
    assert res["lost"] == {s: sorted(u for u, v in res["strength_left"][s].items() if v < 0.5) for s in ("red", "blue")}
    assert all(n >= 0 for n in res["prisoners"].values()) and all(n >= 0 for n in res["guns_captured"].values())


def test_an_even_fight_plays_to_a_result_too():
    state = laid(battle("crossing", red=("A", "B"), blue=(("C", 1), ("D", 1)), attacker="blue"))
    res = battle_result(play(state, seed=3))
    assert res is not None and set(res["strength_left"]["red"]) == {"A", "B"}


def test_the_river_is_crossed_only_at_the_bridge_and_the_ford():
    m = RS.load_scenario(RS.battle_scenario(battle("crossing")))["map"]
    row6 = {k: v["terrain"] for k, v in m["hexes"].items() if k.endswith("06")}
    assert len(row6) == 10 and row6["0506"] == "open" and row6["0206"] == "rough"
    assert [k for k, t in row6.items() if t != "water"] == ["0206", "0506"]
    assert m["hexes"]["0506"]["road"]


def test_losses_read_back_by_the_soldiers_each_unit_came_with():
    # blue C7 (1.5) is B1 (8) + B2 (7); R7_13 (0.5) is B3 (5)
    state = laid(battle(blue=(("C7", 1.5), ("R7_13", 0.5))))
    units = {uid: dict(u) for uid, u in state["units"].items()}
    units["R1"]["models"] = units["R1"]["models"][:5]  # R6_7: 5 of 10 keeps it
    units["R2"]["models"] = units["R2"]["models"][:4]  # R7_8: 4 of 10 loses it
    units["RG1"].update(models=[], status="destroyed")  # a gun counts for nobody
    units["B1"]["models"] = units["B1"]["models"][:6]
    units["B2"].update(models=units["B2"]["models"][:3], status="surrendered")  # 3 prisoners
    units["B3"].update(status="deserted")
    units["BG1"].update(models=units["BG1"]["models"][:2], status="surrendered")  # 2 more, and the gun
    over = {**state, "units": units, "result": {"winner": "red", "reason": "after 8 turns, 9 to 4", "score": {}}}
    res = battle_result(over)
    assert res["strength_left"] == {
        "red": {"R6_7": 0.5, "R7_8": 0.4, "R7_12": 1.0},
        "blue": {"C7": 0.4, "R7_13": 0.0},  # 6 of 15 (B2 surrendered); B3 deserted
    }
    assert res["lost"] == {"red": ["R7_8"], "blue": ["C7", "R7_13"]}
    assert res["prisoners"] == {"red": 5, "blue": 0} and res["guns_captured"] == {"red": 1, "blue": 0}
    assert res["winner"] == "red" and res["reason"] == "after 8 turns, 9 to 4"


def test_a_draw_at_the_turn_limit_is_no_ones_win():
    state = laid(battle())
    over = {**state, "result": {"winner": None, "reason": "after 8 turns, 3 to 3 points", "score": {}}}
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
    bad["forces"]["red"][0]["strength"] = 11
    with pytest.raises(ScenarioError, match=r"forces.red\[0\].strength"):
        RS.battle_scenario(bad)
    huge = battle()
    huge["forces"]["blue"] = [{"unit": f"U{i}", "strength": 10} for i in range(20)]  # 200 squads
    with pytest.raises(ScenarioError, match="battle.forces.blue"):  # more than the widest map holds
        RS.battle_scenario(huge)
    sc = RS.battle_scenario(battle())
    sc["battle"]["units"]["blue"]["R1"] = "R6_7"
    with pytest.raises(ScenarioError, match="battle.units.blue.R1"):
        RS.load_scenario(sc)


def test_an_ordinary_game_is_no_battle_and_loads_as_before():
    state = RS.initial_state()
    for ev in RS.setup(RS.load_scenario(None), random.Random(1)):
        state = RS.fold(state, ev.type, ev.payload)
    assert "battle" not in state["scenario"]
    assert battle_result({**state, "result": {"winner": "red", "reason": "x", "score": {}}}) is None
