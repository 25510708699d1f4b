"""Hidden works (KS-58..67): starting, progress, interruption, completion, mines going off."""

import pytest

from rules.kriegspiel import works
from rules.kriegspiel.numbers import MINE_RADIUS


def fig(side, arm, x, y, st="ok"):
    return {"side": side, "arm": arm, "x": x, "y": y, "st": st, "dis": False, "pow": None}


def state_with(figures, works_=None):
    return {"figures": figures, "ks": {"works": works_ or {}}}


def test_entrenchment_length_is_one_inch_per_two_figures():
    # KS-63, KS-DT-12: 10 men -> 5 in, 7 men -> 3 in (floor)
    assert works.entrenchment_length(10) == 5
    assert works.entrenchment_length(7) == 3
    assert works.entrenchment_length(2) == 1


def test_start_checks_number_arm_reach_and_length():
    figs = {f"red:i{k}": fig("red", "inf", 10 + k * 0.6, 10) for k in range(1, 8)}
    figs["red:c1"] = fig("red", "cav", 12, 11)
    st = state_with(figs)
    inf = sorted(i for i in figs if ":i" in i)
    works.check_start(st, "red", "mine", inf[:2], (11, 11))
    with pytest.raises(works.WorkError, match="needs 2 figures"):
        works.check_start(st, "red", "mine", inf[:1], (11, 11))
    with pytest.raises(works.WorkError, match="needs 6 figures"):
        works.check_start(st, "red", "gunpit", inf[:5], (12, 11))
    with pytest.raises(works.WorkError, match="only infantry"):
        works.check_start(st, "red", "entrenchment", inf[:3] + ["red:c1"], (10, 11), (11, 11))
    with pytest.raises(works.WorkError, match="at most 3 in"):
        works.check_start(st, "red", "entrenchment", inf, (10, 11), (14, 11))
    works.check_start(st, "red", "entrenchment", inf, (11, 11), (14, 11))
    with pytest.raises(works.WorkError, match="within 2 in"):
        works.check_start(st, "red", "mine", inf[:2], (30, 30))
    with pytest.raises(works.WorkError, match="not one of your"):
        works.check_start(st, "blue", "mine", inf[:2], (11, 11))
    with pytest.raises(works.WorkError, match="unknown work"):
        works.check_start(st, "red", "moat", inf[:2], (11, 11))


def test_busy_workers_cannot_start_a_second_job():
    figs = {f"red:i{k}": fig("red", "inf", 10, 10) for k in (1, 2)}
    w = works.new_work("w1", "mine", "red", ["red:i1", "red:i2"], (10, 10), None, 1)
    with pytest.raises(works.WorkError, match="already at work"):
        works.check_start(state_with(figs, {"w1": w}), "red", "mine", ["red:i1", "red:i2"], (10, 11))


def run(figs, w, turns, busy_at=None, kill_at=None):
    """Work ``turns`` turns; returns the list of statuses."""
    out = []
    for t in range(1, turns + 1):
        if kill_at == t:
            figs = {**figs, w["workers"][0]: {**figs[w["workers"][0]], "st": "dead"}}
        ch = works.progress(state_with(figs, {w["id"]: w}), {w["workers"][0]} if busy_at == t else set())
        w = {**w, "status": ch[0]["status"], "done": ch[0]["done"]}
        out.append(ch[0]["status"])
        if w["status"] != "building":
            break
    return out


def test_entrenchment_is_complete_after_its_fourth_turn_and_a_mine_armed_after_six():
    figs = {f"red:i{k}": fig("red", "inf", 10, 10) for k in range(1, 7)}
    ids = sorted(figs)
    ent = works.new_work("w1", "entrenchment", "red", ids[:2], (10, 10), (11, 10), 1)
    assert run(figs, ent, 10) == ["building"] * 3 + ["complete"]
    pit = works.new_work("w2", "gunpit", "red", ids, (10, 10), None, 1)
    assert run(figs, pit, 10) == ["building"] * 3 + ["complete"]
    mine = works.new_work("w3", "mine", "red", ids[:2], (10, 10), None, 1)
    assert run(figs, mine, 10) == ["building"] * 5 + ["armed"]


def test_a_work_is_abandoned_when_a_worker_moves_or_is_killed():
    figs = {f"red:i{k}": fig("red", "inf", 10, 10) for k in (1, 2)}
    mine = works.new_work("w3", "mine", "red", sorted(figs), (10, 10), None, 1)
    assert run(figs, mine, 10, busy_at=3) == ["building", "building", "abandoned"]
    assert run(figs, mine, 10, kill_at=2) == ["building", "abandoned"]
    ch = works.progress(state_with({**figs, "red:i1": {**figs["red:i1"], "st": "pow"}}, {"w3": mine}), set())
    assert ch[0]["status"] == "abandoned" and "killed or taken" in ch[0]["reason"]


