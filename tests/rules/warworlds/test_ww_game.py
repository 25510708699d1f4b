"""War of the Worlds as a whole game: scenarios to a scored end, replay, views, orders."""

import json
import random

import pytest

from rules import catalog
from rules.core.protocol import ScenarioError, Viewer
from rules.warworlds import RULESET as RS
from rules.warworlds.scenario import builtin
from rules.warworlds.testing import bot_orders, fold_all, play_game, play_round, start


@pytest.mark.parametrize("scenario", ["field_battle", "town_assault"])
def test_scenario_played_to_a_scored_end(scenario):
    state, rounds = play_game(scenario, seed=3)
    result = RS.result(state)
    assert result is not None and rounds <= 18
    assert set(result["score"]) == {"red", "blue"}
    if result["winner"]:
        loser = "blue" if result["winner"] == "red" else "red"
        assert result["score"][result["winner"]] > result["score"][loser] or "no fighting units" in result["reason"]
    assert RS.next_turn(state).sides == ()
    assert sum(1 for u in state["units"].values() if u["status"] != "active") > 0


def test_adjudication_is_deterministic_and_replays():
    state = start("field_battle", 2)
    for n in range(6):
        texts = {s: bot_orders(state, s) for s in ("red", "blue")}
        orders = {s: RS.parse_orders(state, s, t).orders for s, t in texts.items()}
        ev1 = RS.adjudicate(state, orders, random.Random(n))
        ev2 = RS.adjudicate(state, orders, random.Random(n))
        assert [(e.type, json.dumps(e.payload, sort_keys=True)) for e in ev1] == [
            (e.type, json.dumps(e.payload, sort_keys=True)) for e in ev2
        ]
        state = fold_all(state, ev1)
    json.dumps(state)  # the state stays plain JSON


def test_the_working_state_is_what_the_events_fold_to():
    from rules.warworlds.turn import run_round

    state = start("town_assault", 4)
    for n in range(9):
        orders = {s: RS.parse_orders(state, s, bot_orders(state, s)).orders for s in ("red", "blue")}
        b = run_round(state, orders, random.Random(n))
        folded = fold_all(state, b.events)
        assert folded == b.state
        state = folded


def test_rounds_follow_movement_shooting_melee():
    state = start("field_battle", 1)
    seen = []
    for n in range(4):
        seen.append((state["turn"], state["round"]))
        state, _ = play_round(state, {"red": "", "blue": ""}, n)
    assert seen == [(1, "movement"), (1, "shooting"), (1, "melee"), (2, "movement")]


def test_hidden_units_leak_nothing_to_the_other_side():
    state = start("town_assault", 1)
    red = RS.view(state, Viewer("player", "red"))
    blue = RS.view(state, Viewer("player", "blue"))
    assert "B2" not in json.dumps(red)
    assert any(u["id"] == "B2" and u["hidden"] for u in blue["units"])
    setup = RS.setup("town_assault", random.Random(1))
    public = [e for e in setup if e.audience == "public"]
    assert "B2" not in json.dumps([e.payload for e in public])
    # version 3: blue places B2 in the deployment round; red is told only that it is done
    state, events = play_round(state, {"blue": bot_orders(state, "blue")}, 49)
    assert [e.type for e in events if e.audience == "public"] == ["warworlds.deployment_done"]
    # an order naming the hidden unit gets the same answer as a unit that does not exist
    state = {**state, "round": "shooting"}
    errs = RS.validate(state, "red", RS.parse_orders(state, "red", "fire R2 at B2").orders)
    errs_none = RS.validate(state, "red", RS.parse_orders(state, "red", "fire R2 at B9").orders)
    assert errs[0].message.replace("B2", "B9") == errs_none[0].message
    # a whole game: no public event names B2 until it is revealed
    for n in range(12):
        texts = {s: bot_orders(state, s) for s in ("red", "blue")}
        state, events = play_round(state, texts, 50 + n)
        for e in events:
            if e.type == "warworlds.revealed" and e.payload["unit"] == "B2":
                return
            if e.audience == "public":
                assert "B2" not in json.dumps(e.payload), e
        assert "B2" not in json.dumps(RS.view(state, Viewer("player", "red")))


def test_surprise_attack_from_hiding_triggers_fear():
    from rules.warworlds.testing import battle

    st = battle(
        [
            {"id": "R1", "side": "red", "profile": "infantry", "at": "0101", "models": {"rifle": 10}, "hidden": True},
            {"id": "B1", "side": "blue", "profile": "infantry", "at": "0103", "models": {"rifle": 10}},
        ],
        rnd="shooting",
    )
    st2, ev = play_round(st, {"red": "fire R1 at B1", "blue": ""}, 1)
    assert [e for e in ev if e.type == "warworlds.revealed"][0].audience == "public"
    assert any(e.payload.get("factor") == 7 for e in ev if e.type == "warworlds.fear_test")


