"""A strategic battle fought as a Kings of War game (RULES.md §11): the scenario built from a battle,
and the finished game read back, both ways of the conversion."""

import pytest

from rules.core.battles import PLACE_KINDS
from rules.core.protocol import ScenarioError, Tactical
from rules.kingsofwar.battle import battle_result, regiments_for
from rules.kingsofwar.ruleset import RULESET as RS
from rules.kingsofwar.testing import of, play, play_to_end, start


def battle(kind="town", red=(("R6_7", 2), ("R7_8", 1), ("R7_12", 1)), blue=(("C7", 1), ("R7_13", 0.5))):
    return {
        "id": "B1",
        "place": {"id": "C7", "name": "Riverton", "kind": kind},
        "attacker": "red",
        "defender": "blue",
        "forces": {
            "red": [{"unit": u, "strength": s} for u, s in red],
            "blue": [{"unit": u, "strength": s} for u, s in blue],
        },
    }


def test_troops_from_strength():
    assert isinstance(RS, Tactical)
    assert [regiments_for(s) for s in (1, 0.5, 0.4, 1.5, 2.4, 10)] == [1, 1, 1, 2, 2, 10]
    sc = RS.battle_scenario(battle())
    units = {s: [(u["id"], u["type"]) for u in sc["units"] if u["side"] == s] for s in ("red", "blue")}
    assert units["red"] == [
        ("r6_7", "spearmen"),
        ("r6_7-2", "spearmen"),
        ("r7_8", "spearmen"),
        ("r7_12", "spearmen"),
        ("red-engine1", "ballista"),  # a war engine for every started pair of units
        ("red-engine2", "ballista"),
    ]
    assert units["blue"] == [("c7", "spearmen"), ("r7_13", "spearmen"), ("blue-engine1", "ballista")]
    assert sc["battle"]["units"]["red"] == {"r6_7": "R6_7", "r6_7-2": "R6_7", "r7_8": "R7_8", "r7_12": "R7_12"}
    assert sc["armies"] == {"red": "kingdom", "blue": "kingdom"} and sc["first"] == "red"
    assert sc["rounds"] == 6 and sc["victory"] == "objectives" and len(sc["objectives"]) == 1
    assert all(u["y"] <= 12 for u in sc["units"] if u["side"] == "red")  # the deployment zones
    assert all(u["y"] >= 36 for u in sc["units"] if u["side"] == "blue")
    # the attacker, whichever it is, stands on the south edge and moves first
    flipped = {**battle(), "attacker": "blue", "defender": "red"}
    sc = RS.battle_scenario(flipped)
    assert sc["first"] == "blue" and all(u["y"] <= 12 for u in sc["units"] if u["side"] == "blue")
    assert start(sc)["to_move"] == "blue"


@pytest.mark.parametrize("kind", PLACE_KINDS)
def test_every_ground_makes_a_valid_table_that_plays_to_a_result(kind):
    b = battle(kind, red=tuple((f"R{i}", 1) for i in range(6)))
    state = start(RS.battle_scenario(b))  # load_scenario checks every base: on the table, clear, apart
    assert state["scenario"]["battle"]["id"] == "B1"  # kept by load, setup and fold
    assert {t["kind"] for t in state["scenario"]["terrain"]}
    assert battle_result(state) is None
    end, events = play_to_end(RS.battle_scenario(b), seed=f"battle-{kind}", check=True)
    assert of(events, "shot") or of(events, "fight")  # the bots fought it out
    assert end["phase"] == "over"
    res = battle_result(end)
    assert res is not None and res["winner"] in ("red", "blue", None)
    assert res["winner"] == end["result"]["winner"] and res["reason"] == end["result"]["reason"]
    assert set(res["strength_left"]["red"]) == {f"R{i}" for i in range(6)}
    assert set(res["strength_left"]["blue"]) == {"C7", "R7_13"}
    assert all(0 <= v <= 1 for side in res["strength_left"].values() for v in side.values())
    assert res["lost"] == {s: sorted(u for u, v in res["strength_left"][s].items() if v < 0.5) for s in ("red", "blue")}


def test_losses_read_back_by_the_regiments_each_unit_came_with():
    state = start(RS.battle_scenario(battle()))
    units = {uid: dict(u) for uid, u in state["units"].items()}
    units["r6_7"]["status"] = "routed"  # R6_7 is r6_7 and r6_7-2: one routed, one whole is half: kept
    units["r7_8"]["damage"] = 8  # 1 - 8/15 = 0.467: lost
    units["r7_12"]["damage"] = 7  # 1 - 7/15 = 0.533: kept
    units["c7"].update(damage=20)  # more damage than its Nerve, not routed: 0, never below
    units["blue-engine1"]["status"] = "routed"  # an engine is no strategic unit
    over = {**state, "units": units, "phase": "over", "result": {"winner": "red", "reason": "x", "score": {}}}
    res = battle_result(over)
    assert res["strength_left"] == {
        "red": {"R6_7": 0.5, "R7_8": 0.467, "R7_12": 0.533},
        "blue": {"C7": 0.0, "R7_13": 1.0},
    }
    assert res["lost"] == {"red": ["R7_8"], "blue": ["C7"]}
    assert res["prisoners"] == {"red": 0, "blue": 0} and res["guns_captured"] == {"red": 0, "blue": 0}
    assert res["winner"] == "red" and res["reason"] == "x"


def test_the_turn_limit_is_no_ones_win():
    """Both sides stand still for 6 rounds: nobody holds the place, nobody routed: a draw."""
    state = start(RS.battle_scenario(battle()))
    n = 0
    while RS.next_turn(state).sides:
        side = RS.next_turn(state).sides[0]
        state, _ = play(state, side, RS.default_orders(state, side), f"t{n}")
        n += 1
    assert n == 12 and state["result"]["winner"] is None
    res = battle_result(state)
    assert res["winner"] is None and "draw" in res["reason"]
    assert res["lost"] == {"red": [], "blue": []}


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
    bad = battle(blue=(("r7_8", 1),))  # reads as red's R7_8 on the table
    with pytest.raises(ScenarioError, match=r"battle.forces.blue\[0\].unit"):
        RS.battle_scenario(bad)


def test_an_ordinary_game_is_no_battle():
    state = start(None)
    assert battle_result({**state, "result": {"winner": "red", "reason": "x"}}) is None
    assert battle_result(RS.initial_state()) is None
