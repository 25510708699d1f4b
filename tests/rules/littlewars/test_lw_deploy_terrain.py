"""LW-7 deployment one side after the other; woods' trees and hills' sides (LW-27); the scripted
player's whole-order-set validation."""

import random

import pytest

from rules.core.protocol import ScenarioError, Viewer
from rules.littlewars import RULESET as RS
from rules.littlewars.fold import play_turn
from rules.littlewars.scenario import load
from rules.littlewars.table import path_length, table_of
from rules.littlewars.testing import _valid, build, fold_all, order_errors, play, play_bots, types

ALTERNATE = {"base": "skirmish", "settings": {"deployment": "alternate"}}


def game(scenario, seed=1):
    return fold_all(RS.initial_state(), RS.setup(scenario, random.Random(seed)))


def turn(state, orders):
    parsed = {s: RS.parse_orders(state, s, t).orders for s, t in orders.items()}
    return fold_all(state, RS.adjudicate(state, parsed, random.Random(0)))


def seen_sides(state, viewer):
    return {f["side"] for f in RS.view(state, viewer)["figures"]}


# -- LW-7 --------------------------------------------------------------------------
def test_without_the_curtain_the_first_player_deploys_then_the_other_sees_and_deploys():
    s = game(ALTERNATE)
    first, second = s["first"], ("blue" if s["first"] == "red" else "red")
    spec = RS.next_turn(s)
    assert spec.sides == (first,) and "LW-7" in spec.prompt
    assert seen_sides(s, Viewer("player", second)) == {second}  # nothing of the first army is down yet
    assert seen_sides(s, Viewer("observer")) == set()
    y = 5.0 if first == "red" else 31.0
    # orders for the side not deploying are ignored: it has no turn
    s = turn(s, {first: f"deploy foot1 at 16,{y:g}", second: f"deploy foot1 at 30,{36 - y:g}"})
    assert s["phase"] == "deploy" and s["deployed"] == [first]
    assert s["figures"][f"{first}:i1"]["y"] == y
    assert RS.next_turn(s).sides == (second,) and "You see the army already deployed" in RS.next_turn(s).prompt
    assert seen_sides(s, Viewer("player", second)) == {"red", "blue"}  # no curtain: the first army is in sight
    assert seen_sides(s, Viewer("observer")) == {first}
    before = s["figures"][f"{second}:i1"]
    s = turn(s, {second: "hold"})
    # game turns: 1 and 2 were the two deployments, 3 is the first turn of play (fold.py, RULES.md §1)
    assert s["phase"] == "play" and s["turn"] == 3 and play_turn(s) == 1 and sorted(s["deployed"]) == ["blue", "red"]
    assert s["figures"][f"{second}:i1"] == before and RS.next_turn(s).sides == ("red", "blue")


def test_the_curtain_stays_the_default_both_at_once():
    s = game("skirmish")
    assert RS.next_turn(s).sides == ("red", "blue") and s["scenario"]["settings"]["deployment"] == "curtain"
    s = turn(s, {"red": "hold", "blue": "hold"})
    assert s["phase"] == "play" and s["turn"] == 2 and play_turn(s) == 1  # turn 1 was the deployment


def _deployed_at(scenario, red_y):
    s = game(scenario)
    orders = {"red": f"deploy foot1 at 16,{red_y:g}", "blue": "hold"}
    for _ in range(2):
        if s["phase"] == "deploy":
            s = turn(s, {side: orders[side] for side in RS.next_turn(s).sides})
    return s


def test_in_the_first_turn_moves_are_measured_from_the_edge_line():
    s = _deployed_at(ALTERNATE, 6.0)  # foot1's front rank stands 6 in from the south edge
    i1 = s["figures"]["red:i1"]
    spent = i1["y"] - 0.25  # from the edge line to the footprint's edge
    ok = f"move i1 to {i1['x']:g},{i1['y'] + 12 - spent - 0.01:.2f}"
    far = f"move i1 to {i1['x']:g},{i1['y'] + 12 - spent + 0.1:.2f}"
    assert order_errors(s, "red", [ok]) == []
    (err,) = order_errors(s, "red", [far])
    assert "moves at most 6.25 in" in err.message and "5.8 in are spent already (LW-7)" in err.message
    s2, _ = play(s, red=ok)  # and in turn 2 the full foot again
    assert s2["turn"] == 4 and play_turn(s2) == 2
    y2 = s2["figures"]["red:i1"]["y"]
    assert order_errors(s2, "red", [f"move i1 to {i1['x']:g},{y2 + 11.9:.2f}"]) == []
    curtain = _deployed_at("skirmish", 6.0)  # behind the curtain a deployed figure has its whole move
    assert order_errors(curtain, "red", [f"move i1 to {i1['x']:g},{i1['y'] + 11.9:.2f}"]) == []


