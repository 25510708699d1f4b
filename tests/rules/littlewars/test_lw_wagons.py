"""Supply wagons and ammunition carts (LW-66/67, RULES.md "Wagons"): the scenario format, moving them,
supply (one wagon feeds 50 within six moves; the hungry do not move), ammunition (no gun fires without
a cart within two moves), capture, destruction by fire, view, map, invariants and the convoy scenario."""

import copy
import json
import random

import pytest

from rules.core.protocol import ScenarioError, Viewer
from rules.littlewars import RULESET as RS
from rules.littlewars import wagons
from rules.littlewars.scenario import load
from rules.littlewars.table import table_of
from rules.littlewars.testing import build, new_game, payloads, play, play_bots, state_from_view


def msgs(state, side, text):
    parsed = RS.parse_orders(state, side, text)
    assert parsed.ok, parsed.errors
    return [e.message for e in RS.validate(state, side, parsed.orders)]


def convoy(**changes):
    sc = json.loads(json.dumps(load("convoy")))
    for path, value in changes.items():
        *head, last = path.split("__")
        node = sc
        for k in head:
            node = node[int(k)] if k.isdigit() else node[k]
        node[int(last) if last.isdigit() else last] = value
    return sc


# -- the scenario format --------------------------------------------------------------------
@pytest.mark.parametrize(
    "changes, error",
    [
        ({"settings__supply": False}, "forces.red.wagons: wagons and carts carry the supply rules (LW-66/67)"),
        ({"forces__red__wagons__0__kind": "cart"}, "forces.red.wagons[0].kind: must be one of supply, ammo"),
        ({"forces__red__wagons__0__at": [4, -3]}, "forces.red.wagons[0].at:"),
        ({"forces__red__wagons__0__at": [4, 30]}, "forces.red.wagons[0].at: (4, 30) is 30 in from the south edge"),
        ({"forces__red__wagons__0__name": "gun1"}, "forces.red.wagons[0].name: duplicate name 'gun1'"),
        (
            {"forces__blue__wagons": [{"name": "cart1", "kind": "ammo", "at": [19, 93.5]}]},
            "forces.blue.wagons: settings.supply needs at least one supply wagon a side (LW-66",
        ),
        (
            {"forces__blue__wagons": [{"name": "s", "kind": "supply", "at": [4, 93]}]},
            "forces.blue.wagons: settings.supply needs an ammunition cart for a side with guns (LW-67",
        ),
        ({"forces__red__wagons": {"name": "x"}}, "forces.red.wagons: must be a list"),
    ],
)
def test_scenario_errors_name_the_field(changes, error):
    with pytest.raises(ScenarioError) as exc:
        load(convoy(**changes))
    assert str(exc.value).startswith(error), str(exc.value)


def test_a_game_without_wagons_keeps_its_exact_scenario_and_state():
    sc = load("skirmish")
    assert all("wagons" not in f for f in sc["forces"].values())
    assert "wagons" not in new_game("skirmish")
    with pytest.raises(ScenarioError, match="^forces.red.wagons: settings.supply needs at least one supply wagon"):
        load({"base": "skirmish", "settings": {"supply": True}})


def test_the_convoy_is_laid_out_with_its_wagons_and_mirrors_them_with_the_edge():
    state = new_game("convoy")
    assert state["wagons"]["red:supply1"] == {
        "side": "red",
        "name": "supply1",
        "kind": "supply",
        "x": 4.0,
        "y": 3.0,
        "owner": "red",
        "st": "ok",
    }
    sc = {"base": "convoy", "settings": {"choose_edge": True}}
    st = RS.initial_state()
    for ev in RS.setup(sc, random.Random(1)):
        st = RS.fold(st, ev.type, ev.payload)
    chooser = st["edge_chooser"]
    other = {"south": "north", "north": "south"}[st["scenario"]["edges"][chooser]]
    st, _ = play(st, **{chooser: f"edge {other}"})
    assert st["wagons"]["red:supply1"]["y"] == 93.0 and st["wagons"]["blue:supply1"]["y"] == 3.0


