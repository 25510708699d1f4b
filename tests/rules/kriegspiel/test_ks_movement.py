"""Movement rates, roads, slopes, fords and task times (KS-15..39, KS-87; T-KS-1, T-KS-2)."""

import pytest

from rules.kriegspiel.movement import Ground, MoveError, allowance, check, climb, move_and_fire, task_half_turns

ROAD = {"type": "road", "line": [[0, 5], [200, 5]], "width": 2}
RIVER = {"type": "river", "polygon": [[0, 40], [200, 40], [200, 44], [0, 44]]}
FORD = {"type": "ford", "polygon": [[50, 39], [54, 39], [54, 45], [50, 45]]}


def hill(level, x0, x1):
    return {"type": "hill", "level": level, "polygon": [[x0, 20], [x1, 20], [x1, 30], [x0, 30]]}


@pytest.mark.parametrize(
    "arm,feet",
    [("inf", 1), ("cav", 3), ("eng", 2), ("art", 2), ("transport", 0.5), ("general", 3), ("boat", 1), ("train", 8)],
)
def test_rates_off_road(arm, feet):
    assert allowance(arm) == feet * 12


def test_road_rates_and_columns():
    # KS-DT-9: cavalry in column of fours on a road 4.5 ft, infantry 1.5 ft; KS-20/21 transport 1 ft, general 6 ft
    assert allowance("cav", road=True, column=True) == 54
    assert allowance("inf", road=True, column=True) == 18
    assert allowance("inf", road=True) == 12  # not in column: no bonus
    assert allowance("transport", road=True) == 12
    assert allowance("general", road=True) == 72
    assert allowance("eng", road=True, column=True) == 24  # only infantry and cavalry march in column


def test_half_turn_tasks_halve_and_whole_turn_tasks_use_the_move():
    assert task_half_turns("form") == 1 and task_half_turns("limber") == 1
    assert task_half_turns("mount") == 2 and task_half_turns("ford") == 2
    assert allowance("cav", half_turns=task_half_turns("form")) == 18
    assert allowance("cav", half_turns=task_half_turns("mount")) == 0
    with pytest.raises(MoveError, match="unknown task"):
        task_half_turns("dance")


def test_climbing_costs_a_foot_a_level_and_descending_half():
    g = Ground([hill(1, 10, 200), hill(2, 20, 200)])
    # KS-DT-10: infantry climbing one level has no horizontal movement left
    with pytest.raises(MoveError, match="out of range"):
        check(g, "inf", [(9.9, 25), (10.1, 25)])
    assert climb(g, [(5, 25), (15, 25)])[:2] == (1, 0)
    # cavalry climbing 2 levels has 1 ft left: 12 in horizontal plus 24 in of climbing
    assert check(g, "cav", [(8, 25), (20, 25)]) == pytest.approx(36)
    with pytest.raises(MoveError):
        check(g, "cav", [(7.9, 25), (20, 25)])
    # descending 2 levels costs 1 ft
    assert check(g, "cav", [(21, 25), (9, 25)]) == pytest.approx(12 + 12)


def test_four_levels_within_a_foot_is_impassable_off_the_road():
    steep = [hill(k, 10 + 2 * k, 200) for k in range(1, 5)]  # 4 levels within 8 in
    g = Ground(steep)
    with pytest.raises(MoveError, match="KS-25"):
        check(g, "cav", [(10, 25), (20, 25)])
    road = {"type": "road", "line": [[0, 25], [200, 25]], "width": 2}
    g = Ground(steep + [road])
    up, down, is_steep = climb(g, [(10, 25), (20, 25)])
    assert up == 4 and not is_steep  # by road it may be climbed (if the rate allows)


def test_fording_takes_the_turn_and_guns_engineers_wagons_cannot():
    g = Ground([RIVER, FORD])
    assert check(g, "inf", [(52, 38), (52, 46)]) == 8
    with pytest.raises(MoveError, match="whole turn"):
        check(g, "cav", [(52, 30), (52, 46)])
    for arm in ("art", "eng", "transport"):
        with pytest.raises(MoveError, match="cannot cross rivers"):
            check(g, arm, [(52, 38), (52, 46)])


def test_boats_and_trains_keep_to_water_and_rails():
    g = Ground([RIVER, {"type": "railway", "line": [[0, 80], [200, 80]], "width": 1}])
    assert check(g, "boat", [(10, 42), (20, 42)]) == 10
    with pytest.raises(MoveError, match="water only"):
        check(g, "boat", [(10, 30), (20, 30)])
    assert check(g, "train", [(0, 80), (96, 80)]) == 96
    with pytest.raises(MoveError, match="railway only"):
        check(g, "train", [(0, 70), (96, 70)])


def test_no_unit_moves_and_fires():
    assert move_and_fire({"a", "b"}, {"b", "c"}) == ["b"]


def test_no_move_and_fire_through_orders(game):
    for _ in range(2):
        game.turn()
    game.turn(red="move foot1 to 16,5\nvolley foot1 at 16,50")
    assert any("KS-35" in e.message for e in game.rejected["red"])


def test_steep_slopes_bar_everyone_by_default_or_only_wheels_by_choice():
    """KS-25: the seed bars everyone; the English original only wheels (kriegspiel.steep_slopes: "wheels")."""
    from rules.core.protocol import ScenarioError
    from rules.kriegspiel.movement import cost, steep_bars
    from rules.kriegspiel.scenario import load

    seed = load("ks_farm")
    english = load({**seed, "kriegspiel": {**seed["kriegspiel"], "steep_slopes": "wheels"}})
    assert seed["kriegspiel"]["steep_slopes"] == "everyone"
    assert all(steep_bars(seed, arm) for arm in ("inf", "cav", "art", "transport"))
    assert [steep_bars(english, arm) for arm in ("inf", "cav", "eng", "art", "transport", "general")] == [
        False,
        False,
        False,
        True,
        True,
        True,
    ]
    g = Ground([hill(k, 10 + 2 * k, 200) for k in range(1, 5)])  # 4 levels within 8 in
    c, _ = cost(g, "inf", [(10, 25), (20, 25)], steep_bars=False)  # climbable on foot: 10 in + 4 levels
    assert c == pytest.approx(10 + 4 * 12)
    with pytest.raises(MoveError, match="KS-25"):
        cost(g, "art", [(10, 25), (20, 25)], steep_bars=steep_bars(english, "art"))
    bad = {"name": "x", **{k: v for k, v in seed.items() if k != "name"}, "kriegspiel": {"steep_slopes": "horses"}}
    with pytest.raises(ScenarioError, match="kriegspiel.steep_slopes"):
        load(bad)