def test_the_deployment_setting_and_a_base_scenario_are_validated():
    with pytest.raises(ScenarioError, match=r"settings.deployment: must be one of curtain, alternate"):
        load({"base": "skirmish", "settings": {"deployment": "sideways"}})
    with pytest.raises(
        ScenarioError, match=r"scenario: with 'base' only 'settings' and 'commands' may be given, not forces"
    ):
        load({"base": "skirmish", "forces": {}})
    with pytest.raises(ScenarioError, match=r"unknown scenario 'nowhere'"):
        load({"base": "nowhere"})
    sc = load({"base": "wells", "settings": {"deployment": "alternate", "blast": True}})
    assert sc["name"] == "wells" and sc["settings"]["deployment"] == "alternate" and sc["settings"]["blast"] is True
    assert sc["settings"]["random_advantage"] is True  # the base's own settings stay


def test_the_scripted_players_play_an_alternate_deployment_game_to_the_end():
    state, events = play_bots(game(ALTERNATE, 3), seed=3)
    assert types(events).count("deployed") == 2 and types(events).count("deployment_done") == 1
    assert state["result"] is not None and RS.check_invariants(state) == []


# -- woods: trees ----------------------------------------------------------------------
WOOD = {
    "id": "copse",
    "type": "wood",
    "polygon": [[10, 10], [30, 10], [30, 20], [10, 20]],
    "trees": [[20, 15], [20, 16.8]],
    "trunk": 0.4,
}


def test_figures_keep_a_sixteenth_from_trees_and_cannot_wedge_between_them():
    s = build(
        red=[("a", "inf", [(15, 15.9)]), ("h", "cav", [(15, 12)])], blue=[("x", "inf", [(40, 30)])], terrain=[WOOD]
    )
    t = table_of(s["scenario"])
    assert "a tree of wood 'copse'" in t.spot_error("inf", 20, 15.6)
    assert t.spot_error("inf", 20, 15.9) is None  # the gap is 1.0 in: infantry (0.625 in) fits
    assert "a tree of wood 'copse'" in t.spot_error("cav", 20, 15.9)  # cavalry (1.125 in) would be wedged
    assert t.spot_error("inf", 25, 12) is None  # the wood's ground is open
    # infantry walks between the trunks; cavalry goes round the pair
    assert path_length(t.path("inf", (15, 15.9), (25, 15.9))) == pytest.approx(10.0)
    assert path_length(t.path("cav", (15, 15.9), (25, 15.9))) > 10.5
    (err,) = order_errors(s, "red", ["move a to 20,15.5"])
    assert "a tree of wood 'copse'" in err.message


def test_trees_stop_shots():
    s = build(red=[("a", "inf", [(20, 5)])], blue=[("x", "inf", [(40, 30)])], terrain=[WOOD])
    t = table_of(s["scenario"])
    hit = t.shot_blocker((20, 5), (20, 30))
    assert hit is not None and 14.5 < hit[1] < 14.7  # the first trunk's edge
    assert t.shot_blocker((12, 5), (12, 30)) is None


def test_trees_are_validated():
    base = {
        "name": "t",
        "table": {"width": 48, "depth": 36},
        "forces": {
            s: {"groups": [{"name": "g", "arm": "inf", "count": 2, "at": [10, y]}]}
            for s, y in (("red", 3), ("blue", 33))
        },
    }
    with pytest.raises(ScenarioError, match=r"terrain\[0\].trees\[1\]: \(40, 15\) is outside the wood"):
        load({**base, "terrain": [{**WOOD, "trees": [[20, 15], [40, 15]]}]})
    with pytest.raises(ScenarioError, match=r"terrain\[0\].trunk: must be greater than 0"):
        load({**base, "terrain": [{**WOOD, "trunk": 0}]})
    with pytest.raises(ScenarioError, match=r"terrain\[0\].trees\[0\]\[1\]: must be a number"):
        load({**base, "terrain": [{**WOOD, "trees": [[20, "x"]]}]})


# -- hills: levels, and no figure leaning against a hill's side ---------------------------
HILL = {"id": "knoll", "type": "hill", "level": 2, "polygon": [[10, 10], [20, 10], [20, 20], [10, 20]]}
TOP = {"id": "crest", "type": "hill", "level": 3, "polygon": [[13, 13], [17, 13], [17, 17], [13, 17]]}


