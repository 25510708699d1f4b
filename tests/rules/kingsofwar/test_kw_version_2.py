"""Kings of War version 2 (issue 33), with version 1 kept for games set up before it (and kept in
version 3, test_kw_version_3.py: the games below set up now play version 3).

- KW-19: a wall (or unit) only as high as both ends gives cover instead of blocking sight
  (KW-EX-3: a wall of 2 or more blocks between height-1 units); the geometry is in test_kw_geometry.
- Rounding: chargers of a massed charge at a slant no longer overlap by the sliver rounding leaves
  (positions keep 6 decimals), so they regroup, advance next turn and keep the invariants.
- KW-1 / KW-EX-1: of three units abreast with bases touching, two charge and the third is refused.

A version 1 game is one whose scenario records no ``rules_version`` (set up by 0.2.0).
"""

import math

from rules.core.protocol import Viewer
from rules.kingsofwar import RULESET as KW
from rules.kingsofwar import geom
from rules.kingsofwar.testing import errors, make_scenario, of, play, start

AREA_EPS = 1e-6  # square inches: version 1's only test of an overlap (geom.AREA_EPS)
UMPIRE = Viewer(role="umpire", side=None)
WALL = {"id": "wall", "kind": "impassable", "height": 1, "line": [[20, 15], [40, 15]], "width": 0.5}
COPSE = {"id": "copse", "kind": "difficult", "height": 1, "polygon": [[25, 12], [35, 12], [35, 14], [25, 14]]}


def _as_version_1(state):
    """A game set up by version 1 (0.2.0): its scenario records no rules version."""
    return {**state, "scenario": {k: v for k, v in state["scenario"].items() if k != "rules_version"}}


def _as_version_2(state):
    """A game set up by version 2 (0.3.0, before version 3)."""
    return {**state, "scenario": {**state["scenario"], "rules_version": 2}}


def test_a_version_2_game_keeps_version_2_and_its_view_says_so():
    """Set up by 0.3.0 before version 3 (issue 33's charge plan, test_kw_version_3.py)."""
    s = _as_version_2(start(make_scenario([("r1", "archers", 30, 10, 90), ("b1", "axe band", 30, 20, 270)])))
    assert KW.unrecorded_version(s) == 2 and KW.unrecorded_version(_as_version_1(s)) == 1
    assert KW.view(s, UMPIRE)["rules_version"] == 2
    assert "rules_version" not in KW.view(_as_version_1(s), UMPIRE)  # a 0.2.0 game's view is as it was
    assert KW.versions[2].startswith("0.3.0: ")
    assert KW.pinned(1) is KW and KW.pinned(2) is KW  # kept by the flag its scenario records (rules/README.md)


def test_moving_a_version_1_game_on_records_the_current_version():
    s = _as_version_1(start(make_scenario([("r1", "archers", 30, 10, 90), ("b1", "axe band", 30, 20, 270)], [WALL])))
    moved = KW.carry_over(s, 1)
    assert moved["scenario"]["rules_version"] == KW.version and KW.unrecorded_version(moved) == KW.version
    assert moved["units"] == s["units"]
    assert of(play(moved, "red", "r1 halt\nr1 shoot b1")[1], "shot")  # and now sees over the wall of 1


# -- KW-19 in play: a wall of 1 between height-1 units ---------------------------------------


def _archers_behind_a_wall_of_one():
    return start(make_scenario([("r1", "archers", 30, 10, 90), ("b1", "axe band", 30, 20, 270)], [WALL]))


def test_kw_19_archers_shoot_over_a_wall_of_one_at_infantry_in_cover():
    _, ev = play(_archers_behind_a_wall_of_one(), "red", "r1 halt\nr1 shoot b1")
    assert not of(ev, "shot_impossible")
    (shot,) = of(ev, "shot")
    assert shot["cover"] is True and shot["needed"] == 6  # Ra 5+, -1 for cover (KW-38)


def test_kw_19_version_1_archers_cannot_see_over_a_wall_of_one():
    _, ev = play(_as_version_1(_archers_behind_a_wall_of_one()), "red", "r1 halt\nr1 shoot b1")
    assert of(ev, "shot_impossible")[0]["reason"] == "no line of sight" and not of(ev, "shot")


