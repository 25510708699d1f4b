"""Charges and melee: massed charges (KW-1..5, KW-EX-1), counter-charges (KW-6..9), hindered
charges (KW-49/50), flank and rear (KW-47, KW-DT-4), the fight, Nerve and Regroup (KW-45..53)."""

import pytest

from rules.kingsofwar import geom
from rules.kingsofwar.testing import errors, make_scenario, of, play, start

TARGET = ("b1", "trolls", 36, 30, 270)  # front edge on y=30, facing south; 100 mm wide like the chargers
ROUGH = {"id": "scrub", "kind": "difficult", "height": 0, "polygon": [[20, 28.5], [52, 28.5], [52, 31], [20, 31]]}


def test_three_equal_frontages_two_charge_the_third_is_refused_kw_ex_1():
    s = start(
        make_scenario(
            [("r1", "spearmen", 30, 24, 90), ("r2", "spearmen", 36, 24, 90), ("r3", "spearmen", 42, 24, 90), TARGET]
        )
    )
    errs = errors(s, "red", "r1 charge b1\nr2 charge b1\nr3 charge b1")
    assert [e.line for e in errs] == [3] and "corner to corner" in errs[0].message
    s2, ev = play(s, "red", "r1 charge b1\nr2 charge b1\nr3 charge b1")
    charged = of(ev, "unit_charged")
    assert [c["unit"] for c in charged] == ["r1", "r2"] and {c["side"] for c in charged} == {"front"}
    b1 = geom.base(s["units"]["b1"])
    placed = {c["unit"]: dict(s["units"][c["unit"]], x=c["x"], y=c["y"], facing=c["facing"]) for c in charged}
    for u in placed.values():
        assert u["facing"] == 90 and abs(u["y"] - 30) < 1e-6  # flush with the front edge
        contact = geom.base(u).intersection(b1)
        assert contact.length > 1.9  # they share the side: no corner contacts
    assert geom.base(placed["r1"]).intersection(geom.base(placed["r2"])).area < 1e-6


def test_two_narrow_units_share_the_side_evenly_kw_2():
    wide = ("b1", "giant", 36, 30, 270)  # 75 mm: narrower than one charger
    s = start(make_scenario([("r1", "skirmishers", 33, 24, 90), ("r2", "skirmishers", 39, 24, 90), wide]))
    assert errors(s, "red", "r1 charge b1\nr2 charge b1") == []


def test_crossing_charge_paths_are_refused_kw_5():
    s = start(make_scenario([("r1", "knights", 31, 16, 90), ("r2", "spearmen", 33, 26, 90), TARGET]))
    errs = errors(s, "red", "r2 charge b1\nr1 charge b1")
    assert [e.line for e in errs] == [2] and "would cross r2's (KW-5)" in errs[0].message


def test_charge_needs_front_arc_sight_and_reach():
    s = start(make_scenario([("r1", "spearmen", 36, 24, 270), ("r2", "spearmen", 60, 10, 90), TARGET]))
    assert "not in r1's front arc" in errors(s, "red", "r1 charge b1")[0].message
    assert "beyond its charge reach of 10 in" in errors(s, "red", "r2 charge b1")[0].message
    house = {"id": "house", "kind": "impassable", "height": 4, "polygon": [[33, 26], [39, 26], [39, 27], [33, 27]]}
    s2 = start(make_scenario([("r1", "spearmen", 36, 22, 90), TARGET], [house]))
    assert "cannot see b1" in errors(s2, "red", "r1 charge b1")[0].message


def test_flank_doubles_and_rear_triples_the_attacks_kw_47_dt_4():
    flank = start(make_scenario([("r1", "spearmen", 44, 31.5, 180), TARGET]))
    s, ev = play(flank, "red", "r1 charge b1")
    (fight,) = of(ev, "fight")
    assert fight["rolls"][0]["side"] == "left" and fight["rolls"][0]["dice"] == 20
    rear = start(make_scenario([("r1", "spearmen", 36, 40, 270), TARGET]))
    s, ev = play(rear, "red", "r1 charge b1")
    (fight,) = of(ev, "fight")
    assert fight["rolls"][0]["side"] == "rear" and fight["rolls"][0]["dice"] == 30


