"""Kriegspiel version 4: charges ridden as cavalry moves (KS-30, LW-27), chargers taken prisoner where
they fought and guarded (KS-78), a pursued unit with only an unfordable river behind it destroyed
(KS-81), each beside a version 3 game that keeps the old rule (rules/README.md "Versions")."""

import pytest

from rules.kriegspiel.ruleset import RULESET
from rules.kriegspiel.scenario import load
from rules.kriegspiel.version import ks_version
from rules.littlewars.table import table_of


def as_version_3(g):
    """A game laid by version 3: its table_laid recorded ``rules_version`` 3 (and no Little Wars version)."""
    g.state = {**g.state, "ks": {**g.state["ks"], "rules_version": 3}}
    g.state.pop("lw_version", None)
    assert ks_version(g.state) == 3
    return g


def raid(terrain=(), red_horse=10, blue_horse=10):
    """The farm with ``terrain`` instead of its own, no supply or generals (a raid far from the wagons)."""
    sc = load("ks_farm")
    sc["terrain"] = list(terrain)
    sc["kriegspiel"]["supply"] = {}
    sc["kriegspiel"]["generals"] = {}
    for side, n in (("red", red_horse), ("blue", blue_horse)):
        g = next(g for g in sc["forces"][side]["groups"] if g["name"] == "horse")
        g["count"], g["frontage"] = n, n
    return sc


def laid(new_game, version, sc):
    g = new_game(sc)
    if version == 3:
        as_version_3(g)
    g.deploy()
    return g


def red_horse_at(g, x, y, n=10):
    g.place({f"red:c{k}": (x + (k - (n + 1) / 2) * 1.25, y) for k in range(1, n + 1)})


def blue_foot_at(g, x, y, gap):
    g.place({f"blue:i{k}": (x + (k - 5.5) * gap, y) for k in range(1, 11)})


def charges(evs):
    return [e.payload for e in evs if e.type == "kriegspiel.charge"]


def inside_scenery(g):
    table = table_of(g.state["scenario"])
    return {
        fid: err
        for fid, f in g.state["figures"].items()
        if f["st"] in ("ok", "pow") and (err := table.spot_error(f["arm"], f["x"], f["y"], hill_sides=False))
    }


def test_a_new_game_plays_version_4_or_later():
    g = RULESET.set_up(None, __import__("random").Random(1))
    assert ks_version(g) == RULESET.version >= 4 and 4 in RULESET.versions


# -- KS-30 / LW-27: a charge is ridden like any cavalry move -----------------------------------------
RIVER = {"id": "brook", "type": "river", "polygon": [[0, 110], [96, 110], [96, 113], [0, 113]]}
FORD = {"id": "ford", "type": "ford", "polygon": [[17, 108], [24, 108], [24, 115], [17, 115]]}
BRIDGE = {"id": "bridge", "type": "bridge", "polygon": [[88, 108], [93, 108], [93, 115], [88, 115]]}


@pytest.mark.parametrize("version", [3, 4])
def test_a_charge_does_not_ride_through_an_unfordable_river_ks_30(new_game, version):
    """Version 3 rode straight over the brook (the bridge 70 in away) and landed on the far bank."""
    g = laid(new_game, version, raid([RIVER, BRIDGE]))
    red_horse_at(g, 20, 100)
    blue_foot_at(g, 20, 124, 2.5)  # open order, 2 ft away across the brook
    g.turn()  # the scouts look first
    evs = g.turn(red="charge horse at 20,124")
    if version == 3:
        (ch,) = charges(evs)
        assert all(xy[1] > 113 for fid, xy in ch["moved"].items() if fid.startswith("red:"))  # over the water
        return
    assert charges(evs) == []
    (err,) = g.rejected["red"]
    assert err.message.startswith("the charge's way to the enemy, round the scenery and over the ground")
    assert "a charge reaches 3 ft" in err.message
    assert all(g.state["figures"][f"red:c{k}"]["y"] == 100 for k in range(1, 11))


