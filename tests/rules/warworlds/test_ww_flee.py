"""WW-59, panic: «спасается бегством, двигаясь с максимальной скоростью как можно дальше от отрядов
противника» (issue 33). Version 2 flees to where it ends farthest from the nearest enemy its side
can see; version 1 (games set up by 0.2.0, whose scenario records no rules version) keeps deserting
by the cheapest edge in reach, however near the enemy."""

from rules.core.protocol import Viewer
from rules.hex import coords as C
from rules.warworlds import RULESET as RS
from rules.warworlds.options import state_from_view
from rules.warworlds.testing import battle, invariants, play_round


def inf(uid, side, at, n=10, **kw):
    return {"id": uid, "side": side, "profile": "infantry", "at": at, "models": {"rifle": n}, **kw}


def events_of(events, kind):
    return [e.payload for e in events if e.type == "warworlds." + kind]


def as_version_1(state):
    """A game set up by version 1 (0.2.0): its scenario records no rules version."""
    return {**state, "scenario": {k: v for k, v in state["scenario"].items() if k != "rules_version"}}


def dist(a, b):
    return C.distance(C.parse_label(a), C.parse_label(b))


def _beside_an_enemy_on_the_edge():
    """R1 (infantry, runs 2) in panic at 0204; its nearest edge hexes are 0104 and 0105, and B1
    holds 0104: the only edge it can step off from, 0105, lies next to B1."""
    return battle([inf("R1", "red", "0204", morale=1), inf("B1", "blue", "0104"), inf("R2", "red", "0808")])


def test_ww_59_a_panicked_unit_flees_away_from_the_enemy_beside_its_nearest_edge():
    st = _beside_an_enemy_on_the_edge()
    assert st["scenario"]["rules_version"] == RS.version >= 2 and RS.unrecorded_version(st) == RS.version
    after, ev = play_round(st, {"red": "", "blue": ""}, 1)
    r1 = after["units"]["R1"]
    assert r1["status"] == "active" and not events_of(ev, "deserted")
    # three hexes from B1, as far as two hexes of running take it (ties: the lowest hex number)
    assert events_of(ev, "moved")[0]["path"] == ["0204", "0205", "0206"]
    assert dist(r1["hex"], "0104") == 3 > dist("0105", "0104")


def test_ww_59_a_version_1_game_still_deserts_by_the_edge_next_to_the_enemy():
    now = _beside_an_enemy_on_the_edge()
    st = as_version_1(now)
    # told apart by the scenario's record alone, and kept by this very object (by_flags)
    assert (RS.unrecorded_version(now), RS.unrecorded_version(st)) == (RS.version, 1) and RS.pinned(1) is RS
    after, ev = play_round(st, {"red": "", "blue": ""}, 1)
    assert events_of(ev, "moved")[0]["path"] == ["0204", "0105"]
    assert events_of(ev, "deserted")[0]["at"] == "0105" and after["units"]["R1"]["status"] == "deserted"


def test_ww_59_leaving_the_map_is_measured_beyond_the_edge_and_wins_a_tie():
    # B1 at 0203, north of R1: version 1 deserted by 0104, next to B1. Version 2 leaves by 0105, from
    # which the hex beyond the edge is 3 from B1, as far as any hex it could stop on (0206): a tie,
    # and leaving the map wins it.
    st = battle([inf("R1", "red", "0204", morale=1), inf("B1", "blue", "0203"), inf("R2", "red", "0808")])
    assert dist("0206", "0203") == 3 and dist("0104", "0203") == 1
    _, ev = play_round(st, {"red": "", "blue": ""}, 1)
    assert events_of(ev, "moved")[0]["path"] == ["0204", "0105"]
    assert events_of(ev, "deserted")[0]["at"] == "0105"
    _, ev1 = play_round(as_version_1(st), {"red": "", "blue": ""}, 1)
    assert events_of(ev1, "deserted")[0]["at"] == "0104"


def _in_the_open(*hidden):
    """R1 (5 men, in panic) at 0404 with B1 beside it at 0504 on a 9x9 map; without hidden enemies
    it runs 0404 -> 0304 -> 0203 (three hexes from B1)."""
    units = [inf("R1", "red", "0404", 5, morale=1), inf("B1", "blue", "0504"), inf("R2", "red", "0808")]
    units += [inf(f"B{i}", "blue", hx, 5, hidden=True) for i, hx in enumerate(hidden, 2)]
    return battle(units, cols=9, rows=9)


def _what_red_gets(state, seed=1):
    after, ev = play_round(state, {"red": "", "blue": ""}, seed)
    red = Viewer("player", "red")
    mine = [RS.describe_event(e.type, e.payload) for e in ev if red.may_see(e.audience)]
    view = RS.view(after, red)
    # (the test gives blue a deployment zone only when it hides a unit: the public scenario differs)
    view["scenario"].pop("deployment", None)
    return after, mine, view


def test_ww_59_a_hidden_enemy_does_not_steer_the_flight():
    # version 1 fled from hidden enemies too, so where it went told its side where they were
    plain, hidden = _what_red_gets(_in_the_open()), _what_red_gets(_in_the_open("0308"))
    assert plain[0]["units"]["R1"]["hex"] == "0203"
    assert hidden[1:] == plain[1:]  # red's events, their lines and its view: byte for byte


def test_ww_59_a_flight_runs_into_a_hidden_enemy_and_spots_one_beside_where_it_stops():
    # version 1 walked on into B2's hex, both sides in one hex
    after, ev = play_round(_in_the_open("0203"), {"red": "", "blue": ""}, 1)
    moved = events_of(ev, "moved")[0]
    assert moved["path"] == ["0404", "0304"] and "ran into B2 hidden at 0203" in moved["short"]
    assert events_of(ev, "revealed")[0]["unit"] == "B2" and not after["units"]["B2"]["hidden"]
    assert invariants(after) == []
    # one hex off its way, beside where it stops: found, as after any move
    after, ev = play_round(_in_the_open("0202"), {"red": "", "blue": ""}, 1)
    assert after["units"]["R1"]["hex"] == "0203"
    found = events_of(ev, "revealed")[0]
    assert (found["unit"], found["why"], found["at"]) == ("B2", "R1 came next to it", "0202")


def test_ww_59_with_no_enemy_in_sight_a_panicked_unit_stays():
    st = battle([inf("R1", "red", "0404", morale=1), inf("B1", "blue", "0606", hidden=True), inf("R2", "red", "0808")])
    after, ev = play_round(st, {"red": "", "blue": ""}, 1)
    r1 = after["units"]["R1"]
    assert (r1["hex"], r1["status"], r1["morale"]) == ("0404", "active", 1)
    assert not [e for e in ev if e.payload.get("unit") == "R1"]


def test_moving_a_version_1_game_on_records_version_2_and_its_views_say_so():
    st = as_version_1(_beside_an_enemy_on_the_edge())
    assert "rules_version" not in RS.view(st, Viewer("player", "red"))["scenario"]
    moved = RS.pinned(2).carry_over(st, 1)
    assert moved["scenario"]["rules_version"] == 2 and RS.unrecorded_version(moved) == 2
    _, ev = play_round(moved, {"red": "", "blue": ""}, 1)
    assert events_of(ev, "moved")[0]["path"] == ["0204", "0205", "0206"] and not events_of(ev, "deserted")
    # a position rebuilt from a player's view plays by the same rules
    view = RS.view(moved, Viewer("player", "red"))
    assert view["scenario"]["rules_version"] == 2
    assert state_from_view(view)["scenario"]["rules_version"] == 2
