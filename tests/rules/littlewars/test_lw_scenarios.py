"""Scenario files: the shipped ones load; bad ones fail naming the field; points; random advantage."""

import copy
import random

import pytest

from rules.core.protocol import ScenarioError
from rules.littlewars import RULESET as RS
from rules.littlewars.scenario import army_points, builtin_names, load
from rules.littlewars.table import table_of
from rules.littlewars.testing import new_game


def test_shipped_scenarios_load_and_match_the_seed_sizes():
    assert builtin_names() == ["big_battle", "convoy", "defence", "skirmish", "wells"]
    wells = load("wells")
    red = wells["forces"]["red"]
    inf = sum(g["count"] for g in red["groups"] if g["arm"] == "inf")
    cav = sum(g["count"] for g in red["groups"] if g["arm"] == "cav")
    assert (inf, cav, len(red["guns"])) == (80, 50, 4)  # LW-58: about 80 infantry, 50 cavalry, 3-4 guns
    assert 48 <= wells["table"]["width"] <= 60  # a 4-5 ft frontage
    big = load("big_battle")
    assert big["table"]["width"] == 216 and len(big["forces"]["blue"]["guns"]) == 6
    assert sum(g["count"] for g in big["forces"]["blue"]["groups"]) > 200
    assert load(None)["name"] == "skirmish"


def test_army_points_lw59():
    assert army_points({"groups": [{"arm": "inf", "count": 60}, {"arm": "cav", "count": 40}], "guns": [{}] * 3}) == 150
    assert army_points({"groups": [{"arm": "inf", "count": 100}], "guns": [{}] * 5}) == 150


def _bad(mutate, fragment):
    sc = copy.deepcopy(load("skirmish"))
    mutate(sc)
    with pytest.raises(ScenarioError) as err:
        load(sc)
    assert fragment in str(err.value)


def test_errors_name_the_field():
    _bad(lambda s: s["table"].update(width=-3), "table.width: must be greater than 0")
    _bad(lambda s: s["terrain"].append({"type": "lava", "polygon": [[0, 0], [1, 0], [1, 1]]}), "terrain[5].type")
    _bad(
        lambda s: s["terrain"].append({"type": "wood", "polygon": [[0, 0], [1, 0]]}),
        "terrain[5].polygon: needs at least 3",
    )
    _bad(lambda s: s["forces"]["red"]["groups"][0].update(arm="dragon"), "forces.red.groups[0].arm")
    _bad(lambda s: s["forces"]["red"]["groups"][0].update(count=0), "forces.red.groups[0].count")
    _bad(lambda s: s["forces"]["blue"]["groups"][1].update(name="foot1"), "forces.blue.groups[1].name: duplicate")
    _bad(lambda s: s["forces"]["red"]["groups"][0].update(count=200, frontage=25), "more than the 150 allowed (LW-59)")
    _bad(lambda s: s["forces"]["red"]["groups"][0].update(at=[23, 18]), "forces.red.groups[0]: figure 1")
    _bad(lambda s: s.update(kind="siege"), "kind: must be one of")
    _bad(lambda s: s["settings"].update(wind=3), "settings: unknown setting(s) wind")
    _bad(lambda s: s["edges"].update(blue="south"), "opposite edges")
    with pytest.raises(ScenarioError, match="unknown scenario 'nowhere'"):
        load("nowhere")


def test_defence_needs_two_thirds():
    sc = copy.deepcopy(load("defence"))
    sc["forces"]["blue"]["groups"][0]["count"] = 20
    with pytest.raises(ScenarioError, match="LW-52"):
        load(sc)


def test_random_advantage_rolls_two_dice_per_side():
    for seed in range(5):
        events = RS.setup("wells", random.Random(seed))
        (adv,) = [e.payload for e in events if e.type == "littlewars.reinforcements"]
        state = new_game("wells", seed)
        for side in ("red", "blue"):
            roll = adv[side]["roll"]
            assert all(1 <= d <= 6 for d in roll) and len(adv[side]["joined"]) == sum(roll)  # LW-DT-7
            present = sum(1 for f in state["figures"].values() if f["side"] == side and f["st"] == "ok")
            assert present == 68 + 50 + sum(roll)
            assert state["start"][side]["figures"] == present