@pytest.mark.parametrize("version", [3, 4])
def test_a_charge_across_a_ford_takes_the_whole_turn_ks_30(new_game, version):
    """KS-26/30: fording takes a whole turn, so a charge from 8 in short of the ford is not made."""
    g = laid(new_game, version, raid([RIVER, FORD]))
    red_horse_at(g, 20.5, 100)
    blue_foot_at(g, 20.5, 124, 2.5)
    g.turn()
    evs = g.turn(red="charge horse at 20.5,124")
    if version == 3:
        assert len(charges(evs)) == 1
        return
    assert charges(evs) == []
    (err,) = g.rejected["red"]
    assert err.message.startswith("the charge cannot be ridden there: fording takes the whole turn (KS-26, KS-30)")


def test_a_charge_with_no_way_at_all_is_not_made(new_game):
    """The brook from edge to edge, no crossing: no way round, however far."""
    g = laid(new_game, 4, raid([RIVER]))
    red_horse_at(g, 20, 100)
    blue_foot_at(g, 20, 124, 2.5)
    g.turn()
    g.turn(red="charge horse at 20,124")
    (err,) = g.rejected["red"]
    assert err.message == (
        "the horsemen have no way to the enemy: buildings, walls, trees or a river away from every ford "
        "and bridge stand in the way (LW-27, KS-30)"
    )


def test_a_charge_that_has_no_way_when_it_is_made_is_reported_to_its_side(new_game):
    """The order is checked against what the side saw (blue on this bank); the charge, when made, against
    the true position (blue went over the brook since): not made, and red is told in its own report."""
    g = laid(new_game, 4, raid([RIVER, BRIDGE]))
    red_horse_at(g, 20, 100)
    blue_foot_at(g, 20, 108, 2.5)
    g.turn()  # red sees blue on its own bank
    blue_foot_at(g, 20, 114.5, 2.5)  # and blue is across the brook when the charge is made
    evs = g.turn(red="charge horse at 20,111")
    assert g.rejected["red"] == () and charges(evs) == []
    (works,) = [e.payload for e in evs if e.type == "kriegspiel.works" and e.payload["side"] == "red"]
    (failed,) = works["charges_failed"]
    assert failed["why"].startswith("the charge's way to the enemy, round the scenery and over the ground")


BARN = {"id": "barn", "type": "building", "polygon": [[26, 121], [34, 121], [34, 131], [26, 131]]}


@pytest.mark.parametrize("version", [3, 4])
def test_no_charger_ends_inside_a_barn_lw_27(new_game, version):
    """Version 3 shifted the whole group by the lead's move: the right-hand horseman ended inside the
    barn beside the enemy line. Version 4: each rides his own way and stops 1/16 in short of it."""
    g = laid(new_game, version, raid([BARN]))
    g.check = version == 4  # version 3 breaks the invariants: that is the bug
    red_horse_at(g, 21, 100)
    blue_foot_at(g, 16, 124, 1.5)  # open order, its line clear of the barn
    g.turn()
    evs = g.turn(red="charge horse at 16,124")
    (ch,) = charges(evs)
    wedged = inside_scenery(g)
    if version == 3:
        assert list(wedged) == ["red:c10"] and "building 'barn'" in wedged["red:c10"]
        assert [p for p in RULESET.check_invariants(g.state) if p.startswith("red:c10")]  # the check sees it
        return
    assert wedged == {} and RULESET.check_invariants(g.state) == []
    riders = {fid: xy for fid, xy in ch["moved"].items() if fid.startswith("red:")}
    stopped = sorted(fid for fid, xy in riders.items() if xy[1] < 122)
    assert stopped == ["red:c10", "red:c9"]  # the two on the right stop short of the barn, 1/16 in clear
    assert all(120.3 < riders[fid][1] < 121 for fid in stopped) and riders["red:c10"][0] > 26
    assert all(xy[1] == 122.5 for fid, xy in riders.items() if fid not in stopped)  # the rest rode in


WALL = {"id": "wall", "type": "wall", "line": [[8, 112], [40, 112]], "width": 0.5}


