"""Cavalry charges in play (KS-68..85 through orders and the turn)."""

import pytest

from rules.kriegspiel.scenario import load


def scenario(red_horse=10, blue_horse=10, supplied=True):
    sc = load("ks_farm")
    if not supplied:  # a raid far from the wagons, with no forage (nor generals) to worry about
        sc["kriegspiel"]["supply"] = {}
        sc["kriegspiel"]["generals"] = {}
    for side, n in (("red", red_horse), ("blue", blue_horse)):
        g = next(g for g in sc["forces"][side]["groups"] if g["name"] == "horse")
        g["count"], g["frontage"] = n, n
    return sc


@pytest.fixture
def cav_game(new_game):
    g = new_game(scenario())
    g.deploy()
    return g


def red_horse_at(g, x, y):
    g.place({f"red:c{k}": (x + (k - 5.5) * 1.25, y) for k in range(1, 11)})


def blue_foot_at(g, x, y, gap):
    g.place({f"blue:i{k}": (x + (k - 5.5) * gap, y) for k in range(1, 11)})


def charge_event(evs):
    return [e for e in evs if e.type == "kriegspiel.charge"]


def test_fewer_than_eight_and_out_of_reach_are_refused(new_game):
    g = new_game(scenario(red_horse=7))
    g.deploy()
    g.turn()  # the scouts look first
    g.turn(red="charge horse at 16,285")
    assert "KS-68" in g.rejected["red"][0].message
    g = new_game(scenario())
    g.deploy()
    g.turn(red="charge horse at 16,285")  # blue is there, but out of sight
    assert g.rejected["red"][0].message == "your men see no enemy within 6 in of 16,285 to charge"
    g.place({"blue:i1": (24, 66)})
    g.turn()  # the scouts look first
    g.turn(red="charge horse at 24,66")
    assert "the enemy you see there is 5.0 ft away; a charge reaches 3 ft" in g.rejected["red"][0].message


def test_close_order_infantry_beats_the_charge_and_stands_fast(cav_game):
    g = cav_game
    red_horse_at(g, 20, 100)
    blue_foot_at(g, 20, 118, 0.75)  # close order, 18 in away: 1-2 ft band
    g.turn()  # the scouts look first
    evs = g.turn(red="charge horse at 20,118")
    (ch,) = charge_event(evs)
    assert ch.audience == "public" and ch.payload["kind"] == "infantry_close"
    dead = (
        [f for f in ch.payload["killed"] if f.startswith("red:")],
        [f for f in ch.payload["killed"] if f.startswith("blue:")],
    )
    assert len(dead[0]) == 10 and len(dead[1]) == 1  # 2 per infantryman (capped) / 1 per 10 cavalry
    g.turn(blue="move foot1 to 20,128")
    assert [e.message for e in g.rejected["blue"]] == [
        "charged in close order last turn: it cannot move this turn (KS-72)"
    ]
    g.turn(blue="move foot1 to 20,128")  # the turn after, it may move again
    assert not g.rejected["blue"]


def test_open_order_infantry_is_ridden_down_and_falls_back(cav_game):
    g = cav_game
    red_horse_at(g, 20, 80)
    blue_foot_at(g, 20, 110, 2.5)  # open order, 30 in away: over 2 ft
    g.turn()  # the scouts look first
    evs = g.turn(red="charge horse at 20,110")
    (ch,) = charge_event(evs)
    assert ch.payload["kind"] == "infantry_open"
    red_lost = [f for f in ch.payload["killed"] if f.startswith("red:")]
    blue_lost = [f for f in ch.payload["killed"] if f.startswith("blue:")]
    assert len(red_lost) == 2 and len(blue_lost) == 10  # 1 per 5 infantry / 1 per cavalryman (all 10)
    survivors = [g.state["figures"][f"red:c{k}"] for k in range(1, 11) if f"red:c{k}" not in red_lost]
    assert all(f["y"] > 100 for f in survivors)  # they rode in


