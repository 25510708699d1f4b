"""Bases, arcs, terrain, heights, line of sight and cover (KW-12..22, KW-29..35, KW-EX-2..5)."""

import math

import pytest

from rules.kingsofwar import geom
from rules.kingsofwar.battlefield import Battlefield, Sighter, level_of, piece_of


def unit(x, y, facing=90, w=4.0, d=3.0, h=1):
    return {"x": x, "y": y, "facing": facing, "w": w, "d": d, "h": h}


def field(*terrain, width=72, depth=48):
    return Battlefield({"table": {"width": width, "depth": depth}, "terrain": list(terrain)})


def wall(y, height, x0=20, x1=40, kind="impassable", pid="w"):
    return {"id": pid, "kind": kind, "line": [[x0, y], [x1, y]], "width": 0.5, "height": height}


def test_base_rectangle_leader_point_at_front_centre():
    u = unit(10, 10, facing=90, w=4, d=3)
    b = geom.base(u)
    assert b.bounds == pytest.approx((8, 7, 12, 10))
    c = geom.corners(u)
    assert c["FL"] == pytest.approx((8, 10)) and c["FR"] == pytest.approx((12, 10))
    assert geom.centre(u) == pytest.approx((10, 8.5))


@pytest.mark.parametrize("mode", geom.ARC_MODES)
def test_arcs_front_flank_rear(mode):
    u = unit(10, 10, facing=90, w=4, d=3)
    assert geom.arc_of(u, (10, 20), mode) == "front"
    assert geom.arc_of(u, (10, -5), mode) == "rear"
    assert geom.arc_of(u, (20, 8.5), mode) == "right"
    assert geom.arc_of(u, (0, 8.5), mode) == "left"


def test_arc_readings_differ_in_the_band_between_45_and_the_diagonal():
    u = unit(0, 0, facing=90, w=4, d=3)  # diagonal ray: 3/4 rise per unit out, i.e. 36.9 degrees
    p = (2 + 10, 9)  # 42 degrees above the front-right corner's horizontal
    assert geom.arc_of(u, p, "diagonal") == "front"
    assert geom.arc_of(u, p, "corner45") == "right"


def test_a_point_on_the_45_ray_is_flank():
    u = unit(0, 0, facing=30, w=4, d=3)
    on_ray = geom.to_world(u, [(2 + 5, 5)])[0]
    assert geom.arc_of(u, on_ray) == "right"
    just_in = geom.to_world(u, [(2 + 5, 5.001)])[0]
    assert geom.arc_of(u, just_in) == "front"


def test_arc_polygons_agree_with_arc_of():
    u = unit(30, 20, facing=200, w=4, d=3)
    for p in [(30, 40), (10, 20), (50, 5), (31, 31), (5, 5)]:
        arc = geom.arc_of(u, p)
        assert geom.arc_polygon(u, arc).buffer(1e-9).contains(geom.Point(p))


def test_range_tie_after_rotation_is_in_range():
    # KW-DT-5: 24.0 in after a rotation is in range, 24.1 is not
    u = unit(0, 0, facing=30)
    t = dict(geom.moved(unit(0, 0, facing=30), forward=24), facing=210)  # front edge 24 in ahead, facing back
    d = geom.leader_distance(u, geom.base(t))
    assert math.isclose(d, 24.0, abs_tol=1e-5) and geom.in_range(d, 24)
    assert not geom.in_range(24.1, 24)


def test_pivot_about_centre_keeps_centre():
    u = unit(10, 10, facing=90)
    p = geom.moved(u, pivot=90)
    assert geom.centre(p) == pytest.approx(geom.centre(u))
    assert p["facing"] == 180


def test_levels_from_inches_kw_ex_4():
    assert level_of({"kind": "impassable", "height": 2}) == 2
    assert level_of({"kind": "hill", "level": 3}) == 3


def test_obstacle_one_inch_or_taller_is_impassable_kw_15():
    low = piece_of({"id": "h", "kind": "obstacle", "line": [[0, 0], [5, 0]], "height": 0.5})
    tall = piece_of({"id": "w", "kind": "obstacle", "line": [[0, 0], [5, 0]], "height": 1.0})
    assert low.kind == "obstacle" and low.level == 1 and low.hinders and not low.impassable
    assert tall.impassable and tall.kind == "obstacle" and tall.level == 1  # still never blocks sight (KW-18)


def test_heights_on_a_hill_kw_ex_2():
    hill = {"id": "hill", "kind": "hill", "level": 2, "polygon": [[0, 0], [20, 0], [20, 20], [0, 20]]}
    f = field(hill)
    assert f.height(unit(10, 10, h=1)) == 3  # war engine
    assert f.height(unit(10, 10, h=2)) == 4  # large infantry
    assert f.height(unit(10, 22.0, h=1)) == 1  # only a third of the base on the hill (KW-22: most of it)


@pytest.mark.parametrize("version", [1, 2])
def test_wall_of_two_blocks_sight_between_height_one_units_kw_ex_3(version):
    units = {"a": unit(30, 10, 90), "b": unit(30, 30, 270)}
    for rule in ("both", "either"):
        assert not Sighter(field(wall(20, 2)), units, rule, version=version).sight("a", "b").los