@pytest.mark.parametrize("version", [3, 4])
def test_a_charge_rides_round_a_wall_or_stops_at_it_lw_27(new_game, version):
    """Version 3 rode through the wall. Version 4: the horsemen past the wall's end ride on; the others,
    their way barred by the wall, stop 1/16 in short of it."""
    g = laid(new_game, version, raid([WALL]))
    red_horse_at(g, 38, 104)
    blue_foot_at(g, 30, 122, 2.5)
    g.turn()
    evs = g.turn(red="charge horse at 30,122")
    (ch,) = charges(evs)
    riders = {fid: xy for fid, xy in ch["moved"].items() if fid.startswith("red:")}
    across = sorted(fid for fid, xy in riders.items() if xy[1] > 112)
    if version == 3:
        assert len(across) == len(riders) == 9  # all of them through the wall (one fell)
        return
    assert across == ["red:c10", "red:c8", "red:c9"]  # past the wall's end
    assert all(111.0 < xy[1] < 112 - 0.25 - 0.5625 for fid, xy in riders.items() if fid not in across)
    assert inside_scenery(g) == {}


# -- KS-78: chargers taken prisoner are taken where they fought ---------------------------------------
@pytest.mark.parametrize("version", [3, 4])
def test_chargers_taken_prisoner_are_guarded_where_they_fought_ks_78(new_game, version):
    """8 isolated red horse charge 12 moving blue horse: red loses 4 killed and 4 taken (LW-37). Version 3
    left the taken where the charge began, 2 ft from their captors, who rode on: the escort check freed
    them, disarmed, in the same turn. Version 4: taken beside the blue horse, who stay to guard them."""
    g = laid(new_game, version, raid(red_horse=8, blue_horse=12))
    red_horse_at(g, 20, 100, n=8)
    g.place({f"blue:c{k}": (12 + k * 1.25, 122) for k in range(1, 13)})
    g.turn()
    evs = g.turn(red="charge horse at 20,122", blue="move horse to 20.125,130")
    (ch,) = charges(evs)
    assert ch["captor"] == "blue" and len(ch["captured"]) == 4 and len(ch["killed"]) == 8
    figs = g.state["figures"]
    released = [e.payload for e in evs if e.type == "littlewars.prisoners_released"]
    if version == 3:
        assert all(figs[f]["st"] == "ok" and figs[f]["dis"] for f in ch["captured"])  # freed at once
        assert released and released[0]["guards"] == 0
        return
    assert released == []
    assert all(figs[f]["st"] == "pow" and figs[f]["pow"][0] == "blue" for f in ch["captured"])
    assert g.state["pows"]["blue"][ch["pow"]] == ch["captured"]
    guards = ch["guards"]
    assert len(guards) == 8 and all(figs[f]["y"] == 122 for f in guards)  # they held: no move to 130
    for f in ch["captured"]:  # each prisoner stands where the fight was, 1 in short of the blue line
        assert 119 < figs[f]["y"] < 121
        assert min(abs(figs[f]["x"] - figs[b]["x"]) + abs(figs[f]["y"] - figs[b]["y"]) for b in guards) < 6
    assert [e.message for e in g.rejected["blue"]] == []  # blue's order was clean; the fight stopped it


# -- KS-81: a pursued unit with only an unfordable river behind it is destroyed ------------------------
BROOK = {"id": "brook", "type": "river", "polygon": [[0, 210], [96, 210], [96, 213], [0, 213]]}
SPAN = {"id": "span", "type": "bridge", "polygon": [[46, 208], [54, 208], [54, 215], [46, 215]]}


@pytest.mark.parametrize("version", [3, 4])
def test_a_pursued_unit_withdrawing_into_an_unfordable_river_is_destroyed_ks_81(new_game, version):
    """Version 3 left it standing on the bank (no way home: it did not move). Version 4 destroys it, as
    it destroys one withdrawing off the table; one with a bridge on its way crosses it and lives."""
    g = laid(new_game, version, raid([BROOK, SPAN]))
    g.place({"blue:c1": (20, 200), "blue:c2": (50, 200), "red:c1": (35, 170)})
    pursued = {f: {"by": ["red:c1"], "turn": g.state["turn"]} for f in ("blue:c1", "blue:c2")}
    g.state = {**g.state, "ks": {**g.state["ks"], "pursued": pursued}}
    evs = g.turn()
    c1, c2 = g.state["figures"]["blue:c1"], g.state["figures"]["blue:c2"]
    assert c2["st"] == "ok" and c2["y"] > 213  # over the bridge
    off = [e for e in evs if e.type == "kriegspiel.withdrawn_off"]
    if version == 3:
        assert off == [] and c1["st"] == "ok" and c1["y"] == 200
        return
    (ev,) = off
    assert ev.audience == "umpire" and ev.payload == {"destroyed": ["blue:c1"], "river": ["blue:c1"]}
    assert c1["st"] == "dead"
    assert RULESET.describe_event(ev.type, ev.payload) == (
        "Pursued against an unfordable river and destroyed (KS-81): blue:c1."
    )


