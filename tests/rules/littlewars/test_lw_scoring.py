"""Scenario ends and the score sheet (LW-47..55)."""

from rules.littlewars import scoring
from rules.littlewars.testing import build, payloads, play


def _with_start(state, red, blue):
    start = {s: {**state["start"][s], "figures": n} for s, n in (("red", red), ("blue", blue))}
    return {**state, "start": start}


def _line(n, y, arm="inf", x0=2):
    return [(x0 + 0.75 * k if arm == "inf" else x0 + 1.25 * k, y) for k in range(n)]


def test_draw_thresholds_dt6():
    s = build(red=[("a", "inf", _line(14, 5))], blue=[("b", "inf", _line(12, 30))], table=(48, 36))
    assert "below 15" in scoring.check_end(_with_start(s, 60, 60))["reason"]
    assert scoring.check_end(_with_start(s, 50, 50)) is None  # threshold 10 when each began with 50 or fewer
    s = build(red=[("a", "inf", _line(9, 5))], blue=[("b", "inf", _line(8, 30))])
    end = scoring.check_end(_with_start(s, 50, 50))
    assert end["winner"] is None and "below 10" in end["reason"]


def test_score_sheet_counts_every_item():
    s = build(
        red=[("a", "inf", _line(20, 5)), ("h", "cav", _line(4, 8))],
        blue=[("b", "inf", _line(16, 30))],
        guns=[("red", "gun1", 30, 4, 90), ("blue", "gun1", 30, 32, 270)],
    )
    figs = dict(s["figures"])
    for fid in ("blue:i1", "blue:i2"):
        figs[fid] = {**figs[fid], "st": "pow", "pow": ["red", "pow1", False]}
    figs["red:i1"] = {**figs["red:i1"], "st": "pow", "pow": ["blue", "pow2", True]}
    guns = {**s["guns"], "blue:gun1": {**s["guns"]["blue:gun1"], "owner": "red"}}
    sheet = scoring.sheet({**s, "figures": figs, "guns": guns}, "red")
    r = sheet["red"]
    assert (r["victory"], r["guns"], r["cavalry"], r["infantry"]) == (100, 2, 4, 19)
    assert (r["own_men_prisoner"], r["prisoners_taken"], r["prisoner_points"]) == (1, 2, 1.5)
    assert r["total"] == 100 + 20 + 6 + 19 + 1.5
    b = sheet["blue"]
    assert (b["victory"], b["guns"], b["infantry"], b["prisoner_points"]) == (0, 0, 14, 1.5)
    assert scoring.sheet(s, None)["red"]["victory"] == 50


def test_bitter_end_when_one_side_has_no_fighting_figure():
    s = build(red=[("a", "inf", _line(20, 5))], blue=[("b", "inf", [(10, 10)])])
    s2, events = play(s, red="move a to 9.1,9.6")
    (over,) = payloads(events, "game_over")
    assert over["winner"] == "red" and "LW-47" in over["reason"]
    assert s2["phase"] == "over" and s2["result"]["scores"]["red"]["victory"] == 100


def test_breakthrough_three_figures_at_the_enemy_edge_and_the_rest_capitulates():
    red = [("raid", "cav", [(20, 88), (21.25, 88), (22.5, 88)]), ("main", "inf", _line(16, 10))]
    blue = [("near", "inf", _line(16, 92, x0=30)), ("far", "inf", [(40, 20)])]
    s = build(red=red, blue=blue, kind="breakthrough", table=(60, 100))
    s2, events = play(s, red="move raid to 21.25,99.2")
    (over,) = payloads(events, "game_over")
    assert over["winner"] == "red" and "LW-50" in over["reason"]
    (cap,) = payloads(events, "capitulated")
    # blue's own edge is north: everything more than 6 moves (72 in of infantry) away capitulates
    assert cap["figures"] == ["blue:i17"] and cap["captor"] == "red"
    assert s2["figures"]["blue:i17"]["st"] == "pow" and s2["result"]["scores"]["red"]["prisoners_taken"] == 1


def test_defence_a_quarter_of_the_attack_must_get_through():
    red = [("raid", "cav", [(20 + 1.25 * k, 60) for k in range(4)]), ("main", "inf", _line(12, 10))]
    blue = [("hold", "inf", _line(16, 50, x0=30))]
    s = build(red=red, blue=blue, kind="defence", settings={"defender": "blue"}, table=(60, 72))
    _, events = play(s, red="move raid to 21.875,71.2")
    (over,) = payloads(events, "game_over")
    assert over["winner"] == "red" and "a quarter of the attack is 4" in over["reason"]
    three = build(
        red=[("raid", "cav", [(20 + 1.25 * k, 60) for k in range(3)]), ("main", "inf", _line(13, 10))],
        blue=blue,
        kind="defence",
        settings={"defender": "blue"},
        table=(60, 72),
    )
    _, events = play(three, red="move raid to 21.25,71.2")
    assert payloads(events, "game_over") == []


def test_breakthrough_target_segment_lw51():
    red = [("raid", "cav", [(20, 88), (21.25, 88), (22.5, 88)]), ("main", "inf", _line(16, 10))]
    blue = [("near", "inf", _line(16, 60, x0=30))]
    wide = build(red=red, blue=blue, kind="breakthrough", table=(60, 100), settings={"target": {"red": [40, 60]}})
    _, events = play(wide, red="move raid to 21.25,99.2")
    assert payloads(events, "game_over") == []  # they reached the edge, but not the part they must reach
    inside = build(red=red, blue=blue, kind="breakthrough", table=(60, 100), settings={"target": {"red": [10, 30]}})
    _, events = play(inside, red="move raid to 21.25,99.2")
    assert payloads(events, "game_over")[0]["winner"] == "red"
