"""A strategic battle fought as a Kriegspiel (RULES.md "A strategic battle on this table"): Little
Wars' scenario for the battle with a supply train a side, played under the appendix, and the finished
game read back by Little Wars' conversion."""

import random

import pytest

from rules.core.battles import PLACE_KINDS
from rules.core.protocol import ScenarioError, Tactical
from rules.kriegspiel.battle import battle_result, rations_for
from rules.kriegspiel.ruleset import RULESET as RS
from rules.kriegspiel.testing import play_bots
from rules.littlewars import battle as lw_battle


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


def test_troops_from_strength_are_little_wars_with_a_supply_train():
    assert isinstance(RS, Tactical)
    assert [rations_for(n) for n in (1, 5, 6, 15, 30)] == [1, 1, 2, 3, 6]
    sc = RS.battle_scenario(battle())
    lw = lw_battle.battle_scenario(battle())
    assert {k: v for k, v in sc.items() if k not in ("title", "kriegspiel")} == {
        k: v for k, v in lw.items() if k != "title"
    }  # the same table and troops
    assert sc["title"] == "Kriegspiel: Battle B1 at Riverton"
    assert [(g["name"], g["count"]) for g in sc["forces"]["blue"]["groups"]] == [("u-c7", 10), ("u-r7_13", 5)]
    assert len(sc["forces"]["red"]["guns"]) == 2 and sc["settings"]["max_turns"] == 12
    width, depth = sc["table"]["width"], sc["table"]["depth"]
    assert sc["kriegspiel"]["supply"] == {
        "red": [{"name": "train", "at": [width / 2, 1.0], "food": 6, "forage": 0, "ammo": 6}],  # 30 men
        "blue": [{"name": "train", "at": [width / 2, depth - 1.0], "food": 3, "forage": 0, "ammo": 3}],  # 15
    }
    loaded = RS.load_scenario(sc)
    assert loaded["settings"]["deployment"] == "curtain" and loaded["settings"]["blast"]  # KS-2
    assert loaded["battle"] == lw["battle"]


@pytest.mark.parametrize("kind", PLACE_KINDS)
def test_every_ground_makes_a_valid_table_that_plays_to_a_result(kind):
    b = battle(kind, red=tuple(f"R{i}" for i in range(6)))
    state = laid(b)  # load_scenario checks every default place and the depots
    assert state["scenario"]["battle"]["id"] == "B1" and state["ks"]["supply"]["red"]["on"]
    assert battle_result(state) is None
    end, events = play_bots(state, seed=2)
    assert any(e.type == "kriegspiel.supplied" and e.payload["draws"] for e in events)  # the appendix's ledger
    assert any(e.type in ("littlewars.fired", "littlewars.melee", "kriegspiel.charge") for e in events)
    res = battle_result(end)
    assert res is not None and res["winner"] in ("red", "blue", None)
    assert res["winner"] == end["result"]["winner"]
    assert set(res["strength_left"]["red"]) == {f"R{i}" for i in range(6)}
    assert all(0 <= v <= 1 for side in res["strength_left"].values() for v in side.values())
    assert res["lost"] == {s: sorted(u for u, v in res["strength_left"][s].items() if v < 0.5) for s in ("red", "blue")}


def test_losses_read_back_by_the_figures_each_unit_came_with():
    state = laid(battle())
    figs = {fid: dict(f) for fid, f in state["figures"].items()}
    # u-r6_7 is red:i1..i10: 5 dead keeps it (half left); u-r7_8 (i11..i20): 6 dead loses it
    for n in range(1, 6):
        figs[f"red:i{n}"]["st"] = "dead"
    for n in range(11, 17):
        figs[f"red:i{n}"]["st"] = "dead"
    # u-r7_13 is blue:i11..i15: two taken prisoner by red (a starved group's surrender too), three dead
    for n in (11, 12):
        figs[f"blue:i{n}"].update(st="pow", pow=["red", "pow1", False])
    for n in (13, 14, 15):
        figs[f"blue:i{n}"]["st"] = "dead"
    guns = {gid: dict(g) for gid, g in state["guns"].items()}
    guns["blue:gun1"]["owner"] = "red"
    over = {**state, "figures": figs, "guns": guns, "result": {"winner": "red", "reason": "x (LW-47)"}}
    res = battle_result(over)
    assert res["strength_left"] == {
        "red": {"R6_7": 0.5, "R7_8": 0.4, "R7_12": 1.0},
        "blue": {"C7": 1.0, "R7_13": 0.0},
    }
    assert res["lost"] == {"red": ["R7_8"], "blue": ["R7_13"]}
    assert res["prisoners"] == {"red": 2, "blue": 0} and res["guns_captured"] == {"red": 1, "blue": 0}
    assert res["winner"] == "red"


def test_the_turn_limit_is_no_ones_win():
    """Both sides hold for the 12 turns: the 100 is split, neither has won; the train feeds them all."""
    state = laid(battle())
    events, rounds = [], 0
    while RS.next_turn(state).sides:
        rounds += 1
        evs = RS.adjudicate(state, {s: RS.parse_orders(state, s, "hold").orders for s in RS.sides}, random.Random(0))
        for ev in evs:
            state = RS.fold(state, ev.type, ev.payload)
        events += evs
    assert rounds == 13 and "turn limit (12)" in state["result"]["reason"]  # the deployment, then 12 turns
    assert state["result"]["winner"] is None
    ledgers = [e.payload for e in events if e.type == "kriegspiel.supplied"]
    assert ledgers and all(not g["missing"] for led in ledgers for g in led["groups"].values())
    res = battle_result(state)
    assert res["winner"] is None and res["lost"] == {"red": [], "blue": []}


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
    bad = battle()
    bad["attacker"] = "green"
    with pytest.raises(ScenarioError, match="battle: attacker and defender"):
        RS.battle_scenario(bad)


def test_an_ordinary_game_is_no_battle():
    state = RS.initial_state()
    for ev in RS.setup(RS.load_scenario(None), random.Random(1)):
        state = RS.fold(state, ev.type, ev.payload)
    assert battle_result({**state, "result": {"winner": "red", "reason": "x"}}) is None
    assert battle_result(RS.initial_state()) is None