# -- deployment and movement ----------------------------------------------------------------
def test_wagons_deploy_in_the_zone_like_guns():
    state = new_game("convoy")
    assert msgs(state, "red", "deploy supply1 at 30,4\ndeploy cart1 at 20,5") == []
    assert msgs(state, "red", "deploy supply1 at 30,20") == [
        "supply1 cannot deploy there: (30, 20) is 20 in from the south edge; deployment is within 8 in of it"
    ]
    state, events = play(state, red="deploy supply1 at 30,4", blue="hold")
    assert payloads(events, "deployed")[0]["wagons"] == {"red:supply1": [30.0, 4.0]}
    assert "wagons" not in payloads(events, "deployed")[1]  # only where ordered
    assert state["wagons"]["red:supply1"]["x"] == 30.0


# blue keeps 12 more figures far off so that no position here is a draw (LW-49) after a turn
PAD = ("pad", "inf", [(2 + k * 0.75, 110) for k in range(12)])


def field(wagon_at=(10, 10), red=((10, 12),), blue=((40, 60),), settings=None, table=(48, 120), guns=()):
    return build(
        red=[("foot", "inf", list(red))],
        blue=[("far", "inf", list(blue)), PAD],
        table=table,
        guns=guns,
        wagons=[
            ("red", "supply1", "supply", *wagon_at),
            ("blue", "supply1", "supply", 40, 62),
            *([("red", "cart1", "ammo", 24, 4), ("blue", "cart1", "ammo", 24, 116)] if guns else []),
        ],
        settings=settings,
    )


def test_a_wagon_moves_twelve_inches_a_turn_and_the_scale_doubles_it():
    state = field()
    assert msgs(state, "red", "move supply1 to 10,22") == []
    assert msgs(state, "red", "move supply1 to 10,22.5") == [
        "out of range: supply1 would need 12.5 in; a wagon moves at most 12 in a turn"
    ]
    assert msgs(field(settings={"scale": 2}), "red", "move supply1 to 10,34") == []
    state, events = play(state, red="move supply1 to 10,22")
    assert payloads(events, "moved")[0]["wagons"] == {"red:supply1": [10.0, 22.0]}
    assert (state["wagons"]["red:supply1"]["x"], state["wagons"]["red:supply1"]["y"]) == (10.0, 22.0)


def test_a_wagon_goes_round_scenery_and_never_stands_in_it():
    barn = {"id": "barn", "type": "building", "polygon": [[6, 14], [14, 14], [14, 16], [6, 16]]}
    state = build(
        red=[("foot", "inf", [(30, 12)])],
        blue=[("far", "inf", [(40, 60)])],
        table=(48, 120),
        terrain=[barn],
        wagons=[("red", "supply1", "supply", 10, 10), ("blue", "supply1", "supply", 40, 62)],
    )
    assert msgs(state, "red", "move supply1 to 10,15")[0].startswith("supply1 cannot go there: ")
    assert msgs(state, "red", "move supply1 to 10,20") == [
        "out of range: supply1 would need 14.6 in; a wagon moves at most 12 in a turn"
    ]  # round the barn's end


def test_wagons_neither_stop_nor_are_stopped_by_the_enemy():
    state = field(wagon_at=(10, 30), red=((30, 12),), blue=((10, 36),))
    state, events = play(state, red="move supply1 to 10,40", blue="move far to 10,24")
    moved = payloads(events, "moved")[0]
    assert moved["wagons"] == {"red:supply1": [10.0, 40.0]} and moved["contacts"] == []
    assert state["figures"]["blue:i1"]["y"] == 24.0


def test_names_a_wagon_belongs_to_and_what_it_is_not():
    state = field()
    assert msgs(state, "blue", "move supply1 to 40,64") == []
    assert msgs(state, "red", "fire supply1 at 10,20") == ["supply1 is not a gun"]
    assert msgs(state, "red", "split supply1 1 as x") == ["supply1 is a wagon, not a group of figures"]
    assert msgs(state, "red", "move supply1 line 1,1 2,2") == ["a wagon moves to a point: move supply1 to x,y"]
    assert msgs(state, "red", "split foot 1 as supply1") == ["the name supply1 is already in use"]