@pytest.mark.parametrize(
    "text, message",
    [
        ("move R1 to 0507 sprint", "unknown speed 'sprint'"),
        ("fire R1", "cannot read this fire order"),
        ("dance R1", "unknown order 'dance'"),
    ],
)
def test_parse_errors_name_the_line(text, message):
    state = start("field_battle", 1)
    parsed = RS.parse_orders(state, "red", "hold R2\n" + text)
    assert parsed.errors[0].line == 2 and message in parsed.errors[0].message
    assert len(parsed.orders) == 1  # the good line is kept


@pytest.mark.parametrize(
    "text, message",
    [
        ("move B1 to 0505", "you have no unit B1"),
        ("fire R1 at B1", "this is the movement round"),
        ("move R1 to 1199", "not on the map"),
        ("move R1 to 0505 gallop", "moves by walk, run, not gallop"),
        ("move R1 to 0505\nmove R1 to 0506", "already has an order on line 1"),
        ("move R1 to 0505 bonus", "no bonus marker"),
        ("protect R1 sniper", "R1 has no sniper"),
    ],
)
def test_validation_errors(text, message):
    state = start("field_battle", 1)
    errs = RS.validate(state, "red", RS.parse_orders(state, "red", text).orders)
    assert errs and message in errs[-1].message


@pytest.mark.parametrize("scenario", ["field_battle", "town_assault"])
def test_loading_a_loaded_scenario_changes_nothing(scenario):
    once = RS.load_scenario(scenario)
    assert RS.load_scenario(json.loads(json.dumps(once))) == once


def test_scenario_errors_name_the_field():
    sc = builtin("field_battle")
    bad = json.loads(json.dumps(sc))
    bad["units"][2]["profile"] = "dragon"
    with pytest.raises(ScenarioError, match=r"units\[2\]\.profile: 'dragon' is not one of"):
        RS.load_scenario(bad)
    bad = json.loads(json.dumps(sc))
    bad["units"][0]["models"]["archer"] = 2
    with pytest.raises(ScenarioError, match=r"units\[0\]\.models\.archer: not a model of a infantry"):
        RS.load_scenario(bad)
    bad = json.loads(json.dumps(sc))
    bad["units"][3]["at"] = "0303"  # a tank in a wood
    with pytest.raises(ScenarioError, match=r"units\[3\]\.at: a tank cannot stand in wood"):
        RS.load_scenario(bad)


def test_registered_and_renders():
    assert catalog.get("warworlds") is RS
    state, _ = play_game("town_assault", seed=1)
    svg = RS.render_svg(RS.view(state, Viewer("observer")))
    assert svg.startswith("<svg") and "Game over" in svg
    for e in RS.setup("field_battle", random.Random(1)):
        assert RS.describe_event(e.type, e.payload)


@pytest.mark.parametrize("scenario", ["field_battle", "town_assault"])
@pytest.mark.parametrize("seed", range(1, 9))
def test_invariants_hold_in_every_round_of_scripted_games(scenario, seed):
    from rules.warworlds.testing import invariants

    state = start(scenario, seed)
    while state["result"] is None:
        texts = {s: bot_orders(state, s) for s in RS.next_turn(state).sides}
        rnd = ("movement", "shooting", "melee").index(state["round"])
        state, _ = play_round(state, texts, seed * 100 + state["turn"] * 3 + rnd)
        assert invariants(state) == [], (state["turn"], state["round"])


def test_invariants_catch_an_overfull_hex_and_a_stray_lock():
    from rules.warworlds.testing import battle, invariants

    st = battle(
        [
            {"id": "R1", "side": "red", "profile": "infantry", "at": "0101", "models": {"rifle": 15}},
            {"id": "R2", "side": "red", "profile": "infantry", "at": "0303", "models": {"rifle": 10}},
            {"id": "B1", "side": "blue", "profile": "infantry", "at": "0808", "models": {"rifle": 5}},
        ]
    )
    assert invariants(st) == []
    st["units"]["R2"] = {**st["units"]["R2"], "hex": "0101"}
    st["units"]["B1"] = {**st["units"]["B1"], "locked": ["R1"]}
    problems = invariants(st)
    assert any("0101" in p and "exceed 20" in p for p in problems)
    assert "B1 is locked with R1, not an adjacent enemy" in problems


def test_the_running_score_does_not_tell_of_hidden_losses():
    from rules.warworlds.testing import battle

    st = battle(
        [
            {"id": "R1", "side": "red", "profile": "infantry", "at": "0101", "models": {"rifle": 5}},
            {"id": "B1", "side": "blue", "profile": "infantry", "at": "0808", "models": {"rifle": 5}},
            {"id": "B2", "side": "blue", "profile": "infantry", "at": "0505", "models": {"rifle": 5}, "hidden": True},
        ],
        rnd="melee",
        objectives={"0505": 3},
    )
    st["units"]["B2"] = {**st["units"]["B2"], "status": "destroyed", "models": []}
    st2, events = play_round(st, {"red": "", "blue": ""}, 1)
    opened = [e for e in events if e.type == "warworlds.round_opened"][0]
    assert opened.audience == "public" and opened.payload["score"] == {"red": 0, "blue": 0}
    from rules.warworlds.turn import score

    assert score(st2) == {"red": 1, "blue": 0}