def test_open_order_survivors_fall_back_a_foot(cav_game):
    g = cav_game
    red_horse_at(g, 20, 80)
    g.place({f"blue:i{k}": (4 + k * 2.5, 104) for k in range(1, 21)})  # 20 in open order, 2 ft 0 in away
    g.turn()  # the scouts look first
    g.turn(red="split horse 2 as spare\ncharge horse at 20,104")  # 8 charge: 8 of foot1's 10 fall
    assert not g.rejected["red"]
    alive = [f"blue:i{k}" for k in range(1, 11) if g.state["figures"][f"blue:i{k}"]["st"] == "ok"]  # foot1
    assert len(alive) == 2
    assert alive and all(g.state["ks"]["shaken"][f]["effect"] == "fall_back" for f in alive)
    before = {f: g.state["figures"][f]["y"] for f in alive}
    g.turn()
    assert all(g.state["figures"][f]["y"] == pytest.approx(before[f] + 12) for f in alive)  # towards blue's edge


def test_cavalry_standing_still_loses_five_per_attacker(cav_game):
    g = cav_game
    red_horse_at(g, 20, 100)
    g.place({f"blue:c{k}": (4 + k * 1.25, 120) for k in range(1, 11)})
    g.turn()  # the scouts look first
    evs = g.turn(red="charge horse at 10,120")  # blue's horse holds: it did not react (KS-74/75)
    (ch,) = charge_event(evs)
    assert ch.payload["kind"] == "cavalry_standing" and len(ch.payload["killed"]) == 10


def test_equal_cavalry_toss_a_coin_and_the_loser_is_pushed_back(cav_game, new_game):
    seen = set()
    for seed in range(6):
        g = new_game(scenario())
        g.deploy()
        red_horse_at(g, 20, 100)
        g.place({f"blue:c{k}": (14 + k * 1.25, 120) for k in range(1, 11)})
        g.turn()  # the scouts look first
        evs = g.turn(seed=seed, red="charge horse at 20,120", blue="move horse to 20.875,124")
        (ch,) = charge_event(evs)
        assert ch.payload["kind"] == "cavalry"
        lost = {s: len([f for f in ch.payload["killed"] if f.startswith(s)]) for s in ("red", "blue")}
        assert sorted(lost.values()) == [3, 8]  # 1/4 and 3/4 of 10, rounded
        seen.add(ch.payload["coin"])
    assert seen == {"attacker", "defender"}


def test_an_unsupported_gun_is_taken(cav_game):
    g = cav_game
    red_horse_at(g, 30, 120)
    gun = g.state["guns"]["blue:gun1"]
    for fid, f in g.state["figures"].items():  # blue's men leave the gun alone
        if f["side"] == "blue" and abs(f["x"] - gun["x"]) < 10 and abs(f["y"] - gun["y"]) < 10:
            g.place({fid: (90, 280)})
    g.state["guns"]["blue:gun1"] = {**gun, "x": 30.0, "y": 140.0}
    g.turn()  # the scouts look first
    evs = g.turn(red="charge horse at 30,140")
    (ch,) = charge_event(evs)
    assert ch.payload["kind"] == "guns" and ch.payload["gun"] == "blue:gun1" and len(ch.payload["killed"]) == 3
    assert g.state["guns"]["blue:gun1"]["owner"] == "red"


def test_pushed_off_the_table_is_destroyed(new_game):
    # KS-81: the loser of an equal fight by its own edge is pushed 3 ft back, off the table: destroyed
    for seed in range(10):
        g = new_game(scenario(supplied=False))
        g.deploy()
        g.place({f"red:c{k}": (30 + (k - 5.5) * 1.25, 250) for k in range(1, 11)})
        g.place({f"blue:c{k}": (24 + k * 1.25, 270) for k in range(1, 11)})
        g.turn()  # the scouts look first
        evs = g.turn(seed=seed, red="charge horse at 30,270", blue="move horse to 30.875,272")
        (ch,) = charge_event(evs)
        if ch.payload["coin"] == "attacker":
            break
    survivors = [f"blue:c{k}" for k in range(1, 11) if f"blue:c{k}" not in ch.payload["killed"]]
    assert len(survivors) == 2 and ch.payload["destroyed"] == sorted(survivors)
    assert all(g.state["figures"][f]["st"] == "dead" for f in survivors)


