"""Prisoners and escorts (LW-41..45), surrender, delivery, re-arming."""

from rules.littlewars import RULESET as RS
from rules.littlewars.testing import build, payloads, play


def CROWD(y):
    """16 figures far off, so the small-battle draw (LW-49) does not end these positions."""
    return [(30 + 0.75 * k, y) for k in range(16)]


def with_prisoners(n_pows, guards, guard_y=20.0):
    """Blue prisoners of red (group pow1) at y=20 with red guards standing nearby."""
    red = [
        ("guards", "inf", [(10 + 0.75 * k, guard_y) for k in range(guards)] or [(55, 40)]),
        ("main", "inf", CROWD(50)),
    ]
    blue = [("caught", "inf", [(10 + 0.75 * k, 22) for k in range(n_pows)]), ("main", "inf", CROWD(60))]
    s = build(red=red, blue=blue, table=(60, 72))
    figs = dict(s["figures"])
    ids = list(s["groups"]["blue"]["caught"])
    for fid in ids:
        figs[fid] = {**figs[fid], "st": "pow", "pow": ["red", "pow1", False]}
    groups = {**s["groups"], "blue": {k: v for k, v in s["groups"]["blue"].items() if k != "caught"}}
    return {**s, "figures": figs, "groups": groups, "pows": {"red": {"pow1": ids}, "blue": {}}, "counter": 1}, ids


def test_one_guard_holds_seven():
    s, ids = with_prisoners(7, 1)
    _, events = play(s)
    assert payloads(events, "prisoners_released") == []


def test_eight_need_two_guards_and_the_eighth_goes_free_disarmed():
    s, ids = with_prisoners(8, 1)
    s2, events = play(s)
    (rel,) = payloads(events, "prisoners_released")
    assert len(rel["figures"]) == 1 and rel["side"] == "blue"
    (fid,) = rel["figures"]
    assert fid == ids[-1]  # the farthest from the guard
    f = s2["figures"][fid]
    assert f["st"] == "ok" and f["dis"] and fid in s2["groups"]["blue"][rel["group"]]
    s, _ = with_prisoners(8, 2)
    assert payloads(play(s)[1], "prisoners_released") == []
    s, _ = with_prisoners(14, 2)
    assert payloads(play(s)[1], "prisoners_released") == []
    s, _ = with_prisoners(15, 2)
    assert len(payloads(play(s)[1], "prisoners_released")[0]["figures"]) == 1


def test_escort_killed_frees_all_and_they_rearm_at_their_edge():
    s, ids = with_prisoners(5, 0)
    s2, events = play(s)
    (rel,) = payloads(events, "prisoners_released")
    assert sorted(rel["figures"]) == sorted(ids) and rel["guards"] == 0
    # disarmed figures do not fight: they cannot crew guns or join melees; they walk home (north edge) to re-arm
    group = rel["group"]
    for y in (33.9, 45.8, 57.7, 69.6):
        s2, events = play(s2, blue=f"move {group} to 11.5,{y}")
        assert payloads(events, "rearmed") == []
    s6, events = play(s2, blue=f"move {group} to 11.5,71")
    (re,) = payloads(events, "rearmed")
    assert sorted(re["figures"]) == sorted(ids)
    assert not any(s6["figures"][i]["dis"] for i in ids)


def test_prisoners_are_escorted_to_the_captors_edge_and_removed():
    s, ids = with_prisoners(3, 1, guard_y=6.5)
    figs = dict(s["figures"])
    for _k, fid in enumerate(ids):
        figs[fid] = {**figs[fid], "y": 8.0}
    s = {**s, "figures": figs}
    s2, events = play(s, red="escort pow1 to 10.75,1")
    (dl,) = payloads(events, "prisoners_delivered")
    assert sorted(dl["figures"]) == sorted(ids)
    assert all(s2["figures"][i]["pow"][2] for i in ids)
    # escorting beyond the infantry pace is refused
    parsed = RS.parse_orders(s, "red", "escort pow1 to 10.75,40")
    assert "prisoners walk at most 12 in" in RS.validate(s, "red", parsed.orders)[0].message


def test_only_an_isolated_group_may_surrender():
    lonely = build(
        red=[("lost", "inf", [(10, 10), (10.75, 10)]), ("far", "inf", [(40, 34)])], blue=[("b", "inf", [(10, 14)] * 1)]
    )
    s2, events = play(lonely, red="surrender lost")
    (sur,) = payloads(events, "surrendered")
    assert sur["captor"] == "blue" and all(s2["figures"][i]["st"] == "pow" for i in sur["figures"])
    supported = build(
        red=[("lost", "inf", [(10, 10), (10.75, 10)]), ("near", "inf", [(12, 12)])], blue=[("b", "inf", [(10, 30)])]
    )
    parsed = RS.parse_orders(supported, "red", "surrender lost")
    (err,) = RS.validate(supported, "red", parsed.orders)
    assert "not isolated: 1 friends within a move" in err.message and "LW-45" in err.message


def test_cavalry_prisoners_are_escorted_with_their_own_footprint():
    """Issue 15 bug 3: escorts were checked with the infantry footprint, so a cavalry prisoner could be
    walked to 0.3 in from the edge (off the table by 0.2 in) and stand there when freed."""
    red = [("guards", "inf", [(10, 6.5)]), ("main", "inf", CROWD(50))]
    blue = [("caught", "cav", [(10.75, 8), (12, 8)]), ("main", "inf", CROWD(60))]
    s = build(red=red, blue=blue, table=(60, 72))
    ids = list(s["groups"]["blue"]["caught"])
    figs = {**s["figures"], **{i: {**s["figures"][i], "st": "pow", "pow": ["red", "pow1", False]} for i in ids}}
    groups = {**s["groups"], "blue": {k: v for k, v in s["groups"]["blue"].items() if k != "caught"}}
    s = {**s, "figures": figs, "groups": groups, "pows": {"red": {"pow1": ids}, "blue": {}}, "counter": 1}
    parsed = RS.parse_orders(s, "red", "escort pow1 to 11.375,0.3")
    (err,) = RS.validate(s, "red", parsed.orders)
    assert "cannot be escorted there" in err.message and "off the 60x72 in table" in err.message
    parsed = RS.parse_orders(s, "red", "escort pow1 to 11.375,1.2")
    assert RS.validate(s, "red", parsed.orders) == ()
