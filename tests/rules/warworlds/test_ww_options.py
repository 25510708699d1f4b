"""The orders open to a side (the game page's list): all of them valid, and built from the side's
own view only, so a hidden enemy changes nothing in the list."""

import pytest

from rules.core.protocol import Viewer
from rules.warworlds import RULESET as RS
from rules.warworlds.testing import battle, bot_orders, play_round, start

RED = Viewer("player", "red")


def every_order(lines: list[str]) -> list[str]:
    """The listed orders, with each 'or to any of' hex of a move written out as its own order."""
    out = []
    for line in lines:
        order, _, more = line.partition("   (or to any of: ")
        out.append(order)
        if more:
            verb, unit, to, _dest, *mode = order.split()  # (a deploy order has no speed)
            out += [" ".join([verb, unit, to, h, *mode]) for h in more.rstrip(")").split()]
    return out


@pytest.mark.parametrize("scenario", ["field_battle", "town_assault"])
def test_every_listed_order_is_valid_in_every_round(scenario):
    state, rounds_with_orders = start(scenario, 5), set()
    for n in range(9):
        for side in RS.next_turn(state).sides:
            lines = RS.legal_orders(RS.view(state, Viewer("player", side)), side)
            if lines:
                rounds_with_orders.add(state["round"])
            for text in every_order(lines):
                parsed = RS.parse_orders(state, side, text)
                assert not parsed.errors and not RS.validate(state, side, parsed.orders), (state["round"], text)
        state, _ = play_round(state, {s: bot_orders(state, s) for s in RS.next_turn(state).sides}, n)
    assert rounds_with_orders == {"movement", "shooting", "melee"}


def red_and_blue(blue_hidden: bool | None, rnd: str) -> dict:
    units = [
        {"id": "R1", "side": "red", "profile": "infantry", "at": "0303", "models": {"rifle": 10}},
        {"id": "B1", "side": "blue", "profile": "infantry", "at": "0306", "models": {"rifle": 10}},
    ]
    if blue_hidden is not None:  # a second blue squad next to R1, in the hex it would walk into
        units.append(
            {
                "id": "B2",
                "side": "blue",
                "profile": "infantry",
                "at": "0304",
                "models": {"rifle": 10},
                "hidden": blue_hidden,
            }
        )
    return battle(units, rnd=rnd)


@pytest.mark.parametrize("rnd", ["movement", "shooting", "melee"])
def test_a_hidden_enemy_changes_nothing_in_the_list(rnd):
    alone = RS.legal_orders(RS.view(red_and_blue(None, rnd), RED), "red")
    hidden = RS.legal_orders(RS.view(red_and_blue(True, rnd), RED), "red")
    seen = RS.legal_orders(RS.view(red_and_blue(False, rnd), RED), "red")
    assert hidden == alone and "B2" not in "\n".join(hidden)
    assert seen != alone  # the same squad in sight does change it: the list is not blind


def test_no_list_for_a_side_that_does_not_act_or_the_umpire():
    state = start("field_battle", 1)
    assert RS.legal_orders(RS.view(state, Viewer("umpire", None)), None) == []
    over = {**state, "result": {"winner": "red", "reason": "test", "score": {"red": 1, "blue": 0}}}
    assert RS.legal_orders(RS.view(over, RED), "red") == []