def test_dismounted_cavalry_fights_as_open_order_infantry(cav_game):
    from rules.kriegspiel import pace

    g = cav_game
    g.place({f"blue:c{k}": (4 + k * 0.8, 120) for k in range(1, 11)})  # shoulder to shoulder
    g.turn(blue="dismount horse\nmove horse to 10,130")
    assert "already has an order on line 2" in g.rejected["blue"][0].message  # a turn's work (KS-32)
    assert g.state["ks"]["dismounted"]["blue"] == []
    g.place({f"blue:c{k}": (4 + k * 0.8, 120) for k in range(1, 11)})
    g.turn(blue="dismount horse")
    assert g.state["ks"]["dismounted"]["blue"] == sorted(f"blue:c{k}" for k in range(1, 11))
    assert pace.speed(g.state, "blue:c1") == 12  # on foot: the infantry's pace
    assert all(f.get("dismounted") for f in g.view("blue")["figures"] if f["id"].startswith("blue:c"))
    g.turn(blue="charge horse at 10,100")
    assert "on foot: mount first" in g.rejected["blue"][0].message
    red_horse_at(g, 10, 100)
    g.turn()  # the scouts look first
    evs = g.turn(red="charge horse at 10,120")
    (ch,) = charge_event(evs)
    assert ch.payload["kind"] == "infantry_open"  # KS-76, though they stand close
    g.turn(blue="mount horse")
    assert g.state["ks"]["dismounted"]["blue"] == []


def test_infantry_caught_withdrawing(cav_game):
    g = cav_game
    red_horse_at(g, 20, 100)
    blue_foot_at(g, 20, 118, 0.75)  # close order 18 in away, marching off: a column
    g.turn()
    evs = g.turn(red="charge horse at 20,118", blue="move foot1 to 20,128")
    (ch,) = charge_event(evs)
    assert ch.payload["kind"] == "infantry_close_withdrawing" and ch.payload["after"] is None
    red_lost = [f for f in ch.payload["killed"] if f.startswith("red:")]
    blue_lost = [f for f in ch.payload["killed"] if f.startswith("blue:")]
    assert red_lost == [] and len(blue_lost) == 10  # 3 per attacker from under 2 ft: all 10


def test_the_pushed_back_are_pursued_unless_their_friends_attack(new_game):
    def lost_fight(seed_from=0):
        for seed in range(seed_from, seed_from + 20):
            g = new_game(scenario(supplied=False))
            g.deploy()
            red_horse_at(g, 20, 100)
            g.place({f"blue:c{k}": (14 + k * 1.25, 120) for k in range(1, 11)})
            g.turn()
            evs = g.turn(seed=seed, red="charge horse at 20,120", blue="move horse to 20.875,124")
            (ch,) = charge_event(evs)
            if ch.payload["coin"] == "attacker":  # blue lost the toss and was pushed back
                return g, ch
        raise AssertionError("the coin never fell for red")

    g, ch = lost_fight()
    pursued = ch.payload["pursued"]
    assert len(pursued) == 2 and set(g.state["ks"]["pursued"]) == set(pursued)
    before = {f: g.state["figures"][f]["y"] for f in pursued}
    cx = sum(g.state["figures"][f]["x"] for f in pursued) / 2
    cy = sum(before.values()) / 2
    g.turn(blue=f"move horse to {cx},{cy - 6}")  # they would turn and face red: not allowed
    assert [e.message for e in g.rejected["blue"]] == [
        "pursued by cavalry: it keeps withdrawing (KS-80/84) unless the pursuers are attacked"
    ]
    assert all(g.state["figures"][f]["y"] > before[f] + 20 for f in pursued)  # off towards blue's edge
    # relief: the same again, but blue's foot fire on the pursuers
    g, ch = lost_fight()
    pursued = ch.payload["pursued"]
    before = {f: g.state["figures"][f]["y"] for f in pursued}
    hunters = [f for f in ch.payload["by"] if f not in ch.payload["killed"]]
    x, y = g.state["figures"][hunters[0]]["x"], g.state["figures"][hunters[0]]["y"]
    g.place({f"blue:i{k}": (x - 4 + k * 0.75, y + 20) for k in range(1, 11)})
    g.turn(blue=f"volley foot1 at {x},{y}")
    assert not g.rejected["blue"]
    assert all(g.state["figures"][f]["y"] == before[f] for f in pursued)  # they stay: the pursuit is broken