def test_a_figure_stands_on_a_hill_or_clear_of_its_side():
    s = build(red=[("a", "inf", [(15, 5)])], blue=[("x", "inf", [(40, 30)])], terrain=[HILL, TOP])
    t = table_of(s["scenario"])
    assert t.spot_error("inf", 15, 11) is None  # on the hill
    assert t.spot_error("inf", 15, 9.6) is None  # clear of its edge
    assert "against the side of hill 'knoll'" in t.spot_error("inf", 15, 9.8)
    assert "against the side of hill 'knoll'" in t.spot_error("inf", 15, 10.2)
    assert "against the side of hill 'crest'" in t.spot_error("cav", 15, 13.4)
    assert t.spot_error("inf", 15, 10 - 0.3125) is None  # exactly 1/16 in clear (0.25 + 0.0625)
    assert t.spot_error("inf", 15, 10 - 0.31) is not None
    assert [t.level_at(15, 5), t.level_at(11, 11), t.level_at(15, 15)] == [0, 2, 3]
    # a move may cross the side; it may not end against it
    assert order_errors(s, "red", ["move a to 15,11"]) == []
    (err,) = order_errors(s, "red", ["move a to 15,10"])
    assert "against the side of hill 'knoll'" in err.message and "(LW-27)" in err.message
    s2, _ = play(s, red="move a to 15,14")
    assert t.level_at(s2["figures"]["red:i1"]["x"], s2["figures"]["red:i1"]["y"]) == 3


# -- the scripted player validates the whole order set ------------------------------------
def test_the_scripted_player_keeps_no_line_that_clashes_with_the_lines_before_it():
    s = build(red=[("a", "inf", [(10, 10), (11, 10)])], blue=[("x", "inf", [(40, 30)])])
    lines = ["move a to 10.5,14", "move i1 to 10,12"]
    assert all(order_errors(s, "red", [ln]) == [] for ln in lines)  # each line alone is good
    assert [e.message for e in order_errors(s, "red", lines)] == ["i1 already has an order on line 1"]
    kept = _valid(s, "red", lines)
    assert kept == ["move a to 10.5,14"] and order_errors(s, "red", kept) == []
    gun = build(
        red=[("crew", "inf", [(20, 8 + k) for k in range(4)])],
        blue=[("x", "inf", [(20, 30)])],
        guns=[("red", "gun1", 20, 6, 90)],
    )
    both = ["fire gun1 at 20,30", "move gun1 to 20,10"]  # a gun moves or fires, not both (LW-20)
    assert any("not both (LW-20)" in e.message for e in order_errors(gun, "red", both))
    assert _valid(gun, "red", both) == ["fire gun1 at 20,30"]


def test_a_figure_stopped_by_contact_may_stand_against_a_hill_side():
    s = build(red=[("a", "inf", [(15, 5)])], blue=[("x", "inf", [(15, 10.8)])], terrain=[HILL])
    s2, _ = play(s, red="move a to 15,12")  # play() also checks the invariants
    red = s2["figures"]["red:i1"]
    assert (red["x"], red["y"]) == (15.0, 10.175)  # stopped 1/8 in from blue's footprint (LW-33)
    assert "against the side of hill 'knoll'" in table_of(s2["scenario"]).spot_error("inf", 15, 10.175)
    assert RS.check_invariants(s2) == []


# -- LW-2 / LW-53: a side chooses its edge before deployment --------------------------------
def test_the_defender_chooses_the_edge_and_the_armies_change_ends():
    s = game({"base": "defence", "settings": {"choose_edge": True}})
    defender = s["scenario"]["settings"]["defender"]
    attacker = "red" if defender == "blue" else "blue"
    mine = s["scenario"]["edges"][defender]
    other_edge = {"south": "north", "north": "south"}[mine]
    assert s["phase"] == "edge" and RS.next_turn(s).sides == (defender,)
    assert f"'edge {other_edge}' takes the other" in RS.next_turn(s).prompt
    assert [e.message for e in order_errors(s, defender, ["edge east"])] == [
        f"the armies start from the {mine} and {other_edge} edges: choose one of those"
    ]
    assert "only the edge is chosen" in order_errors(s, defender, ["deploy foot1 at 10,10"])[0].message
    assert seen_sides(s, Viewer("player", attacker)) == {attacker}
    depth = s["scenario"]["table"]["depth"]
    before = {fid: (f["x"], f["y"]) for fid, f in s["figures"].items()}
    gun = next(iter(s["guns"]))
    heading = s["guns"][gun]["heading"]
    s2 = turn(s, {defender: f"edge {other_edge}"})
    assert s2["phase"] == "deploy" and s2["scenario"]["edges"] == {defender: other_edge, attacker: mine}
    assert all(
        s2["figures"][fid]["y"] == pytest.approx(depth - y) and s2["figures"][fid]["x"] == x
        for fid, (x, y) in before.items()
    )
    assert s2["guns"][gun]["heading"] == (-heading) % 360.0
    # the zones follow the new edges: the defender now deploys in the other half (LW-54)
    y = s2["figures"][f"{defender}:i1"]["y"]
    assert order_errors(s2, defender, [f"deploy i1 at 20,{y:g}"]) == []
    assert "the defender stays" in order_errors(s2, defender, [f"deploy i1 at 20,{depth - y:g}"])[0].message
    state, _ = play_bots(s2, seed=2)
    assert state["result"] is not None and RS.check_invariants(state) == []


