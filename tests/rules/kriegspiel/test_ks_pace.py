"""The appendix's pace for planned paths (pace.py): rates, boxes, slopes, fords."""

from rules.kriegspiel import pace


def test_cavalry_three_feet_infantry_one(game):
    st = game.state
    assert pace.move_error(st, "red:c1", [(24, 6), (24, 42)]) is None  # 3 ft (KS-16)
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
    err = pace.move_error(st, "red:i1", path)  # 12 in + 1 ft for the level: 2 ft for a 1 ft pace
    assert err.startswith("out of range: i1's move costs 2.00 ft") and "KS-23/24" in err
    assert pace.move_error(st, "red:c1", path) is None  # cavalry: 2 ft of its 3
    # over it and down again: 26 in + 12 up + 6 down = 44 in, more than cavalry's 36
    assert pace.move_error(st, "red:c1", [(4, 150), (30, 150)]).startswith("out of range: c1's move costs 3.67 ft")


def test_columns_on_the_road_and_the_half_turn_to_form(game):
    # the lane runs along y = 144 (2 in wide); KS-DT-9: cavalry in column on a road 4.5 ft (c2: c1 is the general)
    st = game.state
    road = [(54, 144), (96, 144)]  # 42 in along the lane
    assert "may cover 3.00 ft" in pace.move_error(st, "red:c2", road)
    assert pace.move_error(st, "red:c2", road, reforming={}) is not None
    game.turn(red="column horse")
    st = game.state
    assert set(st["ks"]["columns"]["red"]) == {f"red:c{k}" for k in range(1, 13)}
    assert pace.move_error(st, "red:c2", road) is None  # 42 in: half as fast again (54)
    assert pace.move_error(st, "red:c2", [(54, 120), (96, 120)]) is not None  # off the road: 3 ft
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
    assert pace.move_error(st, "red:c1", [(26, 144), (96, 144)]) is None  # 70 in along the lane: 6 ft a turn
    assert "may cover 3.00 ft" in pace.move_error(st, "red:c2", [(26, 144), (96, 144)])  # a trooper: 3 ft (no column)
    assert "may cover 3.00 ft" in pace.move_error(st, "red:c1", [(24, 100), (64, 100)])  # off the road
    assert pace.speed(st, "red:c1") == 36


def test_in_play_the_appendix_pace_replaces_the_main_part(game):
    game.turn(red="move horse to 24,42")  # 3 ft: the appendix's cavalry (KS-16), not 2 ft
    assert not game.rejected["red"]
    assert all(game.state["figures"][f"red:c{k}"]["y"] > 40 for k in range(1, 7))
    game.turn(red="move horse to 24,80")  # 38 in
    assert "out of range: c1's move costs 3.17 ft" in game.rejected["red"][0].message
    game.turn(red="box foot1")
    game.turn(red="move foot1 to 16,39")  # 3 ft: a box walks three times as fast
    assert not game.rejected["red"]
    ys = [game.state["figures"][i]["y"] for i in game.state["groups"]["red"]["foot1"]]
    assert min(ys) > 38


def test_in_play_a_column_on_a_road_and_the_knoll(new_game):
    from rules.kriegspiel.scenario import load

    sc = load("ks_farm")
    sc["terrain"].append({"id": "high-road", "type": "road", "line": [[0, 60], [96, 60]], "width": 3})
    game = new_game(load(sc))
    game.deploy()
    game.place({f"red:c{k}": (75 + k * 1.25, 60) for k in range(2, 7)})
    game.turn(red="split horse 5 as troop nearest 80,60")
    game.turn(red="move troop to 30,60")  # 50 in on the road: too far for cavalry in line
    assert "may cover 3.00 ft" in game.rejected["red"][0].message
    game.turn(red="column troop")
    game.turn(red="move troop to 30,60")  # in column: 4.5 ft on a road (KS-17, KS-DT-9)
    assert not game.rejected["red"], game.rejected["red"]
    assert round(sum(game.state["figures"][f"red:c{k}"]["x"] for k in range(2, 7)) / 5, 3) == 30
    game.place({f"red:i{k}": (13.25 + k * 0.75, 156) for k in range(1, 11)})
    game.turn(red="move foot1 to 17.375,149")  # 7 in, but up onto the knoll: a foot for the level
    assert game.rejected["red"][0].message.startswith("out of range: i1's move costs 1.58 ft")
