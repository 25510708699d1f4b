"""The order language and movement: parse errors naming lines, distances, pivots, terrain (KW-12..16, KW-24, KW-26)."""

from rules.kingsofwar.orders import parse_text
from rules.kingsofwar.testing import errors, make_scenario, of, play, start

WOOD = {"id": "wood", "kind": "difficult", "height": 3, "polygon": [[30, 14], [42, 14], [42, 20], [30, 20]]}
HOUSE = {"id": "house", "kind": "impassable", "height": 4, "polygon": [[30, 14], [42, 14], [42, 20], [30, 20]]}
HEDGE = {"id": "hedge", "kind": "obstacle", "height": 0.5, "line": [[30, 16], [42, 16]], "width": 0.5}


def test_parse_orders_and_errors_name_the_line():
    parsed = parse_text(
        "r1 halt\nr2 advance 4 pivot left 45\n\n# comment\nr3 at the double 10\nr4 charge b1\n"
        "r5 counter-charge b2\nr6 shoot b3\nr7 advance\nr8 fly away\nr9 charge"
    )
    assert [(o.unit, o.verb) for o in parsed.orders] == [
        ("r1", "halt"),
        ("r2", "advance"),
        ("r3", "double"),
        ("r4", "charge"),
        ("r5", "counter"),
        ("r6", "shoot"),
    ]
    assert parsed.orders[1].pivot == 45 and parsed.orders[1].dist == 4
    assert [(e.line, e.text) for e in parsed.errors] == [(9, "r7 advance"), (10, "r8 fly away"), (11, "r9 charge")]
    assert "needs a distance" in parsed.errors[0].message
    assert "unknown order 'fly away'" in parsed.errors[1].message
    assert "needs one enemy unit" in parsed.errors[2].message


def test_validation_names_units_distances_and_turn():
    s = start(make_scenario([("r1", "spearmen", 36, 8, 90), ("b1", "axe band", 36, 40, 270)]))
    assert "no unit 'r9'" in errors(s, "red", "r9 halt")[0].message
    assert "is not yours" in errors(s, "red", "b1 halt")[0].message
    assert "at most 5 in" in errors(s, "red", "r1 advance 6")[0].message
    assert "at most 90 degrees" in errors(s, "red", "r1 advance 2 pivot left 120")[0].message
    assert "already has an order on line 1" in errors(s, "red", "r1 halt\nr1 advance 2")[0].message
    assert "not blue's turn" in errors(s, "blue", "b1 halt")[0].message
    assert errors(s, "red", "r1 advance 5 pivot right 90") == []


def test_advance_pivots_about_the_centre_then_moves_ahead():
    s = start(make_scenario([("r1", "spearmen", 36, 8, 90), ("b1", "axe band", 36, 40, 270)]))
    s, ev = play(s, "red", "r1 advance 5 pivot right 90")
    u = s["units"]["r1"]
    assert u["facing"] == 0
    # centre was (36, 8 - d/2); after the pivot the leader point is d/2 east of it, then 5 in east
    assert abs(u["x"] - (36 + u["d"] / 2 + 5)) < 1e-6 and abs(u["y"] - (8 - u["d"] / 2)) < 1e-6


def test_impassable_terrain_and_table_edge_kw_12():
    s = start(make_scenario([("r1", "spearmen", 36, 10, 90), ("b1", "axe band", 36, 40, 270)], [HOUSE]))
    assert "impassable terrain 'house'" in errors(s, "red", "r1 advance 5")[0].message
    assert errors(s, "red", "r1 advance 5 pivot left 90") == []  # pivoting past it is allowed (KW-12)
    s2 = start(make_scenario([("r1", "spearmen", 3, 10, 180), ("b1", "axe band", 36, 40, 270)]))
    assert "leave the table" in errors(s2, "red", "r1 advance 4")[0].message


def test_at_the_double_never_through_difficult_or_obstacles_kw_13_14_dt_6():
    for piece in (WOOD, HEDGE):
        s = start(make_scenario([("r1", "spearmen", 36, 10, 90), ("b1", "axe band", 36, 40, 270)], [piece]))
        msg = errors(s, "red", "r1 double 8")[0].message
        assert f"cannot go At the Double through {piece['kind']} '{piece['id']}'" in msg
        assert errors(s, "red", "r1 advance 5") == []  # an Advance may cross it


def test_tall_obstacle_is_impassable_and_decorative_is_ignored_kw_15_16():
    wall = dict(HEDGE, id="wall", height=1.0)
    s = start(make_scenario([("r1", "spearmen", 36, 12, 90), ("b1", "axe band", 36, 40, 270)], [wall]))
    assert "impassable terrain 'wall'" in errors(s, "red", "r1 advance 5")[0].message
    bush = dict(WOOD, id="bush", kind="decorative")
    s = start(make_scenario([("r1", "spearmen", 36, 10, 90), ("b1", "axe band", 36, 40, 270)], [bush]))
    assert errors(s, "red", "r1 double 8") == []


def test_no_ordinary_move_ends_within_an_inch_of_the_enemy():
    s = start(make_scenario([("r1", "spearmen", 36, 10, 90), ("b1", "axe band", 36, 15.5, 270)]))
    assert "within 1 in of enemy b1" in errors(s, "red", "r1 advance 5")[0].message


def test_shooting_after_at_the_double_is_refused_kw_26():
    s = start(make_scenario([("r1", "archers", 36, 8, 90), ("b1", "axe band", 36, 30, 270)]))
    msg = errors(s, "red", "r1 double 6\nr1 shoot b1")[0]
    assert msg.line == 2 and "At the Double on line 1" in msg.message


def test_a_unit_given_no_order_halts_kw_24_and_refused_lines_are_logged():
    s = start(
        make_scenario([("r1", "spearmen", 36, 8, 90), ("r2", "spearmen", 50, 8, 90), ("b1", "axe band", 36, 40, 270)])
    )
    s2, ev = play(s, "red", "r2 advance 9")
    assert s2["units"]["r1"]["x"] == 36 and s2["units"]["r1"]["y"] == 8
    assert s2["units"]["r2"]["y"] == 8  # refused: halts
    assert of(ev, "order_refused")[0]["line"] == 1