def test_kw_19_a_wall_of_one_does_not_hide_height_one_units_from_each_other():
    """Version 2 (issue 33, KW-EX-3: «стена высотой 2 или выше» blocks between height-1 units, so a
    wall of 1 does not): they see each other, and the wall, as high as both, gives cover."""
    units = {"a": unit(30, 10, 90), "b": unit(30, 30, 270)}
    for rule in ("both", "either"):
        s = Sighter(field(wall(20, 1)), units, rule).sight("a", "b")  # the current version
        assert s.los and s.cover is True and s.obscured == 1.0
    # ends of 2 and 1: a wall must be higher than both (the default rule) or than either to block
    units2 = {"a": unit(30, 10, 90, h=2), "b": unit(30, 30, 270)}
    assert Sighter(field(wall(20, 2)), units2, "both").sight("a", "b").los
    assert not Sighter(field(wall(20, 2)), units2, "either").sight("a", "b").los
    assert not Sighter(field(wall(20, 3)), units2, "both").sight("a", "b").los


def test_kw_19_a_wall_of_one_still_blocks_in_a_version_1_game():
    """0.2.0's rule, kept for games set up before version 2: as high as both ends blocks."""
    units = {"a": unit(30, 10, 90), "b": unit(30, 30, 270)}
    assert not Sighter(field(wall(20, 1)), units, version=1).sight("a", "b").los


def test_lower_unit_in_the_way_gives_cover_and_large_target_ignores_it_kw_ex_5():
    f = field()
    blocker = unit(30, 22, 90, w=12, d=2, h=1)
    units = {"a": unit(30, 10, 90, h=2), "b": unit(30, 30, 270, h=2), "c": blocker}
    s = Sighter(f, units).sight("a", "b")
    assert s.los and s.cover is True  # height 1 is lower than shooter and target
    units["b"] = unit(30, 30, 270, h=4)
    assert Sighter(f, units).sight("a", "b").cover is False  # three levels lower: no cover


def test_unit_as_high_as_both_blocks_in_a_version_1_game():
    units = {"a": unit(30, 10, 90), "b": unit(30, 30, 270), "c": unit(30, 22, 90, w=12, d=2, h=1)}
    assert not Sighter(field(), units, version=1).sight("a", "b").los
    assert Sighter(field(), units, block_rule="either", version=1).sight("a", "b").los is False


def test_kw_19_a_unit_blocks_as_a_wall_of_its_height_does():
    """Version 2: terrain blocks "as a unit of the same height would" (KW-19), so a unit as high as
    both ends gives cover and one higher than both blocks, as walls do."""
    units = {"a": unit(30, 10, 90), "b": unit(30, 30, 270), "c": unit(30, 22, 90, w=12, d=2, h=1)}
    s = Sighter(field(), units).sight("a", "b")
    assert s.los and s.cover is True
    units["c"] = unit(30, 22, 90, w=12, d=2, h=2)
    assert not Sighter(field(), units).sight("a", "b").los


def test_half_base_in_difficult_terrain_is_cover_and_wood_hides_nothing_inside():
    wood = {"id": "wood", "kind": "difficult", "height": 3, "polygon": [[20, 27], [40, 27], [40, 40], [20, 40]]}
    units = {"a": unit(30, 10, 90), "b": unit(30, 30, 270)}  # b's base spans y 30..33: all inside
    s = Sighter(field(wood), units).sight("a", "b")
    assert s.los and s.ground_cover and s.cover is True
    behind = {"a": unit(30, 10, 90), "b": unit(30, 45, 270)}
    assert not Sighter(field(wood), behind).sight("a", "b").los  # KW-21: blocks what is behind it


def test_shooter_touching_a_low_wall_ignores_it_unless_the_target_touches_it_kw_31():
    hedge = wall(10.2, 0.5, kind="obstacle")
    units = {"a": unit(30, 10, 90), "b": unit(30, 30, 270)}
    assert Sighter(field(hedge), units).sight("a", "b").cover is False
    far_hedge = wall(20, 0.5, kind="obstacle")
    s = Sighter(field(far_hedge), units).sight("a", "b")
    assert s.los and s.cover is True  # KW-18: never blocks, height 1 for cover


def test_a_one_inch_wall_stops_movement_but_not_sight_kw_15_18():
    wall1 = wall(20, 1.0, kind="obstacle")
    s = Sighter(field(wall1), {"a": unit(30, 10, 90), "b": unit(30, 30, 270)}).sight("a", "b")
    assert s.los and s.cover is True


def test_shooter_on_hill_looks_over_low_things_kw_32():
    hill = {"id": "hill", "kind": "hill", "level": 2, "polygon": [[20, 0], [40, 0], [40, 12], [20, 12]]}
    units = {"a": unit(30, 10, 90), "b": unit(30, 30, 270), "c": unit(30, 22, 90, w=12, d=2, h=1)}
    s = Sighter(field(hill), units).sight("a", "b")
    assert s.los and s.cover is False


def test_partly_hidden_target_is_in_cover_and_near_half_is_doubtful():
    # a tall building hides the left part of the target's side
    house = {"id": "house", "kind": "impassable", "height": 4, "polygon": [[20, 19], [30, 19], [30, 21], [20, 21]]}
    units = {"a": unit(30, 10, 90), "b": unit(30, 30, 270, w=4)}
    s = Sighter(field(house), units).sight("a", "b")
    assert s.los and s.doubtful and s.cover is None
    house2 = dict(house, polygon=[[20, 19], [30.4, 19], [30.4, 21], [20, 21]])
    s2 = Sighter(field(house2), units).sight("a", "b")
    assert s2.los and not s2.doubtful and s2.cover is True


def test_front_arc_target_selection_kw_29():
    u = unit(30, 10, 90)
    assert geom.partly_in_front(u, geom.base(unit(40, 20, 180)))
    assert not geom.partly_in_front(u, geom.base(unit(45, 20, 180)))  # flank arc only
    assert not geom.partly_in_front(u, geom.base(unit(30, 0, 90)))
