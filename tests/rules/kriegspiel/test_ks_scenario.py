"""Kriegspiel scenarios: the kriegspiel block is checked with errors that name the field."""

import copy

import pytest

from rules.core.protocol import ScenarioError
from rules.kriegspiel.scenario import builtin_names, load
from rules.littlewars.scenario import load as lw_load


def test_builtin_and_little_wars_scenarios_load():
    assert builtin_names() == ["ks_farm"]
    sc = load(None)
    assert sc["name"] == "ks_farm" and sc["kriegspiel"]["generals"] == {"red": "red:c1", "blue": "blue:c1"}
    assert load("skirmish")["kriegspiel"] == {
        "supply": {},
        "scouts": {},
        "generals": {},
        "engineers": {},
        "railways": [],
        "trains": {},
        "boats": {},
        "general_eye": False,
        "steep_slopes": "everyone",
    }


@pytest.mark.parametrize(
    "change,message",
    [
        (lambda k: k.update(bogus=1), "kriegspiel: unknown key(s) bogus"),
        (lambda k: k["supply"]["red"][0].update(food=-1), "kriegspiel.supply.red[0].food: must be a whole number"),
        (lambda k: k["supply"]["red"][0].update(at=[1]), "kriegspiel.supply.red[0].at: must be [x, y]"),
        (lambda k: k["supply"].update(green=[]), "kriegspiel.supply.green: side must be one of red, blue"),
        (lambda k: k.update(scouts={"red": ["foot1"]}), "kriegspiel.scouts.red: 'foot1' is not a cavalry group"),
        (
            lambda k: k.update(engineers={"red": ["horse"]}),
            "kriegspiel.engineers.red: 'horse' is not an infantry group",
        ),
        (lambda k: k.update(generals={"red": "red:i1"}), "kriegspiel.generals.red: the general is a cavalry figure"),
    ],
)
def test_bad_blocks_are_named(change, message):
    sc = load("ks_farm")
    change(sc["kriegspiel"])
    with pytest.raises(ScenarioError) as err:
        load(sc)
    assert str(err.value).startswith(message)


def test_unknown_names():
    with pytest.raises(ScenarioError, match="unknown scenario 'nope'"):
        load("nope")


def test_per_game_settings_over_a_base_and_always_the_curtain():
    sc = load({"base": "ks_farm", "settings": {"max_turns": 12}})
    assert sc["name"] == "ks_farm" and sc["settings"]["max_turns"] == 12 and sc["kriegspiel"]["supply"]["red"]
    with pytest.raises(ScenarioError, match="settings.deployment: Kriegspiel deploys behind the curtain"):
        load({"base": "ks_farm", "settings": {"deployment": "alternate"}})
    with pytest.raises(ScenarioError, match="only 'settings' and 'commands' may be given"):
        load({"base": "ks_farm", "forces": {}})
    assert load({"base": "skirmish", "settings": {"blast": True}})["settings"]["blast"] is True


def test_choosing_the_other_edge_takes_the_wagons_along(new_game):
    g = new_game({"base": "ks_farm", "settings": {"choose_edge": True}})
    assert g.state["phase"] == "edge"
    chooser = g.rs.next_turn(g.state).sides[0]
    other = "blue" if chooser == "red" else "red"
    mine_y = g.state["ks"]["supply"][chooser]["depots"]["wagons"]["y"]
    theirs_y = g.state["ks"]["supply"][other]["depots"]["wagons"]["y"]
    g.turn(**{chooser: "edge " + {"red": "north", "blue": "south"}[chooser]})  # take the other edge
    assert g.state["scenario"]["edges"][chooser] == {"red": "north", "blue": "south"}[chooser]
    assert g.state["ks"]["supply"][chooser]["depots"]["wagons"]["y"] == theirs_y
    assert g.state["ks"]["supply"][other]["depots"]["wagons"]["y"] == mine_y
    g.deploy()
    assert g.state["phase"] == "play"


def test_no_edge_choice_with_trains():
    sc = load("ks_farm")
    sc["settings"]["choose_edge"] = True
    sc["kriegspiel"].update(
        railways=[{"id": "l", "line": [[80, 0], [80, 288]]}],
        trains={"red": [{"name": "t", "at": [80, 10], "wagons": 1}]},
    )
    with pytest.raises(ScenarioError, match="settings.choose_edge: trains and boats"):
        load(sc)


def test_the_appendix_refuses_the_main_parts_scale_and_wagons():
    """LW-62's scale and LW-66/67's supply wagons belong to the main part: the appendix has its own
    rates and supplies from its depots (moved here from the Little Wars tests)."""
    with pytest.raises(ScenarioError, match="settings.scale: the appendix has its own rates"):
        load({"base": "skirmish", "settings": {"scale": 2}})
    with pytest.raises(ScenarioError, match=r"^settings.supply: the appendix supplies from its depots"):
        load(copy.deepcopy(lw_load("convoy")))