def test_unequal_cavalry_take_an_isolated_body_prisoner(new_game):
    """Issue 15 bug 5 (KS-78: the Little Wars melee, isolation included): 12 red horse charge 8 moving
    blue horse with no blue friends near: red -4, blue -4 killed and 4 taken (the engine gave -8 and -8)."""
    g = new_game(scenario(red_horse=12, blue_horse=8))
    g.deploy()
    g.place({f"red:c{k}": (20 + (k - 6.5) * 1.25, 100) for k in range(1, 13)})
    g.place({f"blue:c{k}": (14 + k * 1.25, 120) for k in range(1, 9)})
    g.turn()  # the scouts look first
    evs = g.turn(red="charge horse at 20,120", blue="move horse to 20.875,124")
    (ch,) = charge_event(evs)
    p = ch.payload
    assert p["kind"] == "cavalry" and p["coin"] is None
    assert sum(f.startswith("red") for f in p["killed"]) == 4 and sum(f.startswith("blue") for f in p["killed"]) == 4
    assert len(p["captured"]) == 4 and all(f.startswith("blue") for f in p["captured"]) and p["captor"] == "red"
    assert all(g.state["figures"][f]["st"] == "pow" for f in p["captured"])
    assert g.state["pows"]["red"][p["pow"]] == p["captured"]
    assert "4 taken prisoner by red" in g.rs.describe_event(ch.type, p)


def test_supported_smaller_cavalry_is_not_taken(new_game):
    g = new_game(scenario(red_horse=12, blue_horse=8))
    g.deploy()
    g.place({f"red:c{k}": (20 + (k - 6.5) * 1.25, 100) for k in range(1, 13)})
    g.place({f"blue:c{k}": (14 + k * 1.25, 120) for k in range(1, 9)})
    g.place({f"blue:i{k}": (10 + k * 0.75, 135) for k in range(1, 5)})  # 4 friends within a move: supported
    g.turn()
    (ch,) = charge_event(g.turn(red="charge horse at 20,120", blue="move horse to 20.875,124"))
    assert ch.payload["captured"] == [] and len(ch.payload["killed"]) == 16


def _pushed(terrain, at=(10.0, 12.0)):
    """Blue horse at ``at`` pushed 3 ft back towards its (north) edge over ``terrain``."""
    from rules.kriegspiel import charge
    from rules.littlewars.testing import build

    state = build(red=[("h", "cav", [(50, 5)])], blue=[("h", "cav", [at])], table=(60, 72), terrain=terrain)
    (fid,) = state["groups"]["blue"]["h"]
    moved, lost = charge.push(state, "blue", [fid], charge.PUSH)
    return state, moved.get(fid), lost


RIVER = {"id": "brook", "type": "river", "polygon": [[0, 20], [60, 20], [60, 22], [0, 22]]}
FORD = {"id": "ford", "type": "ford", "polygon": [[8, 19], [12, 19], [12, 23], [8, 23]]}
BRIDGE = {"id": "bridge", "type": "bridge", "polygon": [[40, 19], [44, 19], [44, 23], [40, 23]]}


def test_pushed_back_over_a_ford_survive_whatever_other_crossings_there_are():
    """Issue 15 bug 7 (KS-81): crossings were subtracted one at a time, so adding an unrelated bridge
    30 in away made the ford count as a river and the horse drowned."""
    for terrain in ([RIVER, FORD], [RIVER, FORD, BRIDGE]):
        _, end, lost = _pushed(terrain)
        assert lost == [] and end == [10.0, 48.0], terrain
    _, end, lost = _pushed([RIVER, FORD, BRIDGE], at=(25.0, 12.0))  # away from both: destroyed
    assert end is None and len(lost) == 1


def test_pushed_back_stop_short_of_a_building_never_inside_it():
    """Issue 15 bug 7 (KS-77/81): survivors could land inside a building."""
    from rules.littlewars.invariants import check_invariants
    from rules.littlewars.table import table_of

    barn = {"id": "barn", "type": "building", "polygon": [[5, 30], [15, 30], [15, 60], [5, 60]]}
    state, end, lost = _pushed([barn])
    assert lost == [] and end[0] == 10.0 and 29.0 < end[1] < 30 - 0.5
    assert table_of(state["scenario"]).spot_error("cav", *end) is None
    (fid,) = state["groups"]["blue"]["h"]
    after = {**state, "figures": {**state["figures"], fid: {**state["figures"][fid], "x": end[0], "y": end[1]}}}
    assert check_invariants(after) == []
