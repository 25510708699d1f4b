"""Version 3: a side places its own hidden units, in a deployment round before play, within the zone
the scenario gives it (the scenario is public: it no longer tells where they stand). Its orders,
their errors and where the units went are its own; a unit it leaves out is placed by the game's
dice. Games set up before keep the places their scenario gave (WW-61 #7; RULES.md "Hidden units")."""

import json
import random

import pytest

from rules.core.protocol import ScenarioError, Viewer
from rules.warworlds import RULESET as RS
from rules.warworlds.orders import ORDER_WORDS, ORDERS_HELP, parse_text
from rules.warworlds.scenario import builtin
from rules.warworlds.testing import bot_orders, invariants, play_round, start

RED, BLUE = Viewer("player", "red"), Viewer("player", "blue")
ZONE = [f"{c:02d}{r:02d}" for c in range(6, 11) for r in range(1, 9)]  # the town assault's, for blue


def town():
    return start("town_assault", 1)


def red_gets(events, after):
    """Every byte red gets from an adjudication: its events, their lines, its view and map."""
    mine = [e for e in events if RED.may_see(e.audience)]
    view = RS.view(after, RED)
    return (
        [(e.type, json.dumps(e.payload, sort_keys=True), e.audience) for e in mine],
        [RS.describe_event(e.type, e.payload) for e in mine],
        json.dumps(view, sort_keys=True),
        RS.render_svg(view),
    )


def test_the_town_assault_opens_with_blues_deployment_round():
    st = town()
    assert st["phase"] == "deploy" and st["scenario"]["rules_version"] == RS.version == 3
    spec = RS.next_turn(st)
    assert spec.sides == ("blue",) and spec.kind == "orders" and "deploy orders" in spec.prompt
    assert "B2" not in spec.prompt
    # the scenario, public, names no hex for B2: blue alone knows of it, with no hex yet
    assert "at" not in next(u for u in builtin("town_assault")["units"] if u["id"] == "B2")
    assert "B2" not in json.dumps(RS.view(st, RED))
    [b2] = [u for u in RS.view(st, BLUE)["units"] if u["id"] == "B2"]
    assert b2["hidden"] and b2["hex"] is None
    assert RS.view(st, RED)["scenario"]["deployment"] == {"blue": ZONE}  # the zone is the scenario's


def test_blue_places_its_hidden_unit_and_red_is_told_only_that_deployment_is_done():
    st = town()
    after, ev = play_round(st, {"blue": "deploy B2 at 0702"}, 1)
    [placed] = [e for e in ev if e.type == "warworlds.deployed"]
    assert placed.audience == "side:blue" and placed.payload["placed"] == {"B2": "0702"}
    assert not placed.payload["by_dice"]
    assert RS.describe_event(placed.type, placed.payload) == "Blue deploys in hiding: B2 at 0702."
    assert [e.type for e in ev if e.audience == "public"] == ["warworlds.deployment_done"]
    b2 = after["units"]["B2"]
    assert (b2["hex"], b2["hidden"], after["phase"]) == ("0702", True, "play")
    assert (after["turn"], after["round"], RS.next_turn(after).sides) == (1, "movement", ("red", "blue"))
    assert "B2 inf" in RS.render_svg(RS.view(after, BLUE)) and "B2" not in RS.render_svg(RS.view(after, RED))
    assert invariants(after) == []


@pytest.mark.parametrize("other", ["deploy B2 at 1008", "", "protect B2 sniper\ndeploy B2 at 0604"])
def test_red_gets_the_same_bytes_wherever_blue_puts_its_unit_or_if_it_leaves_it_to_the_dice(other):
    st = town()
    one = red_gets(*reversed(play_round(st, {"blue": "deploy B2 at 0702"}, 7)))
    two = red_gets(*reversed(play_round(st, {"blue": other}, 7)))
    assert one == two


def test_a_unit_left_out_is_placed_by_the_turns_dice_in_the_zone():
    st = town()
    where = {}
    for seed in range(12):
        after, ev = play_round(st, {"blue": RS.default_orders(st, "blue")}, seed)
        [placed] = [e.payload for e in ev if e.type == "warworlds.deployed"]
        assert placed["by_dice"] == ["B2"] and after["units"]["B2"]["hex"] in ZONE
        assert "(by the dice)" in RS.describe_event("warworlds.deployed", placed)
        where[seed] = after["units"]["B2"]["hex"]
        again, _ = play_round(st, {"blue": ""}, seed)
        assert again["units"]["B2"]["hex"] == where[seed]  # the same dice, the same hex
    assert len(set(where.values())) > 3  # the dice choose, not a rule a reader could work out
    # what the platform shows everyone of a side that sent nothing says nothing of where
    assert "B2" not in RS.default_orders(st, "blue") and not parse_text(RS.default_orders(st, "blue")).orders


