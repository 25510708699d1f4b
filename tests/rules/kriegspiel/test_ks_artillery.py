"""Artillery in the appendix: 2 ft a turn (KS-19), limbering and unlimbering in half a turn (KS-33),
guns that cannot ford (KS-34), and the pursuit of withdrawing guns (KS-86)."""

import pytest

from rules.kriegspiel.scenario import load


def crew_at(g, side, gx, gy, dy):
    """Four of ``side``'s foot stand as the gun's crew, ``dy`` in behind it; the rest of the army far off."""
    names = []
    for k in range(1, 5):
        g.place({f"{side}:i{k}": (gx - 3 + 1.5 * (k - 1), gy + dy)})
        names.append(f"i{k}")
    return names


def gun(g, gid, x, y):
    g.state["guns"][gid] = {**g.state["guns"][gid], "x": float(x), "y": float(y)}


def crew_orders(names, gx, gy, dy):
    return "\n".join(f"move {n} to {gx - 3 + 1.5 * k},{gy + dy}" for k, n in enumerate(names))


@pytest.fixture
def battery(game):
    """Red's gun1 at 24,40 in action with its crew of four 3 in behind it, in open ground."""
    gun(game, "red:gun1", 24, 40)
    crew = crew_at(game, "red", 24, 40, -3)
    game.crew = crew
    return game


def limbered(g, side="red"):
    return g.state["ks"]["limbered"][side]


def test_a_gun_in_action_limbers_first_and_so_moves_one_foot(battery):
    g = battery
    assert limbered(g) == []  # deployed in action (decision)
    g.turn(red="move gun1 to 24,58\n" + crew_orders(g.crew, 24, 58, -3))  # 1.5 ft
    msg = g.rejected["red"][0].message
    assert "artillery moves 2 ft a turn (KS-19), 1 ft after limbering or unlimbering (half a turn, KS-33)" in msg
    assert g.state["guns"]["red:gun1"]["y"] == 40
    g.turn(red="move gun1 to 24,52\n" + crew_orders(g.crew, 24, 52, -3))  # 1 ft
    assert g.rejected["red"] == ()
    assert g.state["guns"]["red:gun1"]["y"] == 52 and limbered(g) == ["red:gun1"]


def test_a_limbered_gun_moves_two_feet_and_its_crew_on_foot_marches_with_it(battery):
    g = battery
    g.turn(red="limber gun1")
    assert g.rejected["red"] == () and limbered(g) == ["red:gun1"]
    g.turn(red="move gun1 to 24,64\n" + crew_orders(g.crew, 24, 64, -3))  # 2 ft: infantry walk 1 ft alone
    assert g.rejected["red"] == ()
    assert g.state["guns"]["red:gun1"]["y"] == 64
    assert all(g.state["figures"][f"red:{n}"]["y"] == 61 for n in g.crew)
    g.turn(red="move gun1 to 24,90\n" + crew_orders(g.crew, 24, 90, -3))  # 26 in: too far
    assert "artillery moves 2 ft a turn (KS-19)" in g.rejected["red"][0].message
    # the crew's own lines: 29 in is beyond the infantry's foot and the gunners' 2 ft alike
    assert any("infantry may cover 1.00 ft" in e.message for e in g.rejected["red"])


def test_a_man_not_going_with_the_gun_keeps_his_own_pace(battery):
    g = battery
    g.turn(red="limber gun1")
    # i1 walks 2 ft the other way: he is not with the gun at its destination, so 1 ft is his limit
    g.turn(red="move i1 to 21,61\n" + "move gun1 to 24,40")
    assert any(e.line == 1 and "infantry may cover 1.00 ft" in e.message for e in g.rejected["red"])


def test_move_and_unlimber_in_one_turn_halves_the_move(battery):
    g = battery
    g.turn(red="limber gun1")
    g.turn(red="move gun1 to 24,58\nunlimber gun1\n" + crew_orders(g.crew, 24, 58, -3))
    assert "1 ft after limbering or unlimbering" in g.rejected["red"][0].message
    assert limbered(g) == []  # the move was refused; the unlimber line stood and was done
    g.turn(red="limber gun1")
    g.turn(red="move gun1 to 24,52\nunlimber gun1\n" + crew_orders(g.crew, 24, 52, -3))
    assert g.rejected["red"] == ()
    assert g.state["guns"]["red:gun1"]["y"] == 52 and limbered(g) == []


