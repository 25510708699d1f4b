"""Blast under the appendix (KS-3..7, KS-13, KS-89) and rifle fire (KS-8)."""

import pytest

from rules.kriegspiel.blast import GUN_RADIUS, firing_point, resolve, rifles_in_line, shielded_by_works


class Open:
    def shielded(self, a, b):
        return False


def figs(points, arm="inf", side="blue"):
    return {
        f"{side}:i{k}": {"side": side, "arm": arm, "x": x, "y": y, "st": "ok", "dis": False, "pow": None}
        for k, (x, y) in enumerate(points, start=1)
    }


@pytest.mark.parametrize("n,killed", [(1, 1), (4, 2), (5, 3), (6, 3), (9, 5)])
def test_half_rounded_up_within_three_inches(n, killed):
    # KS-DT-3
    # n men within 3 in; one whose footprint edge is 3.05 in away and one far off do not count
    f = figs([(1 + k * 0.1, 0) for k in range(n)] + [(3.3, 0), (10, 0)])
    res = resolve((0, 0), f, {}, {}, {}, Open(), set())
    assert len(res["killed"]) == killed


def test_nearest_die_first_and_the_dead_are_not_counted_twice():
    f = figs([(0.5, 0), (1, 0), (2, 0), (2.5, 0)])
    res = resolve((0, 0), f, {}, {}, {}, Open(), set())
    assert res["killed"] == ["blue:i1", "blue:i2"]
    res = resolve((0, 0), f, {}, {}, {}, Open(), {"blue:i1", "blue:i2"})
    assert res["killed"] == ["blue:i3"]


def test_guns_wholly_inside_destroyed_partly_inside_out_of_action():
    guns = {"red:g1": {"x": 3 - GUN_RADIUS, "y": 0}, "red:g2": {"x": 0, "y": 3.5}, "red:g3": {"x": 0, "y": -4.1}}
    res = resolve((0, 0), {}, guns, {}, {}, Open(), set())
    assert res["guns_destroyed"] == ["red:g1"] and res["guns_out"] == ["red:g2"]


def test_wagons_destroyed_wholly_or_partly_inside_and_generals_sent_away():
    wagons = {"red:wagons": {"x": 3.9, "y": 0}, "red:far": {"x": 4.1, "y": 0}}
    f = figs([(2.9, 0), (0.2, 0), (0.3, 0)], arm="cav", side="red")
    res = resolve((0, 0), f, {}, wagons, {}, Open(), set(), {"red": {"figure": "red:i1"}})
    assert res["wagons"] == ["red:wagons"]
    assert res["generals_out"] == ["red"]  # near the shell, not among the killed (the two nearest)


def test_entrenchments_and_gun_pits_shield_once_finished():
    ent = {"kind": "entrenchment", "status": "complete", "at": [-2, 1], "to": [2, 1]}
    pit = {"kind": "gunpit", "status": "complete", "at": [0, -2], "to": None}
    works = {"w1": ent, "w2": pit}
    assert shielded_by_works(works, (0, 0), (0, 2))  # behind the entrenchment
    assert not shielded_by_works(works, (0, 0), (2.5, 0))  # beside it
    assert shielded_by_works(works, (0, 3), (0, -2))  # in the pit, the shell outside
    assert not shielded_by_works(works, (0, -1), (0, -2))  # the shell in the pit
    building = {"w1": {**ent, "status": "building"}}
    assert not shielded_by_works(building, (0, 0), (0, 2))  # unfinished works shield nothing
    f = figs([(0, 2), (0, 2.5), (2.5, 0)])
    res = resolve((0, 0), f, {}, {}, {"w1": ent}, Open(), set())
    assert res["killed"] == ["blue:i3"]


def test_rifle_fire_one_shot_per_five_in_line():
    line = [(k * 1.0, 0.2 * (k % 2)) for k in range(12)]
    assert rifles_in_line(line) == (2, None)
    assert rifles_in_line(line[:10])[0] == 2 and rifles_in_line(line[:9])[0] == 1
    shots, why = rifles_in_line(line[:4])
    assert shots == 0 and "needs 5" in why
    shots, why = rifles_in_line([(0, 0), (1, 0), (2, 0), (3, 0), (4, 3)])
    assert shots == 0 and "off the line" in why
    shots, why = rifles_in_line([(0, 0), (1, 0), (2, 0), (3, 0), (8, 0)])
    assert shots == 0 and "gap" in why
    # the "gun" stands one inch behind the middle man, the shot over his head
    assert firing_point([(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)], (2, 10)) == (2.0, -1.0)


def test_volleys_through_orders_kill_and_draw_ammunition(game):
    game.turn()
    game.place({f"blue:i{k}": (14 + k * 0.75, 30) for k in range(1, 11)})
    evs = game.turn(seed=3, red="volley foot1 at 19,30")
    fired = [e for e in evs if e.type == "littlewars.fired"]
    assert fired and fired[0].audience == "umpire" and len(fired[0].payload["shots"]) == 2
    assert sum(len(s["killed"]) for s in fired[0].payload["shots"]) >= 1
    ledger = [e for e in evs if e.type == "kriegspiel.supplied" and e.payload["side"] == "red"][0].payload
    assert {d["kind"] for d in ledger["draws"] if d["group"] == "foot1"} == set()  # 10 men: KS-48 rounds to 0