def test_keeping_the_edge_changes_nothing_and_a_coin_names_the_chooser_otherwise():
    s = game({"base": "defence", "settings": {"choose_edge": True}})
    defender = s["scenario"]["settings"]["defender"]
    kept = turn(s, {defender: "hold"})
    assert kept["phase"] == "deploy" and kept["figures"] == s["figures"] and kept["scenario"] == s["scenario"]
    choosers = {
        game({"base": "skirmish", "settings": {"choose_edge": True}}, seed)["edge_chooser"] for seed in range(12)
    }
    assert choosers == {"red", "blue"}  # LW-1/2: a coin, not always the same side
    with pytest.raises(ScenarioError, match=r"settings.choose_edge: must be true or false"):
        load({"base": "skirmish", "settings": {"choose_edge": "yes"}})


# -- LW-27: figures stand on their own, 1/16 in apart -----------------------------------
def test_own_figures_keep_a_sixteenth_apart_where_the_orders_leave_them():
    s = build(
        red=[("a", "inf", [(10, 10), (11, 10)]), ("b", "inf", [(20, 10), (21, 10)])], blue=[("x", "inf", [(40, 30)])]
    )
    (err,) = order_errors(s, "red", ["hold", "move b to 10.5,10.3"])
    assert err.line == 2 and err.text == "move b to 10.5,10.3"
    assert "would stand" in err.message and "at least 1/16 in apart (LW-27)" in err.message
    # exactly 1/16 in apart is allowed (centres 0.5625 apart), a hair closer is not
    assert order_errors(s, "red", ["move b to 12.0625,10"]) == []
    assert order_errors(s, "red", ["move b to 12.06,10"]) != []
    # both groups moving: checked where both end
    assert order_errors(s, "red", ["move a to 10.5,14", "move b to 10.5,14.2"])[0].line == 2
    assert order_errors(s, "red", ["move a to 10.5,14", "move b to 10.5,16"]) == []
    assert "would stand" in order_errors(s, "red", ["move a line 10,14 10.3,14"])[0].message  # a line too short
    # refused at adjudication: reported to red alone, and b stays where it stood
    s2, events = play(s, red="move b to 10.5,10.3", check=False)
    (rejected,) = [e for e in events if e.type == "littlewars.orders_rejected"]
    assert rejected.audience == "side:red" and "LW-27" in rejected.payload["errors"][0]["message"]
    assert (s2["figures"]["red:i3"]["x"], s2["figures"]["red:i3"]["y"]) == (20.0, 10.0)


def test_figures_already_closer_after_a_contact_may_move_but_not_come_closer():
    s = build(red=[("a", "inf", [(10, 10), (10.3, 10)])], blue=[("x", "inf", [(40, 30)])])
    assert order_errors(s, "red", ["move a to 10.15,14"]) == []  # the formation keeps its 0.3 in
    assert order_errors(s, "red", ["move i2 to 10.5,10"]) == []  # moving apart
    assert order_errors(s, "red", ["move i2 to 10.2,10"]) != []  # closer still


def test_two_groups_cannot_deploy_on_one_spot():
    s = game("skirmish")
    (err,) = order_errors(s, "red", ["deploy foot1 at 16,4", "deploy foot2 at 16,4"])
    assert err.line == 2 and "LW-27" in err.message


@pytest.mark.parametrize("scenario", ["skirmish", "defence"])
def test_a_scripted_player_that_sees_only_its_view_gives_orders_the_real_position_accepts(scenario):
    from rules.littlewars.testing import bot_orders, state_from_view

    s, rng = game({"base": scenario, "settings": {"deployment": "alternate"}}, 5), random.Random(5)
    while RS.next_turn(s).sides:
        orders = {}
        for side in RS.next_turn(s).sides:
            view = RS.view(s, Viewer("player", side))
            assert view["scenario"]["settings"]["deployment"] == "alternate"  # the game's terms are public
            text = bot_orders(state_from_view(view), side)
            parsed = RS.parse_orders(s, side, text)
            assert parsed.ok and RS.validate(s, side, parsed.orders) == (), (s["turn"], side, text)
            orders[side] = parsed.orders
        s = fold_all(s, RS.adjudicate(s, orders, random.Random(rng.getrandbits(64))))
    assert s["result"] is not None and RS.check_invariants(s) == []
