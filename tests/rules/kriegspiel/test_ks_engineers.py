"""Engineers, demolition and transport (KS-36, KS-54..57, KS-28/29, KS-88, LW-71..73)."""

import pytest

from rules.kriegspiel import engineers as e

ARMS = {
    "e1": "eng",
    "e2": "eng",
    "i1": "inf",
    "i2": "inf",
    "i3": "inf",
    "i4": "inf",
    "i5": "inf",
    "i6": "inf",
    "i7": "inf",
    "i8": "inf",
}


def test_engineer_tasks_take_the_appendix_times():
    assert e.task_turns("bridge_destroy", ["e1"], ARMS, set()) == 2
    assert e.task_turns("bridge_restore", ["e1"], ARMS, set()) == 10
    assert e.task_turns("rail_destroy", ["e1"], ARMS, set()) == 1
    assert e.task_turns("rail_restore", ["e1"], ARMS, set()) == 5
    with pytest.raises(e.TaskError, match="KS-54"):
        e.task_turns("bridge_destroy", ["i1", "i2"], ARMS, set())
    with pytest.raises(e.TaskError, match="KS-36"):
        e.task_turns("rail_destroy", ["e1"], ARMS, {"e1"})


def test_soldiers_without_engineers_use_the_main_part_rule_for_rails():
    # LW-73: 4 soldiers destroy rails in 2 turns, 8 restore them in 3
    assert e.task_turns("rail_destroy", ["i1", "i2", "i3", "i4"], ARMS, set()) == 2
    assert e.task_turns("rail_restore", [f"i{k}" for k in range(1, 9)], ARMS, set()) == 3
    with pytest.raises(e.TaskError, match="LW-73"):
        e.task_turns("rail_restore", ["i1", "i2", "i3"], ARMS, set())


def test_depots_and_wagons():
    assert e.task_turns("depot_burn", ["i1"], ARMS, set()) == 2  # KS-56, whatever its size
    assert e.task_turns("wagons_destroy", ["i1", "i2", "i3", "i4"], ARMS, set()) == 1
    with pytest.raises(e.TaskError, match="needs 4"):
        e.task_turns("wagons_destroy", ["i1", "i2", "i3"], ARMS, set())
    assert [e.wagons_emptied(n) for n in (3, 4, 7, 8)] == [0, 6, 6, 12]  # KS-57
    with pytest.raises(e.TaskError, match="unknown task"):
        e.task_turns("tea", ["i1"], ARMS, set())


def test_trains_and_boats():
    # LW-71: 12 infantry, 5 cavalry or half a gun a wagon; LW-72: an engine pulls 8
    assert e.wagons_for(inf=24) == 2 and e.wagons_for(inf=25) == 3
    assert e.wagons_for(cav=5) == 1 and e.wagons_for(guns=3) == 6
    assert e.engines_for(e.wagons_for(inf=80, cav=20, guns=2)) == 2  # 7 + 4 + 4 = 15 wagons
    # KS-28/29/88: board 20 per 2 turns, land 20 a turn
    assert [e.boarding_turns(n) for n in (1, 20, 21, 40)] == [2, 2, 4, 4]
    assert [e.landing_turns(n) for n in (1, 20, 21)] == [1, 1, 2]
    with pytest.raises(e.TaskError):
        e.wagons_for(inf=-1)
