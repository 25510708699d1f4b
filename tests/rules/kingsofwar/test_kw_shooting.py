"""Shooting through a whole turn: range ties, moving, cover, Nerve after the phase (KW-23..44, KW-DT-3/5)."""

from rules.kingsofwar.testing import errors, make_scenario, of, play, start


def test_range_is_measured_from_the_leader_point_with_ties_in_range_kw_dt_5():
    s = start(
        make_scenario(
            [("r1", "archers", 36, 6, 90), ("b1", "axe band", 36, 30, 270), ("b2", "axe band", 50, 30.1, 270)]
        )
    )
    assert errors(s, "red", "r1 shoot b1") == []
    s = start(make_scenario([("r1", "archers", 36, 6, 90), ("b1", "axe band", 36, 30.1, 270)]))
    assert "beyond r1's bow range of 24 in (KW-28)" in errors(s, "red", "r1 shoot b1")[0].message


def test_moving_costs_one_except_thrown_weapons_kw_37_dt_3_ex_6():
    s = start(
        make_scenario(
            [
                ("r1", "archers", 20, 10, 90),
                ("r2", "outriders", 40, 10, 90),
                ("b1", "axe band", 20, 25, 270),
                ("b2", "axe band", 40, 18, 270),
            ]
        )
    )
    s, ev = play(s, "red", "r1 advance 2\nr1 shoot b1\nr2 advance 1\nr2 shoot b2")
    shots = {p["unit"]: p for p in of(ev, "shot")}
    assert shots["r1"]["moved"] is True and shots["r1"]["needed"] == 6  # Ra 5+, moved: 6+
    assert shots["r2"]["moved"] is False and shots["r2"]["needed"] == 5  # pistols: no penalty
    assert shots["r1"]["dice"] == 8 and shots["r2"]["dice"] == 8


def test_cover_and_moving_together_halve_the_dice_kw_dt_1():
    wood = {"id": "wood", "kind": "difficult", "height": 3, "polygon": [[16, 24], [24, 24], [24, 30], [16, 30]]}
    s = start(make_scenario([("r1", "archers", 20, 8, 90), ("b1", "axe band", 20, 25, 270)], [wood]))
    s, ev = play(s, "red", "r1 advance 1\nr1 shoot b1")
    (shot,) = of(ev, "shot")
    assert shot["cover"] is True and shot["moved"] is True
    assert shot["needed"] == 6 and shot["dice"] == 4  # 5+ -1 -1 = 7: 6s with half of 8 dice


def test_shooting_needs_front_arc_and_a_ranged_attack_kw_29():
    s = start(
        make_scenario([("r1", "archers", 20, 8, 270), ("r2", "spearmen", 40, 8, 90), ("b1", "axe band", 20, 25, 270)])
    )
    assert "not in r1's front arc" in errors(s, "red", "r1 shoot b1")[0].message
    assert "has no ranged attack" in errors(s, "red", "r2 shoot b1")[0].message


def test_no_sight_at_resolution_is_reported_and_nerve_once_per_damaged_unit_kw_44():
    s = start(
        make_scenario(
            [
                ("r1", "crossbowmen", 20, 8, 90),
                ("r2", "archers", 28, 8, 90),
                ("r3", "ballista", 36, 8, 90),
                ("b1", "axe band", 24, 26, 270),
            ]
        )
    )
    for seed in range(30):
        s2, ev = play(s, "red", "r1 shoot b1\nr2 shoot b1\nr3 shoot b1", seed=f"volley{seed}")
        if sum(p["damage"] for p in of(ev, "shot")) >= 2:
            break
    assert len(of(ev, "shot")) == 3
    assert [n["unit"] for n in of(ev, "nerve_test")] == ["b1"]
    assert s2["units"]["b1"]["damage"] == sum(p["damage"] for p in of(ev, "shot"))
    nt = of(ev, "nerve_test")[0]
    assert nt["total"] == sum(nt["dice"]) + s2["units"]["b1"]["damage"]


def test_wavering_unit_may_only_halt_or_pivot():
    s = start(make_scenario([("r1", "archers", 20, 8, 90), ("b1", "axe band", 20, 25, 270)]))
    s = dict(s, units=dict(s["units"], r1=dict(s["units"]["r1"], status="wavering")))
    assert "wavering" in errors(s, "red", "r1 shoot b1")[0].message
    assert "wavering" in errors(s, "red", "r1 advance 2")[0].message
    assert errors(s, "red", "r1 advance 0 pivot left 30") == []
    s, _ = play(s, "red", "r1 halt")
    assert s["units"]["r1"]["status"] == "steady"  # its wavering turn is spent


def test_doubtful_cover_is_rolled_in_the_turn_kw_35_ex_8():
    house = {"id": "house", "kind": "impassable", "height": 4, "polygon": [[20, 19], [30, 19], [30, 21], [20, 21]]}
    s = start(make_scenario([("r1", "archers", 30, 10, 90), ("b1", "axe band", 30, 30, 270)], [house]))
    dice = set()
    for seed in range(12):
        _, ev = play(s, "red", "r1 shoot b1", seed=f"doubt{seed}")
        (shot,) = of(ev, "shot")
        assert shot["cover_die"] in range(1, 7) and shot["cover"] is (shot["cover_die"] <= 3)
        assert shot["needed"] == (6 if shot["cover"] else 5)
        dice.add(shot["cover"])
    assert dice == {True, False}


def test_arc_reading_is_a_scenario_option():
    # the target lies just under 45 degrees out from r1's front-right corner: front by the diagonals (38.7), flank by 45
    sc = make_scenario([("r1", "archers", 30, 10, 90), ("b1", "axe band", 44, 20, 180)])
    assert "not in r1's front arc" in errors(start(sc), "red", "r1 shoot b1")[0].message
    sc["arcs"] = "diagonal"
    assert errors(start(sc), "red", "r1 shoot b1") == []


def test_a_unit_in_contact_may_not_shoot_kw_27():
    s = start(
        make_scenario([("r1", "archers", 36, 30, 90), ("b1", "axe band", 36, 30, 270), ("b2", "axe band", 50, 40, 270)])
    )
    assert "in contact with the enemy and may not shoot (KW-27)" in errors(s, "red", "r1 shoot b2")[0].message