# -- KS-25: a slope is steep where the ground is, at whatever angle it is crossed ---------------------
STEPS = [
    {"id": f"step{k}", "type": "hill", "level": k, "polygon": [[x, 100], [90, 100], [90, 160], [x, 160]]}
    for k, x in ((1, 40), (2, 42.5), (3, 45), (4, 47.5))
]  # 4 levels in 7.5 in: a slope of more than 4 levels to the horizontal foot


@pytest.mark.parametrize("version", [3, 4])
def test_a_steep_slope_is_steep_at_any_angle_ks_25(new_game, version):
    """KS-25 «where 4 levels fall within one horizontal foot the slope is impassable»: version 3 measured
    the path's own rise, so a horseman climbing 2 of the 4 levels, or slanting across all 4 (the
    contours farther apart along his way), went up the slope that a straight climb may not."""
    from rules.kriegspiel import pace
    from rules.kriegspiel.movement import MoveError, cost, ground_of

    g = laid(new_game, version, raid(STEPS))
    straight = [(36.0, 130.0), (50.0, 130.0)]
    part_way = [(36.0, 130.0), (44.0, 130.0)]  # level 0 to 2: 8 in and 2 ft of climbing
    slant = [(38.0, 110.0), (50.0, 110.0 + 12.0 * 2.75)]  # some 70 degrees off the straight climb
    steep = "the slope is too steep: 4 levels in a foot is impassable off the road (KS-25)"
    assert steep in pace.move_error(g.state, "red:c2", straight)
    ground = ground_of(g.state["scenario"])
    with pytest.raises(MoveError):
        cost(ground, "cav", straight)  # the path's own rise: 4 levels in 7.5 in, in both versions
    err = pace.move_error(g.state, "red:c2", part_way)
    if version == 3:
        assert err is None
        cost(ground, "cav", slant)  # the same slope, slanting: allowed
        return
    assert steep in err
    with pytest.raises(MoveError):
        cost(ground, "cav", slant, on_ground=True)
    assert pace.move_error(g.state, "red:c2", [(36.0, 130.0), (36.0, 100.0)]) is None  # along its foot: flat
    assert pace.move_error(g.state, "red:c2", [(60.0, 130.0), (80.0, 150.0)]) is None  # on the top: flat


# -- sighting the same whatever the order of the state's figures ---------------------------------------
@pytest.mark.parametrize("version", [3, 4])
def test_what_a_side_sees_does_not_depend_on_the_order_of_the_figures(new_game, version):
    """Sighting asks each target's 8 nearest observers, ties by their order in the state: a state read
    back from its JSON snapshot (keys sorted) and one folded from the log (in the order laid) could see
    differently, and a game's re-adjudication did not verify (found by the API play-through, 12 horse a
    side in a line: blue's horse saw red:c6 past the knoll or not). Version 4 orders them by id."""
    from rules.kriegspiel.sighting import sightings

    g = laid(new_game, version, load("ks_farm"))
    g.place({f"red:c{k}": (17.125 + 1.25 * (k - 1), 77) for k in range(1, 13)})
    g.place({f"blue:c{k}": (17.125 + 1.25 * (k - 1), 211) for k in range(1, 13)})
    as_laid = sightings(g.state, "blue")["figures"]
    as_read_back = sightings({**g.state, "figures": dict(sorted(g.state["figures"].items()))}, "blue")["figures"]
    assert (as_laid == as_read_back) == (version == 4)
