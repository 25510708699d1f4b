"""Kriegspiel version 3 (issue 33): the version recorded at setup, and the fixes it brings, each
beside a version 2 game that keeps the old rule (rules/README.md "Versions")."""

import pytest

from rules.core.protocol import RulesError
from rules.kriegspiel.ruleset import RULESET
from rules.kriegspiel.scenario import load
from rules.kriegspiel.version import RULES_VERSION, ks_version


def as_version_2(g):
    """A game laid by version 2 (0.2.0 to 0.3.0): its table_laid records no rules_version."""
    g.state = {**g.state, "ks": {k: v for k, v in g.state["ks"].items() if k != "rules_version"}}
    assert ks_version(g.state) == 2
    return g


def laid(new_game, version, scenario=None, seed=1):
    g = new_game(scenario, seed=seed)
    if version == 2:
        as_version_2(g)
    g.deploy()
    return g


def test_a_new_game_records_its_version_and_older_games_keep_theirs(new_game):
    g = new_game()
    (table,) = [e for e in g.events if e.type == "littlewars.table_laid"]
    assert table.payload["rules_version"] == RULES_VERSION >= 3 and table.payload["ids"] == "side"
    assert g.state["ks"]["rules_version"] == RULES_VERSION and ks_version(g.state) == RULES_VERSION
    assert set(RULESET.versions) == set(range(1, RULES_VERSION + 1)) and RULESET.by_flags == tuple(
        range(1, RULES_VERSION)
    )
    assert RULESET.pinned(2) is RULESET and RULESET.pinned(1) is RULESET
    old = as_version_2(new_game()).state
    assert RULESET.unrecorded_version(old) == 2
    v1 = {**old, "ks": dict(old["ks"])}
    del v1["ids"]
    assert ks_version(v1) == 1 and RULESET.unrecorded_version(v1) == 1
    moved = RULESET.carry_over(old, 2)
    assert ks_version(moved) == RULES_VERSION and moved["figures"] == old["figures"]
    with pytest.raises(RulesError):
        RULESET.carry_over(v1, 1)