@pytest.mark.parametrize(
    "text, message",
    [
        ("deploy B2 at 0302", "0302 is not in your deployment zone"),
        ("deploy B2 at 0000", "0000 is not in your deployment zone"),
        ("deploy B1 at 0702", "you have no hidden unit B1 to place"),  # its own unit in sight
        ("deploy R1 at 0702", "you have no hidden unit R1 to place"),  # the enemy's
        ("deploy B9 at 0702", "you have no hidden unit B9 to place"),  # none
        ("deploy B2 at 0702\ndeploy B2 at 0703", "B2 already has an order on line 1"),
        ("move B2 to 0702", "this is the deployment round: write deploy orders for your hidden units"),
        ("protect B2 cook", "B2 has no cook"),
    ],
)
def test_deployment_errors_name_the_line_and_say_what_to_write(text, message):
    st = town()
    parsed = RS.parse_orders(st, "blue", text)
    errors = RS.validate(st, "blue", parsed.orders)
    assert [e.line for e in errors] == [len(text.splitlines())] and message in errors[-1].message


def test_a_deployment_must_fit_the_hex_and_its_ground():
    units = [
        {"id": "R1", "side": "red", "profile": "infantry", "at": "0101", "models": {"rifle": 10}},
        {"id": "B1", "side": "blue", "profile": "infantry", "at": "0707", "models": {"rifle": 15}},
        {"id": "B2", "side": "blue", "profile": "infantry", "models": {"rifle": 10}, "hidden": True},
        {"id": "B3", "side": "blue", "profile": "tank", "hidden": True},
    ]
    sc = {
        "name": "t",
        "first": "red",
        "map": {"name": "t", "cols": 8, "rows": 8, "hexes": {"0808": {"terrain": "wood"}}},
        "deployment": {"blue": ["0606", "0607", "0707", "0808"]},
        "units": units,
    }
    st = RS.set_up(sc, random.Random(1))
    for text, message in [
        ("deploy B2 at 0707", "no room for B2 at 0707: the hex holds 15 figures; 10 more would exceed 20"),
        ("deploy B3 at 0808", "B3 (tank) cannot stand in wood"),
        (
            "deploy B2 at 0606\ndeploy B3 at 0606",
            "no room for B3 at 0606: figures and a large model cannot share a hex",
        ),
    ]:
        errors = RS.validate(st, "blue", RS.parse_orders(st, "blue", text).orders)
        assert [e.message for e in errors] == [message], text
    after, _ = play_round(st, {"blue": "deploy B2 at 0606\ndeploy B3 at 0607"}, 1)
    assert (after["units"]["B2"]["hex"], after["units"]["B3"]["hex"]) == ("0606", "0607")
    # left to the dice, it still goes where it may stand and fits: 0607, the zone's only such hex
    for seed in range(10):
        after, _ = play_round(st, {"blue": "deploy B2 at 0606"}, seed)
        assert after["units"]["B3"]["hex"] == "0607" and invariants(after) == []


@pytest.mark.parametrize(
    "russian", ["развернуть B2 в 0702", "разместить B2 на 0702", "Укрыть b2 0702", "развернуть В2 в 0702"]
)
def test_deploy_orders_in_russian(russian):
    got = parse_text(russian)
    assert got.ok and [o.to_text() for o in got.orders][0].lower().startswith("deploy b2")
    assert [(o.verb, o.unit, o.dest) for o in got.orders] == [("deploy", "B2", "0702")]
    assert {"deploy", "развернуть", "разместить", "укрыть"} <= set(ORDER_WORDS)
    # the Russian "в"/"на" still read as "to" in every other order
    assert [o.dest for o in parse_text("двигать R1 в 0507\nидти R2 на 0508").orders] == ["0507", "0508"]


def test_the_order_help_explains_the_deployment_round():
    assert "deploy H1 at 0807" in ORDERS_HELP and "Deployment round" in ORDERS_HELP
    assert "move R1 to 0507 run" in ORDERS_HELP  # the rounds of play as before
    assert "deploy H1 at 0807" in RS.orders_help


def test_deployment_orders_are_refused_once_play_has_begun():
    after, _ = play_round(town(), {"blue": "deploy B2 at 0702"}, 1)
    errors = RS.validate(after, "blue", RS.parse_orders(after, "blue", "deploy B2 at 0703").orders)
    assert "this is the movement round" in errors[0].message