def _spearmen_before_a_copse_of_one():
    return start(make_scenario([("r1", "spearmen", 30, 10, 90), ("b1", "axe band", 30, 16, 270)], [COPSE]))


def test_kw_19_infantry_charge_infantry_seen_through_a_copse_of_one():
    s = _spearmen_before_a_copse_of_one()
    assert errors(s, "red", "r1 charge b1") == []
    _, ev = play(s, "red", "r1 charge b1")
    (c,) = of(ev, "unit_charged")
    assert c["unit"] == "r1" and c["hindered"] is True  # through the copse (KW-49)


def test_kw_19_version_1_infantry_cannot_see_through_a_copse_of_one_to_charge():
    (e,) = errors(_as_version_1(_spearmen_before_a_copse_of_one()), "red", "r1 charge b1")
    assert e.message == "r1 cannot see b1"


# -- rounding: a massed charge at a slant ----------------------------------------------------


def _ahead_of(x, y, facing, lateral, ahead):
    """The point ``ahead`` in in front of (x, y) and ``lateral`` in to the right, facing ``facing``."""
    a = math.radians(facing)
    return round(x + ahead * math.cos(a) + lateral * math.sin(a), 3), round(
        y + ahead * math.sin(a) - lateral * math.cos(a), 3
    )


def _massed_charge_at_40_degrees(b1_damage=0):
    """Two spearmen 5 in before a troll troop (100 mm, as wide as each of them), all at a slant:
    they pack side by side along its front, and rounding their places to 6 decimals leaves their
    bases sharing a sliver some 1e-6 in deep (4e-6 sq in). b2 is far off, so the game goes on."""
    r1 = _ahead_of(36, 24, 220, -2.5, 5)
    r2 = _ahead_of(36, 24, 220, 2.5, 5)
    s = start(
        make_scenario(
            [
                ("r1", "spearmen", *r1, 40),
                ("r2", "spearmen", *r2, 40),
                ("b1", "trolls", 36, 24, 220),
                ("b2", "axe band", 66, 44, 270),
            ]
        )
    )
    s["units"]["b1"]["damage"] = b1_damage
    return s


def _sliver(state):
    return geom.base(state["units"]["r1"]).intersection(geom.base(state["units"]["r2"])).area


def test_a_massed_charge_at_a_slant_leaves_its_chargers_touching_so_they_regroup():
    s, ev = play(_massed_charge_at_40_degrees(), "red", "r1 charge b1\nr2 charge b1", seed="slant")
    assert [c["unit"] for c in of(ev, "unit_charged")] == ["r1", "r2"] and s["units"]["b1"]["status"] != "routed"
    assert {f["unit"] for f in of(ev, "fell_back")} == {"r1", "r2"}  # house Regroup (KW-45)
    assert KW.check_invariants(s) == []
    charged = {c["unit"]: c for c in of(ev, "unit_charged")}
    at = {u: dict(s["units"][u], **{k: charged[u][k] for k in ("x", "y", "facing")}) for u in ("r1", "r2")}
    assert _sliver({"units": at}) > AREA_EPS  # the sliver is there, and is touching
    assert not geom.overlaps(geom.base(at["r1"]), geom.base(at["r2"]), 2)


def test_version_1_chargers_at_a_slant_overlap_and_lose_their_regroup():
    """0.2.0's behaviour, kept: its own invariants flag the position (as they always did)."""
    s, ev = play(_as_version_1(_massed_charge_at_40_degrees()), "red", "r1 charge b1\nr2 charge b1", seed="slant")
    assert [c["unit"] for c in of(ev, "unit_charged")] == ["r1", "r2"] and s["units"]["b1"]["status"] != "routed"
    assert not of(ev, "fell_back")
    assert _sliver(s) > AREA_EPS and KW.check_invariants(s) == ["r1 overlaps r2"]


def _after_a_rout(version_1=False):
    s = _massed_charge_at_40_degrees(b1_damage=14)  # trolls rout at 17: any damage routs them
    s = _as_version_1(s) if version_1 else s
    s, ev = play(s, "red", "r1 charge b1\nr2 charge b1", seed="slant")
    assert s["units"]["b1"]["status"] == "routed" and {r["unit"] for r in of(ev, "regrouped")} == {"r1", "r2"}
    s, _ = play(s, "blue", "b2 halt")
    return s