# -- KS-51/52: a group split off carries its parent's supply for the turn ----------------------------
def _starving(new_game, version):
    sc = load("ks_farm")
    next(g for g in sc["forces"]["red"]["groups"] if g["name"] == "foot1")["count"] = 30
    g = laid(new_game, version, sc)
    g.place({f"red:i{k}": (10 + (k % 10), 100 + k // 10) for k in range(1, 31)})  # 8 ft from the wagons
    g.turn()
    assert g.state["ks"]["supply"]["red"]["status"]["foot1"]["can_move"] is False
    return g


@pytest.mark.parametrize("version", [2, 3])
def test_a_starving_group_that_splits_does_not_move_off_in_version_3(new_game, version):
    """KS-52 (issue 33): a group without food splits off 29 men, who then moved (status by name)."""
    g = _starving(new_game, version)
    g.turn(red="split foot1 29 as flight\nmove flight to 15,90")
    went = [k for k in range(1, 31) if g.state["figures"][f"red:i{k}"]["y"] < 100]
    if version == 3:
        assert [e.message for e in g.rejected["red"]] == ["flight has no food or forage and cannot move (KS-52)"]
        assert went == []
    else:  # version 2 keeps the old rule: the new name has no status, so they march
        assert list(g.rejected["red"]) == []
        assert len(went) == 29


@pytest.mark.parametrize("version", [2, 3])
def test_a_group_merged_into_by_a_starving_one_carries_its_want(new_game, version):
    """KS-52 in version 3: the merged group carries the want of the starving men it took in."""
    g = _starving(new_game, version)
    foot2 = g.state["groups"]["red"]["foot2"]
    assert g.state["ks"]["supply"]["red"]["status"].get("foot2", {"can_move": True})["can_move"]
    g.place({f: (10 + k % 10, 106 + k // 10) for k, f in enumerate(foot2)})  # fed, beside foot1
    g.turn(red="split foot1 29 as flight\nmerge flight into foot2\nmove foot2 to 15,95")
    refused = [e.message for e in g.rejected["red"]]
    if version == 3:
        assert refused == ["foot2 has no food or forage and cannot move (KS-52)"]
    else:
        assert refused == []


@pytest.mark.parametrize("version", [2, 3])
def test_a_group_without_ammunition_that_splits_cannot_volley(new_game, version):
    """KS-51 (issue 33): a group without ammunition split off some men, who then fired."""
    g = laid(new_game, version)
    g.turn()
    status = g.state["ks"]["supply"]["red"]["status"]
    status["foot1"] = {**status.get("foot1", {}), "can_move": True, "can_fire": False}
    own = RULESET.parse_orders(g.state, "red", "split foot1 5 as skirmish\nvolley skirmish at 20,40").orders
    errors = [e.message for e in RULESET.validate(g.state, "red", own)]
    assert ("skirmish has no ammunition (KS-51)" in errors) == (version == 3)
    own = RULESET.parse_orders(g.state, "red", "volley foot1 at 20,40").orders
    assert "foot1 has no ammunition (KS-51)" in [e.message for e in RULESET.validate(g.state, "red", own)]


# -- KS-81: a pursued unit withdrawing off the table is destroyed ------------------------------------
@pytest.mark.parametrize("version", [2, 3])
def test_a_pursued_unit_withdrawing_off_the_table_is_destroyed_in_version_3(new_game, version):
    """KS-81 (issue 33): the withdrawal was clamped at the table's edge (movement.way_home)."""
    from rules.littlewars.scenario import home_vector
    from rules.littlewars.table import table_of

    g = laid(new_game, version)
    g.turn()
    sc = g.state["scenario"]
    vx, vy = home_vector(sc, "blue")
    edge_y = table_of(sc).depth if vy > 0 else 0.0
    near = edge_y - vy * 4  # 4 in from blue's own edge: a full-pace withdrawal leaves the table
    far = edge_y - vy * 60  # and one that has room
    g.place({"blue:c1": (30, near), "blue:c2": (50, far), "red:c1": (40, near - vy * 30)})
    ks = g.state["ks"]
    pursued = {f: {"by": ["red:c1"], "turn": g.state["turn"]} for f in ("blue:c1", "blue:c2")}
    g.state = {**g.state, "ks": {**ks, "pursued": pursued}}
    evs = g.turn()
    c1, c2 = g.state["figures"]["blue:c1"], g.state["figures"]["blue:c2"]
    assert c2["st"] == "ok" and abs(c2["y"] - far) > 6  # withdrawing as before
    off = [e for e in evs if e.type == "kriegspiel.withdrawn_off"]
    if version == 3:
        assert c1["st"] == "dead"
        (ev,) = off
        assert ev.audience == "umpire" and ev.payload == {"destroyed": ["blue:c1"]}
        assert "blue:c1" not in g.state["groups"]["blue"].get("horse", [])
        assert "KS-81" in RULESET.describe_event(ev.type, ev.payload)
    else:  # version 2 keeps the old rule: clamped on the table's edge
        assert c1["st"] == "ok" and off == []
        assert abs(c1["y"] - edge_y) < 1


# -- KS-59: a figure killed by a mine sets off no later mine -----------------------------------------
def _armed(id_, at):
    return {
        "id": id_,
        "kind": "mine",
        "side": "blue",
        "at": list(at),
        "to": None,
        "workers": [],
        "need": 6,
        "done": 6,
        "started": 1,
        "status": "armed",
    }


@pytest.mark.parametrize("version", [2, 3])
def test_a_rider_killed_by_the_first_mine_sets_off_no_second_in_version_3(new_game, version):
    """KS-59 (issue 33): triggers were worked out from the planned walks before any mine went off."""
    g = laid(new_game, version)
    g.check = False  # mines placed by hand
    g.place({"red:c1": (40, 60)})
    ks = g.state["ks"]
    mines = {"blue:w1": _armed("blue:w1", (40, 63)), "blue:w2": _armed("blue:w2", (40, 77))}
    g.state = {**g.state, "ks": {**ks, "works": mines}}
    evs = g.turn(red="move c1 to 40,80")
    booms = [e.payload for e in evs if e.type == "kriegspiel.mine_exploded"]
    assert booms[0]["by"] == "red:c1" and "red:c1" in booms[0]["killed"]
    assert g.state["figures"]["red:c1"]["st"] == "dead"
    status = {k: w["status"] for k, w in g.state["ks"]["works"].items()}
    if version == 3:
        assert len(booms) == 1 and status == {"blue:w1": "exploded", "blue:w2": "armed"}
    else:  # version 2 keeps the old rule: the dead rider still sets off the second
        assert [b["by"] for b in booms] == ["red:c1", "red:c1"]
        assert status == {"blue:w1": "exploded", "blue:w2": "exploded"}
