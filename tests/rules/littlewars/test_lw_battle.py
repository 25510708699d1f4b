"""A strategic battle fought as a Little Wars game (RULES.md §14): the scenario built from a battle,
and the finished game read back, both ways of the conversion."""

import random

import pytest

from rules.core.battles import PLACE_KINDS
from rules.core.protocol import ScenarioError, Tactical
from rules.littlewars.battle import battle_result, figures_for
from rules.littlewars.ruleset import RULESET as RS
from rules.littlewars.testing import play_bots


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
    assert [figures_for(s) for s in (1, 0.5, 0.25, 0.04, 2)] == [10, 5, 3, 1, 20]
    sc = RS.battle_scenario(battle())
    red, blue = sc["forces"]["red"], sc["forces"]["blue"]
    assert [(g["name"], g["count"]) for g in red["groups"]] == [("u-r6_7", 10), ("u-r7_8", 10), ("u-r7_12", 10)]
    assert [(g["name"], g["count"]) for g in blue["groups"]] == [("u-c7", 10), ("u-r7_13", 5)]
    assert len(red["guns"]) == 2 and len(blue["guns"]) == 1  # a gun for every started pair of units
    assert sc["edges"] == {"red": "south", "blue": "north"} and sc["settings"]["max_turns"] == 12


@pytest.mark.parametrize("kind", PLACE_KINDS)
def test_every_ground_makes_a_valid_table_that_plays_to_a_result(kind):
    b = battle(kind, red=tuple(f"R{i}" for i in range(6)))
    state = laid(b)  # load_scenario checks every default place: on the table, clear of scenery, deployed
    assert {t["type"] for t in state["scenario"]["terrain"]}
    assert battle_result(state) is None
    end, _ = play_bots(state, seed=2)
    res = battle_result(end)
    assert res is not None and res["winner"] in ("red", "blue", None)
    assert set(res["strength_left"]["red"]) == {f"R{i}" for i in range(6)}
    assert all(0 <= v <= 1 for side in res["strength_left"].values() for v in side.values())


def test_losses_read_back_by_the_figures_each_unit_came_with():
    state = laid(battle())
    figs = {fid: dict(f) for fid, f in state["figures"].items()}
    # u-r6_7 is red:i1..i10: 5 dead keeps it (half left); u-r7_8 (i11..i20): 6 dead loses it
    for n in range(1, 6):
        figs[f"red:i{n}"]["st"] = "dead"
    for n in range(11, 17):
        figs[f"red:i{n}"]["st"] = "dead"
    # u-r7_13 is blue:i11..i15: two taken prisoner by red, three dead: lost
    for n in (11, 12):
        figs[f"blue:i{n}"].update(st="pow", pow=["red", "pow1", False])
    for n in (13, 14, 15):
        figs[f"blue:i{n}"]["st"] = "dead"
    guns = {gid: dict(g) for gid, g in state["guns"].items()}
    guns["blue:gun1"]["owner"] = "red"
    over = {**state, "figures": figs, "guns": guns, "result": {"winner": "red", "reason": "x (LW-47)"}}
    res = battle_result(over)
    assert res["strength_left"]["red"] == {"R6_7": 0.5, "R7_8": 0.4, "R7_12": 1.0}
    assert res["lost"] == {"red": ["R7_8"], "blue": ["R7_13"]}
    assert res["prisoners"] == {"red": 2, "blue": 0} and res["guns_captured"] == {"red": 1, "blue": 0}
    assert res["winner"] == "red"


def test_the_turn_limit_is_no_ones_win():
    state = laid(battle())
    over = {**state, "result": {"winner": None, "reason": "the turn limit (12) was reached: the 100 is split"}}
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


def test_an_ordinary_game_is_no_battle():
    state = RS.initial_state()
    for ev in RS.setup(RS.load_scenario(None), random.Random(1)):
        state = RS.fold(state, ev.type, ev.payload)
    assert battle_result({**state, "result": {"winner": "red", "reason": "x"}}) is None
