"""Orders by clicks, the rule side (rules.core.protocol.OrderComposer): every rule set makes order
lines its own parser and validation accept, from the orderer's own view only; a click that makes
no order says why; the side's orders read back as marks to draw."""

import pytest

from rules import catalog
from rules.core.compose import CompositionError
from rules.core.protocol import Viewer, composes_orders


def own_view(rs, state, side):
    return rs.view(state, Viewer("player", side))


def accepted(rs, state, side, line):
    parsed = rs.parse_orders(state, side, line)
    return not parsed.errors and not rs.validate(state, side, parsed.orders)


@pytest.mark.parametrize("name", ["civilwar", "littlewars", "kriegspiel", "warworlds", "napoleon", "kingsofwar"])
def test_every_built_in_rule_set_composes_orders(name):
    assert composes_orders(catalog.get(name))


def test_civil_war_lights_the_operations_of_a_place_and_offers_each():
    from rules.civilwar.testing import row_map, state

    rs = catalog.get("civilwar")
    st = state(
        row_map(),
        tokens={"C7": "blue", "C8": "red"},
        units={"R12": "red", "C2": "red", "R23": "red", "C3": "blue", "R37": "red"},
    )
    board = own_view(rs, st, "red")
    targets = rs.order_targets(board, "red", "R23")
    assert targets["C3"] == ["assault C3 from R23", "breakthrough C3 from R23"]
    assert rs.compose_order(board, "red", "R23", {"node": "C3"}) == "assault C3 from R23"
    assert rs.compose_order(board, "red", "R23", {"node": "C3", "verb": "breakthrough"}) == "breakthrough C3 from R23"
    for lines in targets.values():
        assert all(accepted(rs, st, "red", line) for line in lines)
    with pytest.raises(CompositionError, match="no operation open to you now takes R23 to C6"):
        rs.compose_order(board, "red", "R23", {"node": "C6"})
    assert rs.order_targets(own_view(rs, st, "blue"), "blue", "C3") == {}  # not blue's turn: nothing lights up
    marks = rs.pending_marks(board, "red", "# a plan\nbreakthrough C3 from R23\nif attacked fight")
    assert marks == [{"unit": "R23", "verb": "breakthrough", "to": {"node": "C3"}}]


def test_little_wars_sends_a_group_to_a_point_and_a_gun_fires_in_battle():
    from rules.littlewars.testing import new_game

    rs = catalog.get("littlewars")
    st = new_game()
    board = own_view(rs, st, "red")
    line = rs.compose_order(board, "red", "foot1", {"x": "20.04", "y": 5})
    assert line == "deploy foot1 at 20,5" and accepted(rs, st, "red", line)
    with pytest.raises(CompositionError, match="guns fire once the battle has begun"):
        rs.compose_order(board, "red", "gun1", {"x": 20, "y": 20, "verb": "fire"})
    with pytest.raises(CompositionError, match="not one of your troops"):
        rs.compose_order(own_view(rs, st, "blue"), "blue", "foot9", {"x": 1, "y": 1})
    with pytest.raises(CompositionError, match="choose a point"):
        rs.compose_order(board, "red", "foot1", {"hex": "0101"})
    with pytest.raises(CompositionError, match="'ram' is not an order"):
        rs.compose_order(board, "red", "foot1", {"x": 1, "y": 1, "verb": "ram"})
    assert rs.pending_marks(board, "red", "move foot1 to 3,4\nfire gun1 at 5,6 7,8\nhold") == [
        {"unit": "foot1", "verb": "move", "to": {"x": 3.0, "y": 4.0}},
        {"unit": "gun1", "verb": "fire", "to": {"x": 5.0, "y": 6.0}},
    ]


@pytest.mark.parametrize("name", ["warworlds", "napoleon"])
def test_a_hex_unit_moves_to_a_hex_and_engages_an_enemy(name):
    import importlib

    rs = catalog.get(name)
    st = importlib.import_module(f"rules.{name}.testing").start()
    board = own_view(rs, st, "red")
    unit = next(u for u in board["units"] if u["side"] == "red")
    enemy = next(u for u in board["units"] if u["side"] != "red")
    line = rs.compose_order(board, "red", unit["id"], {"hex": "0505"})
    assert line == f"move {unit['id']} to 0505"
    assert not rs.parse_orders(st, "red", line).errors
    with pytest.raises(CompositionError, match="not one of your units"):
        rs.compose_order(board, "red", enemy["id"], {"hex": "0505"})
    with pytest.raises(CompositionError, match="choose a hex"):
        rs.compose_order(board, "red", unit["id"], {"x": 1, "y": 2})
    assert rs.pending_marks(board, "red", line) == [{"unit": unit["id"], "verb": "move", "to": {"hex": "0505"}}]


def test_kings_of_war_advances_at_the_point_pivoting_and_charges_the_enemy_clicked():
    import math

    from rules.kingsofwar.testing import start

    rs = catalog.get("kingsofwar")
    st = start(rs.scenarios()[0][0])
    side = rs.next_turn(st).sides[0]
    board = own_view(rs, st, side)
    unit = next(u for u in board["units"] if u["side"] == side)
    enemy = next(u for u in board["units"] if u["side"] != side)
    ahead = math.radians(unit["facing"] + 30)
    line = rs.compose_order(
        board, side, unit["id"], {"x": unit["x"] + 4 * math.cos(ahead), "y": unit["y"] + 4 * math.sin(ahead)}
    )
    assert line == f"{unit['id']} advance 4 pivot left 30"
    assert not rs.parse_orders(st, side, line).errors
    behind = math.radians(unit["facing"] + 180)
    with pytest.raises(CompositionError, match="pivots at most 90"):
        rs.compose_order(
            board, side, unit["id"], {"x": unit["x"] + 3 * math.cos(behind), "y": unit["y"] + 3 * math.sin(behind)}
        )
    assert rs.compose_order(board, side, unit["id"], {"unit": enemy["id"]}) == f"{unit['id']} charge {enemy['id']}"
    [mark] = rs.pending_marks(board, side, line)
    assert mark["unit"] == unit["id"] and math.isclose(mark["to"]["x"], unit["x"] + 4 * math.cos(ahead), abs_tol=1e-6)


def test_kriegspiel_orders_its_table_in_little_wars_words():
    import random

    rs = catalog.get("kriegspiel")
    st = rs.set_up(rs.load_scenario(None), random.Random(1))
    board = own_view(rs, st, "red")
    group = next(iter(board["groups"]["red"]))
    line = rs.compose_order(board, "red", group, {"x": 40, "y": 10})
    assert line == f"deploy {group} at 40,10" and not rs.parse_orders(st, "red", line).errors
