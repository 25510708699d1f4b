"""What a rule set offers when a game is created: its shipped scenarios and its game options."""

import pytest

from rules import catalog
from rules.core.protocol import ScenarioError


@pytest.mark.parametrize("name", catalog.names())
def test_every_listed_scenario_loads_by_its_name_and_the_default_comes_first(name):
    rs = catalog.get(name)
    listed = rs.scenarios()
    for scenario, title in listed:
        loaded = rs.load_scenario(scenario)
        assert loaded["name"] == scenario and title == (loaded.get("title") or scenario)
    if listed:
        assert rs.load_scenario(None)["name"] == listed[0][0]


def test_napoleon_optional_troops_are_game_options_merged_into_the_scenario():
    rs = catalog.get("napoleon")
    assert {o.name for o in rs.game_options} == {
        "skirmishers",
        "light_infantry",
        "light_cavalry",
        "horse_artillery",
        "dragoons",
        "cavalry_leaders",
    }
    loaded = rs.load_scenario(rs.with_options("mill_ford", {"dragoons": True, "cavalry_leaders": True}))
    assert loaded["name"] == "mill_ford" and loaded["options"] == ["cavalry_leaders", "dragoons"]
    assert rs.with_options("mill_ford", {}) == "mill_ford"
    default = rs.load_scenario(rs.with_options(None, {"skirmishers": True}))
    assert default["name"] == "quatre_bras" and "skirmishers" in default["options"]
    with pytest.raises(ScenarioError, match="options.lancers: unknown option"):
        rs.with_options("mill_ford", {"lancers": True})


def test_a_rule_set_without_options_refuses_one():
    rs = catalog.get("warworlds")
    assert rs.game_options == () and rs.with_options("town_assault", {}) == "town_assault"
    with pytest.raises(ScenarioError, match="options.dragoons: unknown option"):
        rs.with_options("town_assault", {"dragoons": True})