def test_the_scripted_player_deploys_from_its_own_view():
    from rules.warworlds.options import state_from_view

    st = town()
    text = bot_orders(state_from_view(RS.view(st, BLUE)), "blue")
    assert text.startswith("deploy B2 at ") and not RS.validate(st, "blue", RS.parse_orders(st, "blue", text).orders)
    lines = RS.legal_orders(RS.view(st, BLUE), "blue")
    assert lines[0].startswith("deploy B2 at 0601") and RS.legal_orders(RS.view(st, RED), "red") == []


def _scenario(**changes):
    sc = {
        "name": "t",
        "map": {"name": "t", "cols": 8, "rows": 8},
        "deployment": {"blue": ["0707", "0708"]},
        "units": [
            {"id": "R1", "side": "red", "profile": "infantry", "at": "0101"},
            {"id": "B1", "side": "blue", "profile": "infantry", "at": "0808"},
            {"id": "B2", "side": "blue", "profile": "infantry", "hidden": True},
        ],
    }
    return {**sc, **changes}


@pytest.mark.parametrize(
    "changes, message",
    [
        (
            {
                "units": [
                    *_scenario()["units"][:2],
                    {"id": "B2", "side": "blue", "profile": "infantry", "at": "0707", "hidden": True},
                ]
            },
            "units[2].at: a hidden unit is placed by its side before play",
        ),
        ({"deployment": {}}, "deployment.blue: blue has hidden units to place (B2): give it a deployment zone"),
        ({"deployment": {"blue": ["0707"], "red": ["0101"]}}, "deployment.red: red has no hidden units to place"),
        ({"deployment": {"blue": ["0707", "0909"]}}, "deployment.blue[1]: hex 0909 is not on the map"),
        ({"deployment": {"blue": ["0707", "0101"]}}, "deployment.blue: 0101 holds R1 of the other side"),
        ({"deployment": {"blue": ["0808"]}}, "deployment.blue: B2 (infantry) can stand in 0 empty hex(es) of the zone"),
        ({"deployment": {"green": ["0707"]}}, "deployment.green: 'green' is not a side"),
    ],
)
def test_a_scenarios_deployment_zones_are_checked(changes, message):
    with pytest.raises(ScenarioError) as err:
        RS.load_scenario(_scenario(**changes))
    assert message in str(err.value)
    assert RS.load_scenario(_scenario())["deployment"] == {"blue": ["0707", "0708"]}


def _set_up_by_version_2():
    """The town assault as version 2 set it up (0.3.0 before the deployment round): B2 at the hex the
    scenario gave it, in an event only blue saw, and play from the first movement round."""
    st = town()
    scenario = {k: v for k, v in st["scenario"].items() if k != "deployment"}
    b2 = {**st["units"]["B2"], "hex": "0702"}
    shown = {k: u for k, u in st["units"].items() if k != "B2"}
    events = [
        ("warworlds.battle_set", {"scenario": {**scenario, "rules_version": 2}, "first": "red", "units": shown}),
        ("warworlds.hidden_deployed", {"units": {"B2": b2}, "audience": "side:blue"}),
    ]
    state = RS.initial_state()
    for kind, payload in events:
        state = RS.fold(state, kind, payload)
    return state


def test_a_game_set_up_by_version_2_keeps_its_placement_and_plays_at_once():
    st = _set_up_by_version_2()
    assert st["phase"] == "play" and st["units"]["B2"]["hex"] == "0702"
    assert RS.next_turn(st).sides == ("red", "blue") and RS.unrecorded_version(st) == 2
    after, _ = play_round(st, {s: bot_orders(st, s) for s in ("red", "blue")}, 1)
    assert after["round"] == "shooting"


def test_a_version_2_game_carries_over_to_version_3_as_it_stands():
    st = _set_up_by_version_2()
    moved = RS.pinned(3).carry_over(st, 2)
    assert moved["scenario"]["rules_version"] == 3 and RS.unrecorded_version(moved) == 3
    assert moved["units"] == st["units"] and moved["phase"] == "play"  # nothing to deploy: B2 stands
    # moved on to version 2 only (from version 1), a game records 2, not the newest
    v1 = {**st, "scenario": {k: v for k, v in st["scenario"].items() if k != "rules_version"}}
    assert RS.pinned(2).carry_over(v1, 1)["scenario"]["rules_version"] == 2
    assert RS.pinned(2).version == 2 and RS.pinned(1) is RS