def test_curtain_deployment_reveals_both_sides_together():
    state = new_game("skirmish")
    from rules.core.protocol import Viewer

    assert {f["side"] for f in RS.view(state, Viewer("player", "red"))["figures"]} == {"red"}
    assert RS.view(state, Viewer("observer"))["figures"] == []
    assert {f["side"] for f in RS.view(state, Viewer("umpire"))["figures"]} == {"red", "blue"}
    red = RS.parse_orders(state, "red", "deploy foot1 line 6,2 20,2\ndeploy gun1 at 30,4").orders
    events = RS.adjudicate(state, {"red": red, "blue": ()}, random.Random(0))
    assert [e.type.split(".")[1] for e in events] == ["deployed", "deployed", "deployment_done"]
    from rules.littlewars.testing import fold_all

    after = fold_all(state, events)
    assert after["figures"]["red:i1"]["x"] == 6.0 and after["guns"]["red:gun1"]["x"] == 30.0
    assert {f["side"] for f in RS.view(after, Viewer("observer"))["figures"]} == {"red", "blue"}


def test_a_coin_names_the_first_player():
    firsts = {RS.setup("skirmish", random.Random(seed))[0].payload["first"] for seed in range(20)}
    assert firsts == {"red", "blue"}  # LW-6


def test_settings_are_checked():
    _bad(lambda s: s["settings"].update(max_turns="many"), "settings.max_turns: must be a whole number")
    _bad(lambda s: s["settings"].update(blast="yes"), "settings.blast: must be true or false")
    _bad(lambda s: s["settings"].update(points=0), "settings.points: must be greater than 0")
    _bad(lambda s: s["settings"].update(defender="green"), "settings.defender: must be red or blue")
    _bad(lambda s: s["settings"].update(target={"red": [1, "x"]}), "settings.target.red[1]: must be a number")
    _bad(lambda s: s.update(kind="defence"), "a defence scenario needs the defending side")


def test_a_coin_names_the_defender_and_the_armies_change_sides_when_it_must():
    """LW-53: the coin's winner defends (with the defending army) and chooses the edge to defend."""
    from rules.littlewars.testing import fold_all

    spec = {"base": "defence", "settings": {"defender_coin": True}}
    plain = load("defence")
    seen = set()
    for seed in range(8):
        events = RS.setup(spec, random.Random(seed))
        (coin,) = [e for e in events if e.type == "littlewars.defender_chosen"]
        assert coin.audience == "public" and coin.payload["scenario_defender"] == plain["settings"]["defender"]
        state = fold_all(RS.initial_state(), events)
        winner = coin.payload["side"]
        assert state["scenario"]["settings"]["defender"] == winner and state["edge_chooser"] == winner
        assert coin.payload["swapped"] == (winner != plain["settings"]["defender"])
        # the winner commands the defending army: the scenario's defender's numbers, at its own end
        defending = plain["forces"][plain["settings"]["defender"]]
        assert state["start"][winner]["figures"] == sum(g["count"] for g in defending["groups"])
        home = state["scenario"]["edges"][winner]
        table = table_of(state["scenario"])
        ids = [i for i, f in state["figures"].items() if f["side"] == winner]
        assert all(table.edge_distance(home, state["figures"][i]["x"], state["figures"][i]["y"]) < 18 for i in ids)
        assert RS.check_invariants(state) == []
        assert "names " + winner + " the defender" in RS.describe_event(coin.type, coin.payload)
        seen.add(coin.payload["swapped"])
    assert seen == {True, False}
    with pytest.raises(ScenarioError, match="settings.defender_coin: a coin for the defender"):
        load({"base": "skirmish", "settings": {"defender_coin": True}})
