"""Orders that crashed a rule set (issue 33): validate refuses them with a reason, and adjudicate
never raises on them (an order accepted before the fix is adjudicated, not a wedged turn).

No rules version changes for these fixes: every such order either raised in ``validate`` (it was
never accepted) or in ``adjudicate`` (no turn with it was ever recorded), so no stored game's events
can differ."""

from __future__ import annotations

import random

import pytest

from rules.napoleon import RULESET as NW
from rules.napoleon import testing as nw
from rules.warworlds import RULESET as WW
from rules.warworlds import testing as ww


def _errors(rs, state, side, text):
    parsed = rs.parse_orders(state, side, text)
    return [e.message for e in parsed.errors] + [e.message for e in rs.validate(state, side, parsed.orders)]


def _own_unit(state, side):
    units = state["units"]
    return next(u for uid, u in sorted(units.items()) if u["side"] == side and u.get("hex") and u["status"] == "active")


@pytest.mark.parametrize("hexlabel", ["0600", "0000", "0006"])
def test_war_of_the_worlds_refuses_a_hex_with_row_or_column_zero(hexlabel):
    state = ww.start()
    side = WW.next_turn(state).sides[0]
    unit = _own_unit(state, side)
    assert _errors(WW, state, side, f"move {unit['id']} to {hexlabel}") == [f"hex {hexlabel} is not on the map"]


def test_war_of_the_worlds_refuses_a_move_to_where_the_unit_stands_and_adjudicates_it_accepted():
    state = ww.start()
    side = WW.next_turn(state).sides[0]
    unit = _own_unit(state, side)
    text = f"move {unit['id']} to {unit['hex']}"
    assert _errors(WW, state, side, text) == [
        f"{unit['id']} already stands at {unit['hex']}: write 'hold {unit['id']}' to keep it there"
    ]
    # accepted by the code before the fix: adjudicated now (the unit stays), never an IndexError
    orders = {side: WW.parse_orders(state, side, text).orders}
    events = WW.adjudicate(state, orders, random.Random(3))
    after = WW.fold_events(state, events)
    assert after["units"][unit["id"]]["hex"] == unit["hex"]


@pytest.mark.parametrize("hexlabel", ["0600", "0000"])
def test_napoleon_refuses_a_hex_with_row_or_column_zero(hexlabel):
    state = nw.start()
    side = NW.next_turn(state).sides[0]
    unit = _own_unit(state, side)
    assert f"hex {hexlabel} is not on the map" in _errors(NW, state, side, f"move {unit['id']} to {hexlabel}")
