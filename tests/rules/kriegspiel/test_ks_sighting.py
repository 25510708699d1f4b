"""The sighting rule: range, buildings, woods, hill levels; last-seen memory through the rule set."""

import numpy as np

from rules.kriegspiel.sighting import OBSERVERS, SIGHT_RANGE, Sightlines, seen_by

SQUARE = [[40, 40], [50, 40], [50, 50], [40, 50]]


def lines(*items):
    return Sightlines(list(items))


def see(sl, obs, tgt):
    return bool(seen_by(sl, np.array([obs], float), np.array([tgt], float))[0])


def test_range_is_twelve_feet():
    sl = lines()
    assert see(sl, (0, 0), (SIGHT_RANGE, 0))
    assert not see(sl, (0, 0), (SIGHT_RANGE + 0.01, 0))


def test_a_building_blocks_sight_a_wall_does_not():
    sl = lines({"type": "building", "polygon": SQUARE}, {"type": "wall", "line": [[0, 60], [100, 60]]})
    assert not see(sl, (30, 45), (60, 45))
    assert see(sl, (30, 55), (30, 65))  # across the wall
    assert see(sl, (30, 35), (60, 35))  # past the building


def test_woods_hide_what_is_more_than_two_inches_inside():
    sl = lines({"type": "wood", "polygon": SQUARE})
    assert see(sl, (30, 45), (41.5, 45))  # 1.5 in into the wood
    assert not see(sl, (30, 45), (43, 45))  # 3 in deep
    assert not see(sl, (30, 45), (60, 45))  # through it


def test_a_hill_hides_dead_ground_from_those_not_above_its_crest():
    hill = {"type": "hill", "level": 1, "polygon": SQUARE}
    top = {"type": "hill", "level": 2, "polygon": [[0, 0], [10, 0], [10, 10], [0, 10]]}
    sl = lines(hill, top)
    assert not see(sl, (30, 45), (60, 45))  # both on the flat, the hill between
    assert see(sl, (45, 45), (60, 45))  # the observer stands on the hill
    assert see(sl, (5, 5), (60, 45))  # seen from a higher hill (level 2) over it


def test_only_the_nearest_observers_are_asked():
    # a wall of observers right behind a building; one far observer with a clear line is not among the 8 nearest
    sl = lines({"type": "building", "polygon": [[10, -5], [12, -5], [12, 5], [10, 5]]})
    near = [(5, y * 0.1) for y in range(OBSERVERS)]
    far = [(30, 20)]
    target = np.array([(20.0, 0.0)])
    assert not seen_by(sl, np.array(near + far, float), target)[0]
    assert seen_by(sl, np.array(far, float), target)[0]


def test_sighting_and_last_seen_through_the_game(game):
    red_view = game.view("red")
    assert not [f for f in red_view["figures"] if f["side"] == "blue"]  # the armies start 23 ft apart
    game.place({f"red:c{k}": (80 + k, 150) for k in range(1, 13)})  # red scouts ride forward
    game.turn()
    red_view = game.view("red")
    blue_seen = {f["id"] for f in red_view["figures"] if f["side"] == "blue"}
    assert blue_seen and blue_seen == set(game.state["ks"]["seen"]["red"]["now"]["figures"])
    game.turn(red="move horse to 86.5,127")  # back out of sight
    assert not game.rejected["red"]
    red_view = game.view("red")
    assert not [f for f in red_view["figures"] if f["side"] == "blue"]
    last = {f["id"] for f in red_view["kriegspiel"]["seen"]["last_seen"]}
    assert last == blue_seen
    assert all(f["turn"] == 2 for f in red_view["kriegspiel"]["seen"]["last_seen"])  # game turn 2: 1 was deployment
    # the umpire sees every figure of both sides
    ump = game.view(role="umpire")
    assert len([f for f in ump["figures"] if f["side"] == "blue"]) == 32


def test_the_nearest_observers_are_those_of_a_brute_force_search():
    from rules.kriegspiel.sighting import nearest_observers

    rng = np.random.default_rng(7)
    for spread in (30, 300):  # dense (first stage answers) and sparse (second stage)
        obs = rng.uniform(0, spread, (300, 2))
        tgt = rng.uniform(0, spread, (200, 2))
        src, ob = nearest_observers(obs, tgt, SIGHT_RANGE)
        got = {t: sorted(ob[src == t].tolist()) for t in range(len(tgt))}
        for t in range(len(tgt)):
            d = np.hypot(*(obs - tgt[t]).T)
            near = [i for i in np.lexsort((np.arange(len(obs)), d)) if d[i] <= SIGHT_RANGE][:OBSERVERS]
            assert got[t] == sorted(near)


def test_enemy_depots_and_trains_are_seen_like_anything_else_but_never_named(game):
    game.place({f"red:c{k}": (34 + k, 200) for k in range(1, 13)})  # red horse 7 ft from blue's wagons
    game.turn()
    objects = game.view("red")["kriegspiel"]["seen"]["objects"]
    assert objects == [{"kind": "depot", "x": 48.0, "y": 286.0}]
    assert "wagons" not in str(objects)
    game.place({f"red:c{k}": (34 + k, 100) for k in range(1, 13)})
    game.turn()
    assert game.view("red")["kriegspiel"]["seen"]["objects"] == []


