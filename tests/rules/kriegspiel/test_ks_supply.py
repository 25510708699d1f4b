"""Supply (KS-40..53): rations over many totals, isolation, reach, cutting, horses, surrender."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.kriegspiel import supply as s


@pytest.mark.parametrize("men,rations", [(15, 1), (14, 0), (30, 1), (59, 2), (75, 3), (0, 0), (44, 1), (45, 2)])
def test_rations_round_remainders_at_fifteen(men, rations):
    # KS-48, KS-DT-1
    assert s.rations(men) == rations


@given(st.integers(min_value=0, max_value=100_000))
def test_rations_over_many_totals(men):
    r = s.rations(men)
    assert abs(r * 30 - men) <= 15  # never more than half a ration off ...
    assert (r * 30 >= men) == (men % 30 >= 15 or men % 30 == 0)  # ... and rounded up exactly from 15
    assert s.rations(men + 30) == r + 1


def test_forage_by_sixes_and_bad_numbers():
    assert [s.forage(h) for h in (0, 2, 3, 6, 8, 9)] == [0, 0, 1, 1, 1, 2]
    with pytest.raises(ValueError):
        s.rations(-1)


def fig(side, arm, x, y):
    return {"side": side, "arm": arm, "x": x, "y": y, "st": "ok", "dis": False, "pow": None}


def world(groups, depots=None, turn=1, last_horse=None):
    figures, named = {}, {}
    for side, name, arm, n, x, y in groups:
        ids = []
        for k in range(n):
            fid = f"{side}:{arm[0]}{len([f for f in figures if f.startswith(side + ':' + arm[0])]) + 1}"
            figures[fid] = fig(side, arm, x + (k % 10) * 0.75, y + (k // 10) * 0.75)
            ids.append(fid)
        named.setdefault(side, {})[name] = ids
    sup = {
        side: {"on": True, "depots": {}, "status": {}, "last_horse": dict(last_horse or {}), "larder": {}}
        for side in ("red", "blue")
    }
    for side, name, x, y, food, forage, ammo in depots or []:
        sup[side]["depots"][name] = {"x": x, "y": y, "food": food, "forage": forage, "ammo": ammo, "moved": False}
    named.setdefault("blue", {})
    # "ids": "side": laid by version 2 (0.2.0); a version 1 world (0.1.0) leaves it out
    return {"figures": figures, "groups": named, "turn": turn, "ks": {"supply": sup}, "ids": "side"}


def test_small_isolated_infantry_needs_nothing():
    # KS-DT-2: 29 more than 12 ft from every other group: nothing; within 12 ft: 1 ration
    w = world([("red", "a", "inf", 29, 0, 0), ("red", "b", "inf", 10, 0, 12 * 12 + 20)])
    assert s.exempt(w, "red", "a") and s.needs(w, "red", "a") == {"food": 0, "forage": 0, "ammo": 0}
    w = world([("red", "a", "inf", 29, 0, 0), ("red", "b", "inf", 10, 0, 100)])
    assert not s.exempt(w, "red", "a") and s.needs(w, "red", "a")["food"] == 1
    w = world([("red", "a", "inf", 30, 0, 0)])
    assert not s.exempt(w, "red", "a")  # 30 is not "fewer than 30"


def test_reach_six_feet_for_infantry_eighteen_for_cavalry_and_no_supply_through_the_enemy():
    w = world(
        [("red", "a", "inf", 30, 0, 0), ("red", "h", "cav", 6, 40, 0)], depots=[("red", "d", 0, 73, 60, 60, 60)]
    )  # 71.5 in from the last rank
    assert s.source(w, "red", "a", w["ks"]["supply"]["red"]["depots"], "food", 1)[0] == "d"
    w2 = world([("red", "a", "inf", 30, 0, 0)], depots=[("red", "d", 0, 80, 60, 60, 60)])
    assert "KS-44/45" in s.source(w2, "red", "a", w2["ks"]["supply"]["red"]["depots"], "food", 1)[1]
    w3 = world([("red", "h", "cav", 6, 0, 0)], depots=[("red", "d", 0, 210, 60, 60, 60)])
    assert s.source(w3, "red", "h", w3["ks"]["supply"]["red"]["depots"], "forage", 1)[0] == "d"
    w4 = world(
        [("red", "a", "inf", 30, 0, 0), ("blue", "x", "inf", 1, 2, 40)], depots=[("red", "d", 0, 73, 60, 60, 60)]
    )
    assert "KS-49" in s.source(w4, "red", "a", w4["ks"]["supply"]["red"]["depots"], "food", 1)[1]


def test_ledger_draws_and_a_moved_depot_supplies_nothing():
    w = world(
        [("red", "a", "inf", 75, 0, 0), ("red", "h", "cav", 12, 20, 0)], depots=[("red", "d", 10, 20, 60, 60, 60)]
    )
    led = s.turn_ledger(w, "red", fired={"a"})
    draws = {(d["group"], d["kind"]): d["portions"] for d in led["draws"]}
    assert draws == {("a", "food"): 3, ("a", "ammo"): 3, ("h", "forage"): 2}
    assert all(st_["can_move"] and st_["can_fire"] for st_ in led["groups"].values())
    w["ks"]["supply"]["red"]["depots"]["d"]["moved"] = True
    led = s.turn_ledger(w, "red", fired=set())
    assert "KS-38" in led["groups"]["a"]["missing"]["food"] and not led["groups"]["a"]["can_move"]
    assert not led["groups"]["a"]["can_fire"]


def test_horses_are_eaten_and_the_last_horse_starts_four_turns_to_surrender():
    # 24 foot and 6 horse with no depot: 1 portion of food, so it eats one horse (a ration, KS-50)
    w = world([("red", "a", "inf", 24, 0, 0), ("red", "h", "cav", 6, 3, 3)])
    w["groups"]["red"] = {"a": w["groups"]["red"]["a"] + w["groups"]["red"]["h"]}
    led = s.turn_ledger(w, "red", set())
    st_ = led["groups"]["a"]
    assert st_["horses_eaten"] == ["red:c1"] and st_["last_horse"] is None
    assert not st_["can_move"]  # five horses left want forage (KS-52)
    w = world([("red", "a", "inf", 28, 0, 0), ("red", "h", "cav", 2, 3, 3)])
    w["groups"]["red"] = {"a": w["groups"]["red"]["a"] + w["groups"]["red"]["h"]}
    st_ = s.turn_ledger(w, "red", set())["groups"]["a"]  # 2 horses need no forage (remainder under 3)
    assert st_["horses_eaten"] == ["red:c1"] and st_["can_move"]
    # a group without horses cannot eat any: it cannot move
    w = world([("red", "a", "inf", 28, 0, 0), ("red", "b", "inf", 2, 3, 3)])
    assert not s.turn_ledger(w, "red", set())["groups"]["a"]["can_move"]
    # the last horse eaten in turn 5: surrender in turn 9 unless supplied again (KS-53)
    w = world([("red", "a", "inf", 30, 0, 0)], turn=9, last_horse={"a": 5})
    assert s.turn_ledger(w, "red", set())["surrender"] == ["a"]
    w = world([("red", "a", "inf", 30, 0, 0)], turn=8, last_horse={"a": 5})
    assert s.turn_ledger(w, "red", set())["surrender"] == []
    w = world([("red", "a", "inf", 30, 0, 0)], turn=9, last_horse={"a": 5}, depots=[("red", "d", 0, 10, 6, 0, 0)])
    led = s.turn_ledger(w, "red", set())
    assert led["surrender"] == [] and led["groups"]["a"]["last_horse"] is None  # relieved: the siege is lifted


def test_a_horse_feeds_the_group_six_turns():
    # 24 foot and 6 horse need one portion a turn: one horse (six portions) lasts six turns (KS-41, KS-50)
    w = world([("red", "a", "inf", 24, 0, 0), ("red", "h", "cav", 6, 3, 3)])
    w["groups"]["red"] = {"a": w["groups"]["red"]["a"] + w["groups"]["red"]["h"]}
    eaten = []
    for turn in range(1, 8):
        w["turn"] = turn
        st_ = s.turn_ledger(w, "red", set())["groups"]["a"]
        eaten.append(len(st_["horses_eaten"]))
        w["ks"]["supply"]["red"]["larder"] = {"a": st_["larder"]}
        for fid in st_["horses_eaten"]:
            w["figures"][fid]["arm"] = "inf"
    assert eaten == [1, 0, 0, 0, 0, 0, 1]


def test_in_play_a_group_beyond_its_depot_starves_and_cannot_move(new_game):
    from rules.kriegspiel.scenario import load

    sc = load("ks_farm")
    next(g for g in sc["forces"]["red"]["groups"] if g["name"] == "foot1")["count"] = 30
    g = new_game(sc)
    g.deploy()
    g.place({f"red:i{k}": (10 + (k % 10), 100 + k // 10) for k in range(1, 31)})  # 8 ft from the wagons at (48, 2)
    evs = g.turn()
    ledger = [e for e in evs if e.type == "kriegspiel.supplied" and e.payload["side"] == "red"][0]
    assert ledger.audience == "side:red"
    assert "KS-44/45" in ledger.payload["groups"]["foot1"]["missing"]["food"]
    g.turn(red="move foot1 to 15,90")
    assert [e.message for e in g.rejected["red"]] == ["foot1 has no food or forage and cannot move (KS-52)"]
    assert all(g.state["figures"][f"red:i{k}"]["y"] >= 100 for k in range(1, 31))
    view = g.view("red")["kriegspiel"]["supply"]
    assert view["status"]["foot1"]["can_move"] is False
    assert g.view("blue")["kriegspiel"]["supply"]["status"]["foot1"]["can_move"] is True  # blue's own foot1
    ump = g.view(role="umpire")["kriegspiel"]["sides"]
    assert ump["red"]["supply"]["status"]["foot1"]["can_move"] is False and "wagons" in ump["blue"]["supply"]["depots"]


def test_an_army_that_splits_eats_as_much_as_it_did_whole():
    """Issue 15 bug 6 (KS-46..48): 46 men draw 2 portions a turn; split 14/14/14/4 side by side they drew none."""
    depot = [("red", "d", 20, 30, 60, 60, 60)]
    whole = world([("red", "a", "inf", 46, 0, 0)], depots=depot)
    split = world(
        [
            ("red", "a", "inf", 14, 0, 0),
            ("red", "b", "inf", 14, 0, 10),
            ("red", "c", "inf", 14, 0, 20),
            ("red", "d", "inf", 4, 10, 0),
        ],
        depots=depot,
    )

    def food(w, fired=()):
        ledger = s.turn_ledger(w, "red", set(fired))
        return {k: sum(d["portions"] for d in ledger["draws"] if d["kind"] == k) for k in ("food", "ammo")}

    assert food(whole) == {"food": 2, "ammo": 0}
    assert food(split) == {"food": 2, "ammo": 0}
    assert food(split, fired={"a", "b", "c", "d"}) == {"food": 2, "ammo": 2}
    assert [sorted(b) for b in s.bodies(split, "red")] == [["a", "b", "c", "d"]]
    # a body more than 12 ft from the rest is reckoned alone: 14 isolated need nothing (KS-46/47)
    far = world([("red", "a", "inf", 31, 0, 0), ("red", "b", "inf", 14, 0, 12 * 12 + 20)], depots=depot)
    assert s.shares(far, "red") == {"a": {"food": 1, "forage": 0, "ammo": 0}, "b": {"food": 0, "forage": 0, "ammo": 0}}
    assert s.exempt(far, "red", "b") and not s.exempt(far, "red", "a")


def test_a_game_laid_by_0_1_0_rounds_each_group_alone_as_0_1_0_did():
    """Kriegspiel version 1 keeps 0.1.0's KS-48 rounding per group (rules/README.md, "Versions")."""
    split = world(
        [("red", "a", "inf", 14, 0, 0), ("red", "b", "inf", 14, 0, 10), ("red", "c", "inf", 14, 0, 20)],
        depots=[("red", "d", 20, 30, 60, 60, 60)],
    )
    del split["ids"]
    assert {g: v["food"] for g, v in s.shares(split, "red").items()} == {"a": 0, "b": 0, "c": 0}


@given(st.lists(st.integers(1, 40), min_size=1, max_size=8))
def test_splitting_a_body_never_changes_what_it_draws(sizes):
    groups = [("red", f"g{k}", "inf", n, 0, 8 * k) for k, n in enumerate(sizes)]  # side by side: one body
    w = world(groups)
    total = sum(v["food"] for v in s.shares(w, "red").values())
    lone = len(sizes) == 1 and sizes[0] < 30
    assert total == (0 if lone else s.rations(sum(sizes)))
