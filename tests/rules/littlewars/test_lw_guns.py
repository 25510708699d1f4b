"""Guns: crews (LW-19), fire or move (LW-20), first fire (LW-14/55), moving (LW-24..26), facing, capture (LW-46)."""

import math
import random

from rules.littlewars import RULESET as RS
from rules.littlewars.fire import resolve_fire
from rules.littlewars.testing import build, payloads, play
from rules.littlewars.units import KNOCK_REACH, STRIKE_REACH


def msgs(state, side, text):
    parsed = RS.parse_orders(state, side, text)
    assert parsed.ok, parsed.errors
    return [e.message for e in RS.validate(state, side, parsed.orders)]


def crewed(offsets, turn=2, arm="inf", kind="bitter_end", settings=None):
    """A red gun at (24, 10) with figures at the given offsets; a blue figure far away."""
    crew = [(24 + dx, 10 + dy) for dx, dy in offsets]
    return build(
        red=[("crew", arm, crew)],
        blue=[("far", "inf", [(24, 60)])],
        table=(48, 72),
        guns=[("red", "gun1", 24, 10, 90)],
        turn=turn,
        kind=kind,
        settings=settings,
    )


FOUR_AT_SIX = [(6.25, 0), (-6.25, 0), (0, 6.25), (0, -6.25)]  # footprints exactly 6 in from the gun


def test_exactly_four_within_exactly_six_inches_crew_a_gun():
    assert msgs(crewed(FOUR_AT_SIX), "red", "fire gun1 at 24,40") == []


def test_three_within_six_inches_do_not():
    s = crewed(FOUR_AT_SIX[:3] + [(0, -6.27)])
    (m,) = msgs(s, "red", "fire gun1 at 24,40")
    assert "not crewed: 3 of your figures within 6 in, 4 needed" in m and "LW-19" in m
    (m,) = msgs(s, "red", "move gun1 to 24,14")
    assert "not crewed" in m


def test_no_fire_in_turn_one_except_the_defender():
    (m,) = msgs(crewed(FOUR_AT_SIX, turn=1), "red", "fire gun1 at 24,40")
    # the first turn of play is game turn 2 (turn 1 was the deployment): guns fire from turn 3
    assert "no gun fires before turn 3 (LW-14: none in the first turn of play)" in m
    s = crewed(FOUR_AT_SIX, turn=1, kind="defence", settings={"defender": "red"})
    assert msgs(s, "red", "fire gun1 at 24,40") == []  # LW-55


def test_range_is_limited():
    (m,) = msgs(crewed(FOUR_AT_SIX), "red", "fire gun1 at 24,0.5 30,0.5\nhold")[:1] or [None]
    assert m is None
    s = build(
        red=[("crew", "inf", [(24 + dx, 10 + dy) for dx, dy in FOUR_AT_SIX])],
        blue=[("far", "inf", [(10, 190)])],
        table=(48, 200),
        guns=[("red", "gun1", 24, 10, 90)],
    )
    (m,) = msgs(s, "red", "fire gun1 at 24,160")
    assert "out of range" in m and "144" in m


def test_gun_faces_its_last_shot():
    s = crewed(FOUR_AT_SIX)
    s, events = play(s, red="fire gun1 at 24,40 44,10")
    assert s["guns"]["red:gun1"]["heading"] == 0.0
    (fired,) = payloads(events, "fired")
    assert len(fired["shots"]) == 2


def test_gun_moves_with_its_team_and_faces_back():
    cav = [(2, 2), (-2, 2), (2, -2), (-2, -2)]
    s = crewed(cav, arm="cav")
    text = "move gun1 to 24,30\nmove crew to 24,30"
    assert msgs(s, "red", text) == []
    s2, events = play(s, red=text)
    g = s2["guns"]["red:gun1"]
    assert (g["x"], g["y"], g["heading"]) == (24.0, 30.0, 270.0)  # LW-25: muzzle back the way it came
    # infantry can only take it 1 ft (LW-26)
    s = crewed(cav)
    (m,) = msgs(s, "red", "move gun1 to 24,22.5\nmove crew to 24,21.9")
    assert "with 0 cavalry in its team it moves at most 12 in (LW-26)" in m
    assert msgs(s, "red", "move gun1 to 24,21.9\nmove crew to 24,21.9") == []
    # 4 must go with it (LW-24)
    (m,) = msgs(s, "red", "move gun1 to 24,21.9")
    assert "only 0 of gun1's crew would end within 6 in" in m


def test_fire_kills_the_figure_struck_and_at_most_one_more():
    # a packed block of 25 infantry; shots at its middle
    block = [(20 + 0.5 * i, 30 + 0.5 * j) for i in range(5) for j in range(5)]
    s = build(
        red=[("crew", "inf", [(24 + dx, 10 + dy) for dx, dy in FOUR_AT_SIX])],
        blue=[("block", "inf", block)],
        guns=[("red", "gun1", 24, 10, 90)],
        table=(48, 48),
    )
    for seed in range(40):
        fired = resolve_fire(s, {"red:gun1": [[21, 31], [21, 31], [21, 31], [21, 31]]}, random.Random(seed))
        dead = set()
        for shot in fired["shots"]:
            assert len(shot["killed"]) <= 2
            assert not dead & set(shot["killed"])
            dead |= set(shot["killed"])
            for k, fid in enumerate(shot["killed"]):
                f = s["figures"][fid]
                d = math.dist(shot["impact"], (f["x"], f["y"])) - 0.25
                assert d <= (STRIKE_REACH if k == 0 else KNOCK_REACH - 0.25) + 1e-6


