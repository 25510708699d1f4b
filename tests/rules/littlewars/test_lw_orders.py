"""The order language: parsing per line and validation with reasons."""

import pytest

from rules.littlewars import RULESET as RS
from rules.littlewars.orders import Fire, Form, Melee, Merge, Move, Split, parse_text
from rules.littlewars.testing import build, new_game, play


def msgs(state, side, text):
    parsed = RS.parse_orders(state, side, text)
    return [(e.line, e.message) for e in parsed.errors] + [
        (e.line, e.message) for e in RS.validate(state, side, parsed.orders)
    ]


def test_every_order_form_parses():
    text = """# a comment
move foot1 to 24,18
move horse to (10, 20) then 30,30
move foot1 line 10,14 30,14
fire gun1 at 30,40 31,40; 32,41 30,42
split foot1 8 as scouts nearest 20,10
merge scouts into foot1
form column from foot1, horse, i3
escort pow1 to 24,2
surrender foot2
melee kill cavalry lose farthest
hold
deploy foot1 at 20,4
"""
    parsed = parse_text(text)
    assert parsed.ok, parsed.errors
    kinds = [type(o).__name__ for o in parsed.orders]
    assert kinds == [
        "Move",
        "Move",
        "Move",
        "Fire",
        "Split",
        "Merge",
        "Form",
        "Escort",
        "Surrender",
        "Melee",
        "Hold",
        "Move",
    ]
    o = parsed.orders
    assert o[1].points == ((10.0, 20.0), (30.0, 30.0)) and o[2].line_form
    assert o[3] == Fire(5, "fire gun1 at 30,40 31,40; 32,41 30,42", "gun1", ((30, 40), (31, 40), (32, 41), (30, 42)))
    assert o[4] == Split(6, o[4].text, "foot1", 8, "scouts", (20.0, 10.0))
    assert o[5] == Merge(7, o[5].text, "scouts", "foot1")
    assert o[6] == Form(8, o[6].text, "column", ("foot1", "horse", "i3"))
    assert o[9] == Melee(11, o[9].text, "cavalry", "farthest")
    assert isinstance(o[11], Move) and o[11].deploy


@pytest.mark.parametrize(
    "line, fragment",
    [
        ("fly to the moon", "unknown order 'fly'"),
        ("fire gun1 at 1,1 2,2 3,3 4,4 5,5", "1 to 4 shots"),
        ("move foot1 to here", "cannot read 'here'"),
        ("move foot1 line 1,1", "exactly two points"),
        ("melee kill everyone", "cannot read this 'melee' order"),
        ("split foot1 as x", "cannot read this 'split' order"),
    ],
)
def test_bad_lines_get_a_reason_and_their_number(line, fragment):
    parsed = parse_text(f"hold\n{line}")
    assert [e.line for e in parsed.errors] == [2]
    assert fragment in parsed.errors[0].message


def _pos():
    return build(
        red=[("foot", "inf", [(10 + 0.75 * k, 10) for k in range(6)]), ("horse", "cav", [(30, 10), (31.5, 10)])],
        blue=[("enemy", "inf", [(10, 30)])],
        guns=[("red", "gun1", 12, 7, 90), ("blue", "gun1", 40, 33, 270)],
        terrain=[{"id": "barn", "type": "building", "polygon": [[20, 14], [26, 14], [26, 20], [20, 20]]}],
    )


def test_names_are_checked():
    s = _pos()
    assert "unknown name 'ghost'" in msgs(s, "red", "move ghost to 1,1")[0][1]
    assert "not your figure: enemy belongs to blue" in msgs(s, "red", "move enemy to 1,1")[0][1]
    assert msgs(s, "red", "move I3 to 12,12") == []  # names are case-insensitive
    assert "i99" in msgs(s, "red", "move i99 to 1,1")[0][1]


def test_moves_are_limited_by_path_length_around_buildings():
    s = _pos()
    assert msgs(s, "red", "move foot to 11.9,21.9") == []  # 11.9 in straight north
    assert "out of range" in msgs(s, "red", "move foot to 11.9,22.2")[0][1]
    assert "LW-17" in msgs(s, "red", "move foot to 11.9,22.2")[0][1]
    # horse (cavalry, 24 in): straight line through the barn is 16 in, round it is longer but within 24
    assert msgs(s, "red", "move horse to 21,26") == []
    assert "building 'barn'" in msgs(s, "red", "move horse to 23,17")[0][1]


def test_one_order_per_figure_and_gun():
    s = _pos()
    errs = msgs(s, "red", "move foot to 11,12\nmove i2 to 12,12")
    assert errs == [(2, "i2 already has an order on line 1")]
    s2 = {**s, "turn": s["play_from"] + 1}  # the second turn of play: guns may fire
    errs = msgs(s2, "red", "fire gun1 at 10,30\nmove gun1 to 12,9")
    assert errs[0][0] == 2 and "moves or fires in a turn, not both (LW-20)" in errs[0][1]


def test_group_changes_apply_first_and_new_names_are_usable():
    s = _pos()
    assert msgs(s, "red", "move scouts to 12,15\nsplit foot 2 as scouts nearest 10,10") == []
    parsed = RS.parse_orders(
        s, "red", "split foot 2 as scouts nearest 10,10\nmerge horse into foot\nform all from foot, scouts"
    )
    assert not RS.validate(s, "red", parsed.orders)
    new, events = play(s, red="split foot 2 as scouts nearest 10,10\nmove scouts to 10.4,14")
    assert sorted(new["groups"]["red"]["scouts"]) == ["red:i1", "red:i2"]
    assert [e.audience for e in events if e.type.endswith("groups_changed")] == ["side:red"]
    assert "already in use" in msgs(s, "red", "split foot 2 as horse")[0][1]
    assert "between 1 and 5" in msgs(s, "red", "split foot 6 as x")[0][1]
    assert "looks like a figure name" in msgs(s, "red", "split foot 2 as i77")[0][1]


def test_deploy_orders_belong_to_the_deployment_turn():
    game = new_game("skirmish")
    assert msgs(game, "red", "deploy foot1 at 16,5") == []
    assert "deployment turn" in msgs(game, "red", "move foot1 to 16,5")[0][1]
    assert "within 8 in" in msgs(game, "blue", "deploy foot1 at 16,5")[0][1]
    assert "deploy orders are for the deployment turn only" in msgs(_pos(), "red", "deploy foot at 10,3")[0][1]


def test_default_orders_hold_and_are_valid():
    s = _pos()
    text = RS.default_orders(s, "red")
    assert text == "hold" and msgs(s, "red", text) == []


def test_prisoner_group_names_are_reserved():
    s = _pos()
    assert "reserved for prisoner and freed groups" in msgs(s, "red", "split foot 2 as pow3")[0][1]
    assert "reserved" in msgs(s, "red", "form freed1 from horse")[0][1]
