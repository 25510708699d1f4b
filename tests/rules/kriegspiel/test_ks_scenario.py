"""Kriegspiel scenarios: the kriegspiel block is checked with errors that name the field."""
import pytest

from rules.core.protocol import ScenarioError
from rules.littlewars.kriegspiel.scenario import builtin_names, load


def test_builtin_and_little_wars_scenarios_load():
    assert builtin_names() == ["ks_farm"]
    sc = load(None)
    assert sc["name"] == "ks_farm" and sc["kriegspiel"]["generals"] == {"red": "red:c1", "blue": "blue:c1"}
    assert load("skirmish")["kriegspiel"] == {"supply": {}, "scouts": {}, "generals": {}, "engineers": {},
                                              "railways": [], "trains": {}, "boats": {}}


@pytest.mark.parametrize("change,message", [
    (lambda k: k.update(bogus=1), "kriegspiel: unknown key(s) bogus"),
    (lambda k: k["supply"]["red"][0].update(food=-1), "kriegspiel.supply.red[0].food: must be a whole number"),
    (lambda k: k["supply"]["red"][0].update(at=[1]), "kriegspiel.supply.red[0].at: must be [x, y]"),
    (lambda k: k["supply"].update(green=[]), "kriegspiel.supply.green: side must be one of red, blue"),
    (lambda k: k.update(scouts={"red": ["foot1"]}), "kriegspiel.scouts.red: 'foot1' is not a cavalry group"),
    (lambda k: k.update(engineers={"red": ["horse"]}), "kriegspiel.engineers.red: 'horse' is not an infantry group"),
    (lambda k: k.update(generals={"red": "red:i1"}), "kriegspiel.generals.red: the general is a cavalry figure"),
])
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
    with pytest.raises(ScenarioError, match="only 'settings' may be given"):
        load({"base": "ks_farm", "forces": {}})
    assert load({"base": "skirmish", "settings": {"blast": True}})["settings"]["blast"] is True