def test_chargers_that_routed_their_enemy_at_a_slant_advance_next_turn():
    s = _after_a_rout()
    assert KW.check_invariants(s) == []
    assert errors(s, "red", "r1 advance 3\nr2 advance 3") == []
    s, ev = play(s, "red", "r1 advance 3\nr2 advance 3")
    assert [m["unit"] for m in of(ev, "unit_moved")] == ["r1", "r2"] and KW.check_invariants(s) == []


def test_version_1_chargers_that_routed_their_enemy_at_a_slant_cannot_advance():
    s = _after_a_rout(version_1=True)
    errs = errors(s, "red", "r1 advance 3\nr2 advance 3")
    assert [e.message for e in errs] == ["r1's path runs into r2", "r2's path runs into r1"]


def test_the_invariants_judge_a_game_by_its_version():
    """A version 1 game is held to version 1's overlap test, no stricter and no looser; a real
    overlap is one in every version."""
    s, _ = play(_massed_charge_at_40_degrees(b1_damage=14), "red", "r1 charge b1\nr2 charge b1", seed="slant")
    assert _sliver(s) > AREA_EPS
    assert KW.check_invariants(s) == [] and KW.check_invariants(_as_version_1(s)) == ["r1 overlaps r2"]
    s["units"]["r2"] = geom.moved(s["units"]["r2"], lateral=0.01)  # 0.01 in into r1, on its right
    assert KW.check_invariants(s) == ["r1 overlaps r2"] == KW.check_invariants(_as_version_1(s))


# -- KW-1 / KW-EX-1: three abreast, bases touching ----------------------------------------------

W = 100 / 25.4  # a 100 mm frontage: 8e-6 in more than the bases keep (3.937 in), so touching


def _three_abreast_touching():
    """Three spearmen abreast, bases touching, the middle one square before a 100 mm troll troop."""
    return start(
        make_scenario(
            [
                ("r1", "spearmen", 36 - W, 24, 90),
                ("r2", "spearmen", 36, 24, 90),
                ("r3", "spearmen", 36 + W, 24, 90),
                ("b1", "trolls", 36, 30, 270),
            ]
        )
    )


ALL_THREE = "r1 charge b1\nr2 charge b1\nr3 charge b1"


def test_kw_1_three_abreast_touching_two_charge_and_the_third_is_refused():
    """The seed: «только два атакуют одну сторону, а третье должно получить другой приказ». The two
    go straight ahead to the troll's front and slide along it into place beside r3."""
    s = _three_abreast_touching()
    errs = errors(s, "red", ALL_THREE)
    assert [e.line for e in errs] == [3] and "corner to corner" in errs[0].message
    after, ev = play(s, "red", ALL_THREE)
    assert [r["line"] for r in of(ev, "order_refused")] == [3]
    assert [c["unit"] for c in of(ev, "unit_charged")] == ["r1", "r2"]
    assert after["units"]["r3"]["x"] == s["units"]["r3"]["x"] and of(ev, "fight")[0]["attackers"] == ["r1", "r2"]
    assert KW.check_invariants(after) == []


def test_kw_1_version_1_refuses_all_three():
    """0.2.0: r2's slide was swept across r3, which stays put, and r1, planned again alone, slid
    into r2: every line refused. Validation now names all three (issue 33: it named lines 2 and 3,
    and the turn refused line 1 as well); the turn is as it was."""
    s = _as_version_1(_three_abreast_touching())
    assert [e.line for e in errors(s, "red", ALL_THREE)] == [1, 2, 3]
    _, ev = play(s, "red", ALL_THREE)
    assert [r["line"] for r in of(ev, "order_refused")] == [2, 3, 1] and not of(ev, "unit_charged")
    assert of(ev, "order_refused")[0]["reason"] == "r2's path runs into r3"


def test_a_charge_still_may_not_go_through_a_unit_straight_ahead():
    """Version 2's path is two legs, straight ahead and along the target's side; both are swept."""
    s = start(
        make_scenario([("r1", "spearmen", 34, 21, 90), ("r2", "archers", 34, 25.5, 90), ("b1", "trolls", 36, 30, 270)])
    )
    assert [e.message for e in errors(s, "red", "r1 charge b1")] == ["r1's path runs into r2"]
