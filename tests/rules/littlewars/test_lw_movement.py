"""Simultaneous movement: contact stops at 1/8 in (LW-33), exact timing, paths round scenery."""

import math

from rules.littlewars.motion import Track, first_touch
from rules.littlewars.table import path_length, table_of
from rules.littlewars.testing import build, payloads, play


def test_a_figure_stops_on_touching_a_standing_enemy():
    s = build(red=[("a", "inf", [(10, 10)])], blue=[("b", "inf", [(10, 15)])])
    s2, events = play(s, red="move a to 10,20")
    (moved,) = payloads(events, "moved")
    # footprints 0.25 + 0.25 and the 1/8 in gap: the centres stop 0.625 apart
    assert moved["figures"]["red:a1" if False else "red:i1"] == [10.0, 14.375]
    assert moved["contacts"][0][:2] == ["blue:i1", "red:i1"]


def test_head_on_both_stop_at_the_moment_of_contact():
    s = build(red=[("a", "inf", [(10, 10)])], blue=[("b", "inf", [(10, 20)])])
    _, events = play(s, red="move a to 10,20", blue="move b to 10,10")
    (moved,) = payloads(events, "moved")
    # closing at 24 in a turn from 10 in apart: touching at t = 9.375 / 24
    assert moved["figures"]["red:i1"] == [10.0, 14.6875]
    assert moved["figures"]["blue:i1"] == [10.0, 15.3125]
    (c,) = moved["contacts"]
    assert c[2] == round(9.375 / 24, 6) and c[3] and c[4]


def test_paths_that_cross_at_different_times_do_not_touch():
    # red crosses x=10 early, blue passes the same point late
    s = build(red=[("a", "inf", [(10, 10)])], blue=[("b", "cav", [(-10 + 30, 30)])], table=(60, 48))
    t_red = Track([(10, 10), (10, 22)], 12)
    t_blue = Track([(20, 30), (10, 40)], 24)
    assert first_touch(t_red, t_blue, 0.875) is None
    _, events = play(s, red="move a to 10,22")
    assert payloads(events, "moved")[0]["contacts"] == []


def test_friends_do_not_stop_each_other():
    s = build(red=[("a", "inf", [(10, 10)]), ("b", "inf", [(10, 20)])], blue=[("x", "inf", [(40, 30)])])
    _, events = play(s, red="move a to 10,20\nmove b to 10,10")
    assert payloads(events, "moved")[0]["contacts"] == []


def test_movement_goes_round_a_building_and_never_through_it():
    barn = {"id": "barn", "type": "building", "polygon": [[8, 14], [12, 14], [12, 16], [8, 16]]}
    s = build(red=[("a", "cav", [(10, 10)])], blue=[("x", "inf", [(40, 30)])], terrain=[barn])
    table = table_of(s["scenario"])
    pts = table.path("cav", (10, 10), (10, 20))
    assert len(pts) > 2 and path_length(pts) > 10
    s2, _ = play(s, red="move a to 10,20")
    assert (s2["figures"]["red:i1" if False else "red:c1"]["x"], s2["figures"]["red:c1"]["y"]) == (10.0, 20.0)
    # and no point of the path is inside the building's clearance
    from shapely.geometry import LineString, Polygon

    assert LineString(pts).distance(Polygon(barn["polygon"])) >= 0.5 + 1 / 16 - 1e-6


def test_a_moved_group_keeps_its_formation():
    s = build(red=[("a", "inf", [(10, 10), (11, 10), (12, 10)])], blue=[("x", "inf", [(40, 30)])])
    s2, _ = play(s, red="move a to 11,18")
    xs = [(s2["figures"][f"red:i{k}"]["x"], s2["figures"][f"red:i{k}"]["y"]) for k in (1, 2, 3)]
    assert xs == [(10.0, 18.0), (11.0, 18.0), (12.0, 18.0)]
    assert all(math.isclose(y, 18.0) for _, y in xs)