# -- LW-66 supply -----------------------------------------------------------------------------
def test_a_supply_wagon_feeds_fifty_and_the_farthest_go_hungry():
    red = [(4 + (k % 30) * 1.25, 12 + (k // 30) * 2.0) for k in range(60)]
    state = field(wagon_at=(4, 10), red=red)
    hungry = wagons.unsupplied(state, "red")
    assert len(hungry) == 10
    figs = state["figures"]

    def gap(fid):
        return ((figs[fid]["x"] - 4) ** 2 + (figs[fid]["y"] - 10) ** 2) ** 0.5

    fed = [f for f in state["groups"]["red"]["foot"] if f not in hungry]
    assert min(gap(f) for f in hungry) >= max(gap(f) for f in fed)


def test_supply_reaches_six_moves_seventy_two_inches_and_the_scale_stretches_it():
    # footprints 72 in apart: wagon radius 0.5, infantry 0.25
    state = field(wagon_at=(10, 10), red=((10, 82.75),))
    assert wagons.unsupplied(state, "red") == []
    state = field(wagon_at=(10, 10), red=((10, 82.8),))
    assert wagons.unsupplied(state, "red") == ["red:i1"]
    assert wagons.unsupplied(field(wagon_at=(10, 10), red=((10, 82.8),), settings={"scale": 2}), "red") == []


def test_two_wagons_share_the_army_so_that_as_many_as_possible_are_fed():
    # 50 figures near both wagons and 50 near only the second: a greedy first wagon would starve 50
    both = [(20 + (k % 25) * 0.75, 40 + (k // 25) * 0.75) for k in range(50)]
    only_b = [(20 + (k % 25) * 0.75, 100 + (k // 25) * 0.75) for k in range(50)]
    state = build(
        red=[("a", "inf", both), ("b", "inf", only_b)],
        blue=[("far", "inf", [(40, 110)])],
        table=(48, 120),
        wagons=[("red", "w1", "supply", 20, 10), ("red", "w2", "supply", 20, 60), ("blue", "s", "supply", 44, 110)],
    )
    assert wagons.unsupplied(state, "red") == []


def test_troops_out_of_supply_do_not_move_and_others_do():
    state = field(wagon_at=(10, 10), red=((10, 20), (30, 90)))
    assert msgs(state, "red", "move i1 to 10,25") == []
    assert msgs(state, "red", "move i2 to 30,85") == [
        "i2 out of supply: no supply wagon within 72 in (six moves) has room for them, 50 a wagon (LW-66); "
        "troops without supply do not move (as KS-52)"
    ]
    state, events = play(state, red="move supply1 to 12.9,21.6")  # the wagon comes up: fed again next turn
    assert wagons.unsupplied(state, "red") == []
    assert msgs(state, "red", "move i2 to 30,85") == []


def test_without_the_supply_setting_nobody_is_ever_out_of_supply():
    state = build(red=[("foot", "inf", [(10, 20)])], blue=[("far", "inf", [(40, 60)])], table=(48, 120))
    assert wagons.unsupplied(state, "red") == [] and msgs(state, "red", "move i1 to 10,30") == []


# -- LW-67 ammunition -------------------------------------------------------------------------
def gun_field(cart_at):
    crew = [(24 + dx, 10 + dy) for dx, dy in ((2, 0), (-2, 0), (0, 2), (0, -2))]
    return build(
        red=[("crew", "inf", crew)],
        blue=[("far", "inf", [(24, 40)]), PAD],
        table=(48, 120),
        guns=[("red", "gun1", 24, 10, 90)],
        wagons=[
            ("red", "s", "supply", 30, 10),
            ("red", "cart1", "ammo", *cart_at),
            ("blue", "s", "supply", 24, 62),
            ("blue", "c", "ammo", 30, 62),
        ],
    )


def test_a_gun_fires_only_with_its_cart_within_two_moves():
    assert msgs(gun_field((24, 34.5)), "red", "fire gun1 at 24,50") == []  # the cart's footprint 24 in away
    assert msgs(gun_field((24, 34.6)), "red", "fire gun1 at 24,50") == [
        "gun1 has no ammunition cart within 24 in (two moves, LW-67): the nearest is 24.1 in away"
    ]


def test_a_gun_whose_cart_is_lost_falls_silent_and_the_captor_uses_the_cart():
    state = gun_field((24, 30))
    state, events = play(state, blue="move far to 24,30.9")  # 24,30.9 is within 1 in of the cart; no red near
    assert payloads(events, "wagon_captured") == [{"wagon": "red:cart1", "by": "blue", "at": [24.0, 30.0]}]
    assert state["wagons"]["red:cart1"]["owner"] == "blue"
    assert msgs(state, "red", "fire gun1 at 24,50") == [
        "gun1 has no ammunition cart within 24 in (two moves, LW-67): you have none left"
    ]
    assert msgs(state, "red", "move cart1 to 24,20") == ["cart1 is no longer yours: it was captured"]
    assert msgs(state, "blue", "move red-cart1 to 24,40") == []


def test_a_wagon_with_one_of_its_own_within_six_inches_is_not_taken():
    state = gun_field((24, 30))
    state, events = play(state, red="move i3 to 24,23.5", blue="move far to 24,30.9")
    assert payloads(events, "wagon_captured") == [] and state["wagons"]["red:cart1"]["owner"] == "red"


# -- fire -----------------------------------------------------------------------------------
def test_a_shot_destroys_a_wagon_it_strikes_or_its_blast_reaches():
    state = field(wagon_at=(10, 30))
    table = table_of(state["scenario"])
    assert wagons.struck(state, (10.79, 30), False, table, set()) == ["red:supply1"]
    assert wagons.struck(state, (10.81, 30), False, table, set()) == []
    assert wagons.struck(state, (13.5, 30), True, table, set()) == ["red:supply1"]
    assert wagons.struck(state, (13.6, 30), True, table, set()) == []
    wall = [{"id": "w", "type": "wall", "line": [[12, 25], [12, 35]], "width": 0.5}]
    walled = build(
        red=[("foot", "inf", [(30, 12)])],
        blue=[("far", "inf", [(40, 60)])],
        table=(48, 120),
        terrain=wall,
        wagons=[("red", "supply1", "supply", 10, 30), ("blue", "s", "supply", 40, 62)],
    )
    assert wagons.struck(walled, (13.5, 30), True, table_of(walled["scenario"]), set()) == []  # KS-7 shields


def test_gunfire_destroys_an_enemy_wagon_in_play():
    crew = [(24 + dx, 80 + dy) for dx, dy in ((2, 0), (-2, 0), (0, 2), (0, -2))]
    state = build(
        red=[("foot", "inf", [(30, 10)])],
        blue=[("crew", "inf", crew), PAD],
        table=(48, 120),
        guns=[("blue", "gun1", 24, 80, 270)],
        settings={"blast": True},
        wagons=[
            ("red", "supply1", "supply", 24, 70),
            ("red", "c", "ammo", 40, 10),
            ("blue", "s", "supply", 30, 90),
            ("blue", "cart1", "ammo", 20, 90),
        ],
    )
    state, events = play(state, blue="fire gun1 at 24,70 24,70 24,70 24,70", seed=3)
    assert payloads(events, "fired")[0]["wagons"] == ["red:supply1"]
    assert state["wagons"]["red:supply1"]["st"] == "destroyed"
    assert "red:supply1" not in wagons.live(state)
    assert msgs(state, "red", "move supply1 to 24,60") == ["supply1 is no longer yours: it was destroyed"]
    assert RS.describe_event(events[0].type, events[0].payload).endswith("wagons destroyed: supply1.")


# -- view, map, invariants ------------------------------------------------------------------
def test_each_side_sees_its_own_wagons_behind_the_curtain_and_all_after():
    state = new_game("convoy")
    red = RS.view(state, Viewer("player", "red"))
    assert {w["owner"] for w in red["wagons"]} == {"red"} and "supply" not in red
    state, _ = play(state, red="hold", blue="hold")
    red, obs = RS.view(state, Viewer("player", "red")), RS.view(state, Viewer("observer"))
    assert {w["id"] for w in obs["wagons"]} == set(state["wagons"])
    assert red["supply"] == {"red": {"unsupplied": [], "guns_without_ammunition": []}}
    assert "supply" not in obs or obs["supply"] == {}
    assert RS.view(state, Viewer("umpire"))["supply"].keys() == {"red", "blue"}
    rebuilt = state_from_view(red)
    assert rebuilt["wagons"]["red:supply1"]["name"] == "supply1"
    svg = RS.render_svg(red)
    assert svg.count('class="unit wagon supply"') == 4 and svg.count('class="unit wagon ammo"') == 2
    assert "supply1 (red): supply wagon" in svg


def test_invariants_catch_a_wagon_off_the_table_or_in_a_building():
    state = new_game("convoy")
    state, _ = play(state, red="hold", blue="hold")
    bad = copy.deepcopy(state)
    bad["wagons"]["red:supply1"].update(x=23, y=32)  # inside the inn
    assert any(p.startswith("red:supply1: ") for p in RS.check_invariants(bad))
    bad["wagons"]["red:supply1"].update(x=-3, y=32)
    assert any(p.startswith("red:supply1: ") for p in RS.check_invariants(bad))
    bad["wagons"]["red:supply1"]["st"] = "destroyed"  # a wreck is off the table
    assert RS.check_invariants(bad) == []


def test_the_convoy_plays_with_scripted_players_moving_their_wagons():
    state, events = play_bots(new_game("convoy"), seed=2, max_turns=8)
    moved = [p for p in payloads(events, "moved") if p.get("wagons")]
    assert moved  # the wagons follow their armies
    assert RS.check_invariants(state) == []


def test_without_the_curtain_a_wagon_moves_in_the_first_turn_as_if_from_the_edge_line():
    st = RS.initial_state()
    for ev in RS.setup({"base": "convoy", "settings": {"deployment": "alternate"}}, random.Random(1)):
        st = RS.fold(st, ev.type, ev.payload)
    while st["phase"] == "deploy":
        st, _ = play(st, red="hold", blue="hold")
    # supply1 stands at 4,3: its footprint is 2.5 in from the south edge, spent already (LW-7)
    assert msgs(st, "red", "move supply1 to 4,12.5") == []
    assert msgs(st, "red", "move supply1 to 4,13") == [
        "out of range: supply1 would need 10.0 in; a wagon moves at most 9.5 in this turn: measured from the edge "
        "line, 2.5 in are spent already (LW-7)"
    ]


def test_in_the_flight_the_wagons_left_far_from_the_losers_edge_capitulate():
    # red breaks through at blue's (north) edge; blue's wagon 80 in from it cannot get away in six moves
    red = [(20 + k, 119.5) for k in range(3)]
    state = build(
        red=[("raiders", "inf", red)],
        blue=[("far", "inf", [(40, 100)]), PAD],
        table=(48, 120),
        kind="breakthrough",
        wagons=[
            ("red", "s", "supply", 20, 60),
            ("blue", "supply1", "supply", 10, 40),
            ("blue", "s2", "supply", 30, 110),
        ],
    )
    state, events = play(state)
    cap = payloads(events, "capitulated")
    assert cap and cap[0]["wagons"] == ["blue:supply1"] and cap[0]["captor"] == "red"
    assert state["wagons"]["blue:supply1"]["owner"] == "red" and state["wagons"]["blue:s2"]["owner"] == "blue"
