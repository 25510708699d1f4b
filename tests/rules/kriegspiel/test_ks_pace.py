"""The appendix's pace for planned paths (pace.py): rates, boxes, slopes, fords."""
from rules.littlewars.kriegspiel import pace


def test_cavalry_three_feet_infantry_one(game):
    st = game.state
    assert pace.move_error(st, "red:c1", [(24, 6), (24, 42)]) is None            # 3 ft (KS-16)
    err = pace.move_error(st, "red:c1", [(24, 6), (24, 43)])
    assert err.startswith("out of range: c1's move costs 3.08 ft") and "may cover 3.00 ft" in err
    assert pace.move_error(st, "red:i1", [(16, 3), (16, 15)]) is None
    assert pace.move_error(st, "red:i1", [(16, 3), (16, 15.5)]) is not None
    assert pace.speed(st, "red:c1") == 36 and pace.speed(st, "red:i1") == 12


def test_a_box_walks_three_times_as_far(game):
    game.turn(red="box foot1")
    st = game.state
    assert pace.move_error(st, "red:i1", [(16, 3), (16, 39)]) is None
    assert "in a box" in pace.move_error(st, "red:i1", [(16, 3), (16, 39.5)])
    assert pace.speed(st, "red:i1") == 36 and pace.speed(st, "red:i11") == 12


def test_climbing_the_knoll_costs(game):
    # ks_farm's knoll (level 1) spans x 11.5..19 at y = 150: walking 12 in onto it climbs one level
    st = game.state
    path = [(4, 150), (16, 150)]
    err = pace.move_error(st, "red:i1", path)                 # 12 in + 1 ft for the level: 2 ft for a 1 ft pace
    assert err.startswith("out of range: i1's move costs 2.00 ft") and "KS-23/24" in err
    assert pace.move_error(st, "red:c1", path) is None        # cavalry: 2 ft of its 3
    # over it and down again: 26 in + 12 up + 6 down = 44 in, more than cavalry's 36
    assert pace.move_error(st, "red:c1", [(4, 150), (30, 150)]).startswith("out of range: c1's move costs 3.67 ft")


def test_columns_on_the_road_and_the_half_turn_to_form(game):
    # the lane runs along y = 144 (2 in wide); KS-DT-9: cavalry in column on a road 4.5 ft (c2: c1 is the general)
    st = game.state
    road = [(54, 144), (96, 144)]                                   # 42 in along the lane
    assert "may cover 3.00 ft" in pace.move_error(st, "red:c2", road)
    assert pace.move_error(st, "red:c2", road, reforming={}) is not None
    game.turn(red="column horse")
    st = game.state
    assert set(st["ks"]["columns"]["red"]) == {f"red:c{k}" for k in range(1, 7)}
    assert pace.move_error(st, "red:c2", road) is None              # 42 in: half as fast again (54)
    assert pace.move_error(st, "red:c2", [(54, 120), (96, 120)]) is not None   # off the road: 3 ft
    # changing formation takes half the turn (KS-31): 18 in left
    assert pace.move_error(st, "red:c2", [(10, 120), (28, 120)], reforming={"red:c2": False}) is None
    err = pace.move_error(st, "red:c2", [(10, 120), (29, 120)], reforming={"red:c2": False})
    assert "after changing formation (half a turn, KS-27/31)" in err
    game.turn(red="charge horse at 24,200")
    assert "in column: cavalry charge in line (KS-69)" in game.rejected["red"][0].message
    game.turn(red="column horse")
    assert "in column already" in game.rejected["red"][0].message
    game.turn(red="line horse")
    assert game.state["ks"]["columns"]["red"] == []


def test_the_general_goes_by_car(game):
    st = game.state
    assert pace.arm_of(st, "red:c1") == "general" and pace.arm_of(st, "red:c2") == "cav"
    assert pace.move_error(st, "red:c1", [(26, 144), (96, 144)]) is None           # 70 in along the lane: 6 ft a turn
    assert "may cover 3.00 ft" in pace.move_error(st, "red:c2", [(26, 144), (96, 144)])  # a trooper: 3 ft (no column)
    assert "may cover 3.00 ft" in pace.move_error(st, "red:c1", [(24, 100), (64, 100)])   # off the road
    assert pace.speed(st, "red:c1") == 36