def test_a_gun_in_action_cannot_limber_move_and_unlimber(battery):
    g = battery
    g.turn(red="move gun1 to 24,44\nunlimber gun1\n" + crew_orders(g.crew, 24, 44, -3))
    assert (
        "gun1 has no time to move: limbering up and unlimbering take half a turn each (KS-33)"
        in g.rejected["red"][0].message
    )


def test_a_limbered_gun_fires_half_its_shots_as_it_unlimbers(battery):
    g = battery
    g.turn(red="limber gun1")
    g.turn(red="fire gun1 at 24,150 24,151 24,152")
    assert (
        g.rejected["red"][0].message == "gun1 unlimbers this turn (half a turn, KS-33): it has time for 2 shots, not 3"
    )
    assert limbered(g) == ["red:gun1"]
    evs = g.turn(red="fire gun1 at 24,150 24,151")
    assert g.rejected["red"] == () and limbered(g) == []
    (fired,) = [e for e in evs if e.type == "littlewars.fired"]
    assert len(fired.payload["shots"]) == 2
    g.turn(red="fire gun1 at 24,150 24,151 24,152 24,153")  # in action: the whole turn to fire
    assert g.rejected["red"] == ()


def test_firing_then_limbering_up_and_the_limber_orders_own_errors(battery):
    g = battery
    g.turn()  # no gun fires in the first turn (LW-14)
    g.turn(red="fire gun1 at 24,150 24,151 24,152\nlimber gun1")
    assert (
        "gun1 limbers up this turn (half a turn, KS-33): it has time for 2 shots, not 3" in g.rejected["red"][0].message
    )
    assert limbered(g) == ["red:gun1"]  # the fire was refused; the limber line stood and was done
    g.turn(red="unlimber gun1")
    g.turn(red="fire gun1 at 24,150 24,151\nlimber gun1")
    assert g.rejected["red"] == () and limbered(g) == ["red:gun1"]
    g.turn(red="fire gun1 at 24,150\nlimber gun1")
    assert "no time to fire" in g.rejected["red"][0].message
    g.turn(red="limber gun1\nunlimber gun1")
    assert [e.message for e in g.rejected["red"]] == [
        "gun1 is already limbered",
    ]
    assert limbered(g) == []  # the unlimber line stood
    g.turn(red="limber gun1\nlimber gun1")
    assert [e.message for e in g.rejected["red"]] == ["gun1 already has a limber order (line 1)"]
    assert limbered(g) == ["red:gun1"]
    g.turn(red="unlimber gun1")
    g.turn(red="unlimber gun1\nlimber gun9")
    assert [e.message for e in g.rejected["red"]] == [
        "gun1 is already in action",
        "unknown gun 'gun9': not one of your guns",
    ]


def test_a_gun_cannot_ford(battery):
    g = battery
    g.turn(red="limber gun1")
    sc = g.state["scenario"]
    ford = {"type": "ford", "polygon": [[20, 48], [28, 48], [28, 50], [20, 50]]}
    g.state = {**g.state, "scenario": {**sc, "terrain": sc["terrain"] + [ford]}}
    g.turn(red="move gun1 to 24,56\n" + crew_orders(g.crew, 24, 56, -3))
    assert any("artillery cannot cross rivers (KS-34" in e.message for e in g.rejected["red"])


# -- KS-86 --------------------------------------------------------------------------------------------
@pytest.fixture
def ks86(new_game):
    sc = load("ks_farm")
    sc["forces"]["blue"]["guns"].append({"name": "gun2", "at": [40.0, 285.5]})
    for grp in sc["forces"]["red"]["groups"]:
        if grp["name"] == "horse":
            grp["count"], grp["frontage"] = 10, 10
    g = new_game(sc)
    g.deploy()
    for fid, f in g.state["figures"].items():
        if f["side"] == "blue":
            g.place({fid: (90, 280)})
    g.place({f"red:c{k}": (30 + (k - 5.5) * 1.25, 120) for k in range(1, 11)})
    gun(g, "blue:gun1", 30, 140)
    gun(g, "blue:gun2", 30, 145)
    for k in range(1, 5):
        g.place({f"blue:i{k}": (27 + 2 * (k - 1), 149.5)})
    g.turn()  # the scouts look first
    return g