def test_an_observer_sees_no_army_and_the_umpire_everything(game):
    from rules.core.protocol import Viewer

    game.turn(red="split foot1 2 as sappers nearest 16,3\nmine sappers at 16.5,3")
    obs = game.rs.view(game.state, Viewer("observer"))
    assert obs["figures"] == [] and obs["guns"] == [] and obs["kriegspiel"]["works"] == []
    assert "mine" not in game.rs.render_svg(obs)
    ump = game.rs.view(game.state, Viewer("umpire"))
    assert len(ump["figures"]) == 64 and [w["kind"] for w in ump["kriegspiel"]["works"]] == ["mine"]
    assert ump["kriegspiel"]["works"][0]["done"] == 1 and "mine" in game.rs.render_svg(ump)


# -- KS-12 read strictly: the general's eye ---------------------------------------------------------
def eye_game(new_game, eye=True):
    from rules.kriegspiel.scenario import load

    sc = load("ks_farm")
    sc["terrain"] = []  # open ground: only range and standpoint count
    sc["kriegspiel"]["general_eye"] = eye
    g = new_game(sc)
    g.deploy()
    for fid, f in g.state["figures"].items():  # everyone far apart, out of sight
        g.place({fid: (5 if f["side"] == "red" else 90, 5 if f["side"] == "red" else 283)})
    g.place({"red:c1": (20, 100), "red:i1": (60, 200)})  # the general, and a foot soldier forward
    g.place({"blue:i1": (60, 250)})  # 50 in from red:i1, 150+ from the general
    return g


def test_the_general_eye_sees_only_from_his_standpoint_and_what_is_in_touch(new_game):
    from rules.kriegspiel.sighting import sightings

    assert "blue:i1" in sightings(eye_game(new_game, eye=False).state, "red")["figures"]
    g = eye_game(new_game)
    assert g.state["ks"]["general_eye"] is True
    assert "blue:i1" not in sightings(g.state, "red")["figures"]  # the foot soldier reports nothing
    g.place({"blue:i1": (60, 205)})
    assert "blue:i1" in sightings(g.state, "red")["figures"]  # 5 in away: in touch
    g.place({"blue:i1": (20, 100 + SIGHT_RANGE)})
    assert "blue:i1" in sightings(g.state, "red")["figures"]  # 12 ft ahead of the general's figure
    g.place({"blue:i1": (20, 40 - SIGHT_RANGE)})  # out of the table's south edge: a standpoint
    assert "blue:i1" in sightings(g.state, "red")["figures"]  # 6 ft behind him still sees 12 ft on


def test_with_the_general_away_only_touch_and_his_deputy_takes_over(new_game):
    from rules.kriegspiel.sighting import commander, sightings

    g = eye_game(new_game)
    g.place({"blue:i1": (20, 150)})
    assert "blue:i1" in sightings(g.state, "red")["figures"]
    gens = {**g.state["ks"]["generals"], "red": {**g.state["ks"]["generals"]["red"], "out_until": g.state["turn"] + 3}}
    away = {**g.state, "ks": {**g.state["ks"], "generals": gens}}
    assert commander(away, "red") is None and sightings(away, "red")["figures"] == {}  # KS-13
    # KS-14 through the rules: the general falls, his deputy (the lowest-numbered free cavalryman) takes over
    g.place({"red:c2": (30, 100)})
    from rules.littlewars.fold import drop_from_groups

    figs = {**g.state["figures"], "red:c1": {**g.state["figures"]["red:c1"], "st": "dead"}}
    g.state = {**g.state, "figures": figs, "groups": drop_from_groups(g.state["groups"], {"red:c1"})}
    g.turn()
    gen = g.state["ks"]["generals"]["red"]
    assert gen["figure"] == "red:c2" and gen["lost"]
    assert commander(g.state, "red") is None  # command passing: one turn of touch only
    g.place({"red:c2": (30, 100), "blue:i1": (30, 150)})
    g.turn()
    g.place({"red:c2": (30, 100), "blue:i1": (30, 150)})
    assert commander(g.state, "red") == "red:c2"
    assert "blue:i1" in sightings(g.state, "red")["figures"]


def test_the_general_eye_needs_generals_and_a_yes_or_no():
    import pytest

    from rules.core.protocol import ScenarioError
    from rules.kriegspiel.scenario import load

    sc = load("ks_farm")
    sc["kriegspiel"]["general_eye"] = "yes"
    with pytest.raises(ScenarioError, match="general_eye.*must be true or false"):
        load(sc)
    sc["kriegspiel"]["general_eye"] = True
    sc["kriegspiel"]["generals"] = {"red": "red:c1"}
    with pytest.raises(ScenarioError, match="needs a general for each side"):
        load(sc)