def test_hindered_charge_and_counter_charge_never_hindered_kw_49_50_dt_4():
    s = start(make_scenario([("r1", "spearmen", 36, 24, 90), TARGET], [ROUGH]))
    s, ev = play(s, "red", "r1 charge b1")
    (c,) = of(ev, "unit_charged")
    assert c["hindered"] is True
    (fight,) = of(ev, "fight")
    assert fight["rolls"][0]["needed"] == 5 and fight["rolls"][0]["hindered"]  # Me 4+ and -1 (KW-EX-7)
    assert s["units"]["b1"]["status"] != "routed" and of(ev, "fell_back")[0]["unit"] == "r1"  # KW-45
    assert s["units"]["b1"]["charged_by"] == ["r1"]
    s, ev = play(s, "blue", "b1 counter-charge r1")
    (c,) = of(ev, "unit_charged")
    assert c["counter"] is True and c["hindered"] is False
    assert of(ev, "fight")[0]["rolls"][0]["needed"] == 3  # trolls Me 3+, never hindered


def test_counter_charge_only_against_a_unit_that_charged_kw_6_7():
    s = start(
        make_scenario(
            [("r1", "spearmen", 36, 24, 90), ("r2", "spearmen", 10, 10, 90), TARGET, ("b2", "axe band", 60, 40, 270)]
        )
    )
    s, _ = play(s, "red", "r1 charge b1")
    assert "only a unit that charged it" in errors(s, "blue", "b1 counter-charge r2")[0].message
    assert "only a unit that charged it" in errors(s, "blue", "b2 counter-charge r1")[0].message
    # r1 is not in b1's front arc... or anywhere: a counter-charge needs neither sight nor arc (KW-7)
    assert errors(s, "blue", "b1 counter-charge r1") == []
    s, _ = play(s, "blue", "b1 halt")
    s, _ = play(s, "red", "r1 halt")
    assert "only a unit that charged it" in errors(s, "blue", "b1 counter-charge r1")[0].message  # next turn only


def test_counter_charge_into_the_rear_needs_no_arc_kw_7():
    s = start(make_scenario([("r1", "spearmen", 36, 24, 90), TARGET]))
    s, _ = play(s, "red", "r1 charge b1")
    s = dict(s, units=dict(s["units"], b1=dict(s["units"]["b1"], facing=90, y=28)))  # b1 turned away (test only)
    assert errors(s, "blue", "b1 counter-charge r1") == []


def test_routed_target_leaves_and_chargers_regroup():
    weak = ("b1", "spear throwers", 36, 30, 270)  # 40 mm deep troop, Nerve 12/14
    for seed in range(40):
        s = start(make_scenario([("r1", "ogre guard", 30, 24, 90), ("r2", "foot guard", 42, 24, 90), weak]))
        s, ev = play(s, "red", "r1 charge b1\nr2 charge b1", seed=f"rout{seed}")
        if s["units"]["b1"]["status"] == "routed":
            break
    else:
        pytest.fail("no rout in 40 seeds")
    assert {r["unit"] for r in of(ev, "regrouped")} == {"r1", "r2"} and not of(ev, "fell_back")
    assert of(ev, "nerve_test")[0]["outcome"] == "routed"
    assert s["result"]["winner"] == "red"  # blue has nothing left


def test_one_fight_per_target_one_nerve_test_kw_46_53():
    s = start(make_scenario([("r1", "spearmen", 30, 24, 90), ("r2", "spearmen", 36, 24, 90), TARGET]))
    s, ev = play(s, "red", "r1 charge b1\nr2 charge b1", seed="fight")
    (fight,) = of(ev, "fight")
    assert fight["attackers"] == ["r1", "r2"] and len(fight["rolls"]) == 2
    assert s["units"]["b1"]["damage"] == fight["damage"]
    assert len(of(ev, "nerve_test")) == (1 if fight["damage"] else 0)
