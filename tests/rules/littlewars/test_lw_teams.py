"""Several players a side (LW-61, KS-9): commands, per-command validation, merging, inheritance."""

import random

import pytest

from rules.core.protocol import ScenarioError
from rules.kriegspiel.ruleset import RULESET as KS
from rules.littlewars.ruleset import RULESET as LW

COMMANDS = {
    "red": {"infantry": ["foot1", "foot2"], "cavalry": ["horse", "gun1"]},
    "blue": {"infantry": ["foot1", "foot2"], "cavalry": ["horse", "gun1"]},
}


def fold_all(state, events, rs=LW):
    for ev in events:
        state = rs.fold(state, ev.type, ev.payload)
    return state


def team_game(rs=LW, base="skirmish"):
    return fold_all(rs.initial_state(), rs.setup({"base": base, "commands": COMMANDS}, random.Random(3)), rs)


def play_until(rs, state, phase="play"):
    """Hold through edge choice and deployment."""
    for _ in range(4):
        if state["phase"] == phase:
            return state
        sides = rs.next_turn(state).sides
        orders = {s: rs.parse_orders(state, s, "hold").orders for s in sides}
        state = fold_all(state, rs.adjudicate(state, orders, random.Random(1)), rs)
    assert state["phase"] == phase
    return state


def errors(rs, state, command, text, side="red"):
    orders = rs.parse_orders(state, side, text).orders
    return list(rs.command_errors(state, side, command, orders)) + list(rs.validate(state, side, orders))


@pytest.mark.parametrize("rs,base", [(LW, "skirmish"), (KS, "ks_farm")])
def test_a_command_orders_only_its_own_groups_and_guns(rs, base):
    state = play_until(rs, team_game(rs, base))
    assert rs.commands(state, "red") == ["cavalry", "infantry"]
    errs = errors(rs, state, "cavalry", "move foot1 to 24,8")
    assert len(errs) == 1 and "foot1 is the infantry command's" in errs[0].message
    assert "the cavalry command orders only" in errs[0].message
    assert rs.command_errors(state, "red", "cavalry", rs.parse_orders(state, "red", "move gun1 to 30,3").orders) == ()
    assert any(
        "gun1 is the cavalry command's" in e.message for e in errors(rs, state, "infantry", "fire gun1 at 24,30")
    )
    # the commander (and a seat without a command) orders anything of the side
    assert (
        rs.command_errors(state, "red", "commander", rs.parse_orders(state, "red", "move foot1 to 24,8").orders) == ()
    )
    assert rs.command_errors(state, "red", None, rs.parse_orders(state, "red", "move horse to 24,8").orders) == ()


def test_a_split_group_stays_in_its_command_and_a_mixed_group_is_the_commanders():
    state = play_until(LW, team_game())
    orders = {
        "red": LW.parse_orders(state, "red", "split foot1 4 as scouts\nform mob from foot2, horse").orders,
        "blue": (),
    }
    assert not LW.validate(state, "red", orders["red"])
    state = fold_all(state, LW.adjudicate(state, orders, random.Random(2)))
    assert "scouts" in state["groups"]["red"] and "mob" in state["groups"]["red"]
    assert errors(LW, state, "infantry", "move scouts to 10,6") == []
    assert "scouts is the infantry command's" in errors(LW, state, "cavalry", "move scouts to 10,6")[0].message
    assert "mixed from several commands" in errors(LW, state, "infantry", "move mob to 10,6")[0].message
    assert LW.command_errors(state, "red", "commander", LW.parse_orders(state, "red", "move mob to 10,6").orders) == ()


def test_forming_across_commands_needs_the_commander():
    state = play_until(LW, team_game())
    errs = errors(LW, state, "infantry", "form mob from foot2, horse")
    assert len(errs) == 1 and "horse is the cavalry command's" in errs[0].message


def test_merging_puts_the_commander_first_and_reports_conflicts():
    state = play_until(LW, team_game())
    text, conflicts = LW.merge_orders(
        state,
        "red",
        {
            "infantry": "move foot1 to 20,8\nmove foot2 to 30,8\nmelee kill cavalry",
            "commander": "move foot2 to 40,8\nmelee kill infantry",
            "cavalry": "hold",
        },
    )
    assert text.splitlines() == [
        "# commander",
        "move foot2 to 40,8",
        "melee kill infantry",
        "# infantry",
        "move foot1 to 20,8",
    ]
    assert conflicts == [
        {"unit": "foot2", "kept": "commander", "dropped": "infantry", "line": "move foot2 to 30,8"},
        {"unit": "melee", "kept": "commander", "dropped": "infantry", "line": "melee kill cavalry"},
    ]
    parsed = LW.parse_orders(state, "red", text)
    assert parsed.ok and not LW.validate(state, "red", parsed.orders)
    assert LW.merge_orders(state, "red", {"cavalry": "hold"}) == ("hold", [])


def test_commands_are_checked_when_the_scenario_is_loaded():
    with pytest.raises(ScenarioError, match="'nobody' is not one of red's groups or guns"):
        LW.load_scenario({"base": "skirmish", "commands": {"red": {"infantry": ["nobody"]}}})
    with pytest.raises(ScenarioError, match="already in another command"):
        LW.load_scenario({"base": "skirmish", "commands": {"red": {"a": ["foot1"], "b": ["foot1"]}}})
    with pytest.raises(ScenarioError, match="commands.red.commander"):
        LW.load_scenario({"base": "skirmish", "commands": {"red": {"commander": ["foot1"]}}})


def test_a_whole_little_wars_game_with_two_commands_a_side():
    """Both arms of each side order their own groups; the merged orders play to the end."""
    from rules.littlewars.testing import bot_orders

    state = play_until(LW, team_game())
    for _ in range(40):
        if state["phase"] == "over":
            break
        orders = {}
        for side in ("red", "blue"):
            full = LW.parse_orders(state, side, bot_orders(state, side)).orders
            texts = {}
            for cmd in ("infantry", "cavalry"):
                mine = [o for o in full if not LW.command_errors(state, side, cmd, [o])]
                texts[cmd] = "\n".join(
                    o.text for o in mine if o.text not in sum(map(str.splitlines, texts.values()), [])
                )
            text, _ = LW.merge_orders(state, side, texts)
            parsed = LW.parse_orders(state, side, text)
            assert parsed.ok and not LW.validate(state, side, parsed.orders), text
            orders[side] = parsed.orders
        state = fold_all(state, LW.adjudicate(state, orders, random.Random(state["turn"])))
    assert state["phase"] == "over" and state["result"]