def gun2_away(dy):
    return f"move gun2 to 30,{145 + dy}\n" + "\n".join(
        f"move i{k} to {27 + 2 * (k - 1)},{149.5 + dy}" for k in range(1, 5)
    )


def test_the_battery_withdrawing_before_the_charge_is_pursued(ks86):
    g = ks86
    evs = g.turn(red="charge horse at 30,140", blue=gun2_away(12))
    (ch,) = [e for e in evs if e.type == "kriegspiel.charge"]
    assert ch.payload["gun"] == "blue:gun1" and ch.payload["pursued_guns"] == ["blue:gun2"]
    assert g.state["guns"]["blue:gun1"]["owner"] == "red"
    assert g.state["guns"]["blue:gun2"]["y"] == 157  # it got away this turn, limbered
    assert g.state["ks"]["limbered"]["blue"] == ["blue:gun2"]
    assert list(g.state["ks"]["pursued_guns"]) == ["blue:gun2"]
    # next turn it keeps withdrawing 2 ft towards blue's edge with its crew, whatever blue orders
    g.turn(blue="fire gun2 at 30,130 30,131")
    assert "keeps withdrawing with its crew (KS-86)" in g.rejected["blue"][0].message
    assert g.state["guns"]["blue:gun2"]["y"] == 181
    assert all(g.state["figures"][f"blue:i{k}"]["y"] == 149.5 + 12 + 24 for k in range(1, 5))
    g.turn(blue="fire gun2 at 30,130 30,131")  # the pursuit was for one turn: free again
    assert g.rejected["blue"] == ()


def test_a_gun_that_stood_is_not_pursued(ks86):
    g = ks86
    evs = g.turn(red="charge horse at 30,140")
    (ch,) = [e for e in evs if e.type == "kriegspiel.charge"]
    assert ch.payload["pursued_guns"] == []  # gun2 stood its ground
    assert g.state["ks"]["pursued_guns"] == {}


def test_blue_attacking_the_pursuers_frees_the_gun(ks86):
    g = ks86
    g.turn(red="charge horse at 30,140", blue=gun2_away(12))
    # blue's foot far off cannot reach; a shot from gun2 aimed at the riders counts as the attack
    riders = [f for f in g.state["figures"] if f.startswith("red:c") and g.state["figures"][f]["st"] == "ok"]
    x, y = g.state["figures"][riders[0]]["x"], g.state["figures"][riders[0]]["y"]
    g.turn(blue=f"fire gun2 at {x},{y} {x},{y}")
    assert g.rejected["blue"] == ()
    assert g.state["guns"]["blue:gun2"]["y"] == 157  # it stood and fired


def test_gunners_keep_their_own_pace_when_their_gun_stays(battery):
    g = battery
    g.turn(red="limber gun1")
    # only two of the four go with the gun, so the gun stays (LW-24); those two may not use its pace
    g.turn(red="move gun1 to 24,64\n" + crew_orders(g.crew[:2], 24, 64, -3))
    msgs = [e.message for e in g.rejected["red"]]
    assert any("only 2 of gun1's crew would end within 6 in of it" in m for m in msgs)
    assert sum("its gun does not move, so it keeps its own pace" in m for m in msgs) == 2
    assert g.state["guns"]["red:gun1"]["y"] == 40
    assert all(g.state["figures"][f"red:{n}"]["y"] == 37 for n in g.crew)


def test_a_captured_gun_out_of_action_is_told_to_its_captor_and_no_longer_to_its_loser(new_game):
    # KS-5 with KS-78: the side holding a gun is the one its orders for that gun are checked against
    # (the API play-through's scripted red fired a captured blue gun still out of action); the side
    # that lost it has no business knowing how it fares.
    g = new_game()
    g.deploy()
    guns = {gid: dict(gun) for gid, gun in g.state["guns"].items()}
    guns["blue:gun1"]["owner"] = "red"
    ks = {**g.state["ks"], "guns_out": {"blue:gun1": g.state["turn"] + 2}}
    g.state = {**g.state, "guns": guns, "ks": ks}
    assert g.view("red")["kriegspiel"]["guns_out"] == {"blue:gun1": g.state["turn"] + 2}
    assert g.view("blue")["kriegspiel"]["guns_out"] == {}