def test_blast_rule_kills_half_rounded_up_and_walls_shield():
    front = [(20 + 0.75 * k, 30) for k in range(7)]
    behind = [(20 + 0.75 * k, 32.5) for k in range(7)]
    wall = {"id": "wall", "type": "wall", "line": [[10, 31.2], [40, 31.2]], "width": 0.5}
    s = build(
        red=[("crew", "inf", [(24 + dx, 10 + dy) for dx, dy in FOUR_AT_SIX])],
        blue=[("front", "inf", front), ("behind", "inf", behind)],
        terrain=[wall],
        guns=[("red", "gun1", 24, 10, 90)],
        table=(48, 48),
        settings={"blast": True},
    )
    from rules.littlewars.table import table_of

    table = table_of(s["scenario"])
    shielded_seen = 0
    for seed in range(30):
        fired = resolve_fire(s, {"red:gun1": [[22, 29.5]]}, random.Random(seed))
        (shot,) = fired["shots"]
        hit = shot["impact"]
        exposed = [
            fid
            for fid, f in s["figures"].items()
            if f["side"] == "blue"
            and math.dist(hit, (f["x"], f["y"])) - 0.25 <= 3.0
            and not table.shielded(hit, (f["x"], f["y"]))
        ]
        shielded_seen += sum(
            1
            for fid, f in s["figures"].items()
            if f["side"] == "blue"
            and math.dist(hit, (f["x"], f["y"])) - 0.25 <= 3.0
            and table.shielded(hit, (f["x"], f["y"]))
        )
        assert len(shot["killed"]) == math.ceil(len(exposed) / 2)
        assert set(shot["killed"]) <= set(exposed)
    assert shielded_seen > 0  # the wall did stand between some impacts and figures


def test_capture_needs_four_past_the_axle_and_no_defender():
    # red gun at (24, 20) facing south (270); blue comes from the south and passes the axle line
    def pos(n_blue, red_near):
        red = [("guard", "inf", [(24, 26.1 if red_near else 40)])]
        blue = [("storm", "inf", [(21 + 0.75 * k, 14) for k in range(n_blue)])]
        return build(red=red, blue=blue, guns=[("red", "gun1", 24, 20, 270)], table=(48, 48))

    s, events = play(pos(4, False), blue="move storm to 22.1,22")
    (cap,) = payloads(events, "gun_captured")
    assert cap["by"] == "blue" and s["guns"]["red:gun1"]["owner"] == "blue"
    assert "red-gun1" in [
        g["name"]
        for g in RS.view(s, __import__("rules.core.protocol", fromlist=["Viewer"]).Viewer("player", "blue"))["guns"]
    ]
    _, events = play(pos(3, False), blue="move storm to 21.75,22")
    assert payloads(events, "gun_captured") == []
    _, events = play(pos(4, True), blue="move storm to 22.1,22")
    assert payloads(events, "gun_captured") == []


def test_a_gun_whose_team_is_stopped_short_stays_put():
    crew = [(22, 12), (26, 12), (22, 8), (26, 8)]
    wall = [(20.5 + 0.75 * k, 17) for k in range(10)]
    s = build(
        red=[("crew", "cav", crew)], blue=[("wall", "inf", wall)], guns=[("red", "gun1", 24, 10, 90)], table=(48, 72)
    )
    text = "move gun1 to 24,30\nmove crew to 24,30"
    assert msgs(s, "red", text) == []  # by the orders alone the team would arrive with it
    s2, events = play(s, red=text)
    (moved,) = payloads(events, "moved")
    assert moved["stuck"] == [{"gun": "red:gun1", "team": 0, "cavalry": 0}]
    assert (s2["guns"]["red:gun1"]["x"], s2["guns"]["red:gun1"]["y"]) == (24.0, 10.0)


def test_a_gun_cannot_be_ordered_off_the_table_or_against_a_hill():
    """Issue 15 bug 2: gun at 21,2 with its crew at y 3.5; 'move gun1 to 21,-1.5' used to be accepted.
    A gun's destination follows the figures' place rules (LW-27), the side of a hill included."""
    hill = {"id": "knoll", "type": "hill", "level": 1, "polygon": [[10, 8], [18, 8], [18, 14], [10, 14]]}
    state = build(
        red=[("crew", "inf", [(19.5 + k, 3.5) for k in range(4)])],
        blue=[("far", "inf", [(24, 30)])],
        guns=[("red", "gun1", 21, 2, 90)],
        terrain=[hill],
    )
    assert msgs(state, "red", "move gun1 to 21,-1.5") == ["gun1 cannot go there: (21, -1.5) is off the 48x36 in table"]
    assert "against the side of hill 'knoll'" in msgs(state, "red", "move gun1 to 18,10")[0]


def test_invariants_look_at_guns():
    state = crewed(FOUR_AT_SIX)
    off = {**state, "guns": {**state["guns"], "red:gun1": {**state["guns"]["red:gun1"], "y": -1.5}}}
    assert RS.check_invariants(state) == []
    assert RS.check_invariants(off) == ["red:gun1: (24, -1.5) is off the 48x72 in table"]