def test_closed_form_vectorised_and_general_contact_times_agree():
    import random

    import numpy as np

    from rules.littlewars.motion import _simple_times

    rng = random.Random(3)
    pairs, tracks = [], {}
    for k in range(300):
        a = [(rng.uniform(0, 20), rng.uniform(0, 20)) for _ in range(2)]
        b = [(rng.uniform(0, 20), rng.uniform(0, 20)) for _ in range(rng.choice([1, 2]))]
        ta, tb = Track(a, rng.choice([12, 24])), Track(b, 12)
        # the same straight motion with a midpoint goes through the general piecewise code
        mid = ((a[0][0] + a[1][0]) / 2, (a[0][1] + a[1][1]) / 2)
        general = first_touch(Track([a[0], mid, a[1]], ta.speed), Track(b + b[-1:], 12) if len(b) == 2 else tb, 0.625)
        closed = first_touch(ta, tb, 0.625)
        assert (general is None) == (closed is None), k
        if closed is not None:
            assert math.isclose(general, closed, abs_tol=1e-9)
        tracks[f"a{k}"], tracks[f"b{k}"] = ta, tb
        pairs.append((f"a{k}", f"b{k}", closed))
    times = _simple_times(tracks, [(a, b) for a, b, _ in pairs], np.full(len(pairs), 0.625))
    for (_, _, closed), t in zip(pairs, times.tolist(), strict=True):
        if closed is None:
            assert t > 1.0 or not math.isfinite(t)
        else:
            assert math.isclose(t, closed, abs_tol=1e-9)


def test_a_figure_ordered_to_stay_put_is_still_met():
    s = build(red=[("a", "inf", [(10, 10)])], blue=[("b", "inf", [(10, 15)])])
    _, events = play(s, red="move a to 10,20", blue="move b to 10,15")
    (moved,) = payloads(events, "moved")
    assert moved["figures"]["red:i1"] == [10.0, 14.375] and len(moved["contacts"]) == 1


def test_distances_doubled_or_trebled_on_a_large_field():
    """LW-62 (setting scale 2 or 3): moves, gun moves, the gun's range, prisoners' pace and everything
    counted in moves (support, LW-54, LW-50) scale; contact distances (6 in for crews, melee, guards) do not."""
    import pytest

    from rules.core.protocol import ScenarioError
    from rules.littlewars import RULESET as RS
    from rules.littlewars.geom import support
    from rules.littlewars.scenario import load

    def errors(state, text):
        parsed = RS.parse_orders(state, "red", text)
        return [e.message for e in RS.validate(state, "red", parsed.orders)]

    def position(scale):
        return build(
            red=[("foot", "inf", [(10, 10), (10.75, 10), (11.5, 10), (12.25, 10)]), ("far", "inf", [(10, 40)])],
            blue=[("b", "inf", [(60, 100)])],
            guns=[("red", "gun1", 11, 12, 90)],
            table=(120, 120),
            settings={"scale": scale},
        )

    one, two = position(1), position(2)
    assert "moves at most 12 in (LW-17)" in errors(one, "move i1 to 10,30")[0]
    assert errors(two, "move i1 to 10,30") == [] and "moves at most 24 in" in errors(two, "move i1 to 10,40")[0]
    assert "a gun reaches 144 in" in errors(one, "fire gun1 at 11,160")[0]
    assert errors(two, "fire gun1 at 11,160") == []
    assert "it moves at most 12 in (LW-26)" in errors(one, "move gun1 to 11,26\nmove foot to 11.1,21")[0]
    assert errors(two, "move gun1 to 11,26\nmove foot to 11.1,21") == []
    # LW-32 support reaches a move: "far" stands 30 in from the line, beyond 12 and 24 in, within 36
    assert support(one, "red", one["groups"]["red"]["foot"])[0] == 0
    three = position(3)
    assert support(three, "red", three["groups"]["red"]["foot"])[0] == 1  # 36 in reaches it
    two, _ = play(two, red="move i1 to 10,33.5")  # and the move is carried out
    assert two["figures"]["red:i1"]["y"] == 33.5
    with pytest.raises(ScenarioError, match="settings.scale: must be 1, 2 or 3"):
        load({"base": "skirmish", "settings": {"scale": 4}})