def test_passing_a_mine_means_coming_within_half_an_inch_footprint_to_point():
    # an infantryman (radius 1/4) walking along y=0 passes a mine at (10, 0.7) (0.7 <= 0.25 + 0.5) ...
    assert works.passage([(0, 0), (20, 0)], "inf", (10, 0.7)) == pytest.approx(10 - (0.75**2 - 0.7**2) ** 0.5)
    # ... but not one at (10, 0.8); and standing still never passes
    assert works.passage([(0, 0), (20, 0)], "inf", (10, 0.8)) is None
    assert works.passage([(10, 0.1)], "inf", (10, 0)) is None
    # a cavalryman's wider footprint (1/2) reaches 1 in
    assert works.passage([(0, 0), (20, 0)], "cav", (10, 0.95)) is not None


def test_first_to_pass_sets_it_off_by_time_not_by_name():
    mine = {"id": "w1", "at": (10.0, 0.0)}
    walks = {
        "blue:c1": ([(-26, 0), (10, 0)], "cav", 36.0),  # reaches it at t = 35.25/36
        "red:i1": ([(9.5, 0), (12, 0)], "inf", 12.0),
    }  # starts within reach: t = 0
    trig = works.triggers([mine], walks)
    assert trig == [{"mine": "w1", "by": "red:i1", "t": 0.0}]
    walks["red:i1"] = ([(0, 0), (10, 0)], "inf", 12.0)  # reaches it at t = 9.25/12 = 0.77
    assert works.triggers([mine], walks)[0]["by"] == "red:i1"
    walks["blue:c1"] = ([(-10, 0), (10, 0)], "cav", 36.0)  # 19.5/36 = 0.54: first
    assert works.triggers([mine], walks)[0]["by"] == "blue:c1"


def test_walked_path_stops_where_the_figure_stopped():
    assert works.walked([(0, 0), (10, 0), (10, 10)], (10, 4)) == [(0.0, 0.0), (10.0, 0.0), (10.0, 4.0)]
    assert works.walked([(0, 0), (10, 0)], (3, 0)) == [(0.0, 0.0), (3.0, 0.0)]


def test_explosion_destroys_everything_within_six_inches():
    at = (0.0, 0.0)
    pos = {"a": (MINE_RADIUS + 0.25, 0), "b": (MINE_RADIUS + 0.26, 0), "c": (1, 1)}
    assert works.blast_victims(at, pos, {"a": "inf", "b": "inf", "c": "cav"}) == ["a", "c"]
    guns = {"red:gun1": {"x": 5.9, "y": 0}, "red:gun2": {"x": 6.1, "y": 0}}
    assert works.guns_within(at, guns) == ["red:gun1"]


def test_a_mine_destroys_prisoners_and_wagons_too(new_game):
    """Issue 15 bug 4 (KS-60 'everything within 6 in'): the mine used to kill only free figures."""
    from rules.littlewars.fold import drop_from_groups

    g = new_game(seed=3)
    g.deploy()
    g.place({"blue:i1": (60, 100), "blue:i2": (60.75, 100), "blue:c1": (60.4, 120), "red:i5": (63, 99)})
    g.turn(blue="split foot1 2 as sappers nearest 60,100\nmine sappers at 60.4,98.5")
    for _ in range(5):
        g.turn()
    assert [w["status"] for w in g.state["ks"]["works"].values()] == ["armed"]
    s = g.state  # red:i5 is blue's prisoner beside the mine; blue's wagons stand 4 in from it
    figs = {**s["figures"], "red:i5": {**s["figures"]["red:i5"], "st": "pow", "pow": ["blue", "pow9", False]}}
    supply = {
        **s["ks"]["supply"],
        "blue": {
            **s["ks"]["supply"]["blue"],
            "depots": {"wagons": {**s["ks"]["supply"]["blue"]["depots"]["wagons"], "x": 60.4, "y": 94.5}},
        },
    }
    g.state = {
        **s,
        "figures": figs,
        "groups": drop_from_groups(s["groups"], {"red:i5"}),
        "pows": {**s["pows"], "blue": {"pow9": ["red:i5"]}},
        "ks": {**s["ks"], "supply": supply},
    }
    g.turn(blue="move c1 to 60.4,95")
    (boom,) = [e for e in g.events if e.type == "kriegspiel.mine_exploded"]
    assert "red:i5" in boom.payload["killed"] and g.state["figures"]["red:i5"]["st"] == "dead"
    assert g.state["pows"]["blue"] == {}
    assert g.state["ks"]["supply"]["blue"]["depots"] == {}
    (blast,) = [e for e in g.events if e.type == "kriegspiel.blast"]
    assert blast.audience == "umpire" and blast.payload["wagons"] == {"blue": ["wagons"]}
