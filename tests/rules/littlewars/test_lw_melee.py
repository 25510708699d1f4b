"""Melee: the seed-000 arithmetic (LW-35..38), Wells' alternative counting, and melees on the table."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.littlewars.melee import outcome
from rules.littlewars.testing import build, payloads, play


def wells_counting(a, b, smaller_isolated):
    """LW-37's 'equivalent method', written independently: remove one from each side until the
    larger is twice the smaller, then the smaller is captured. Supported: the smaller dies and kills as many."""
    if a == b:
        return {"a_killed": a, "b_killed": b, "a_captured": 0, "b_captured": 0}
    if not smaller_isolated:
        small = min(a, b)
        return {"a_killed": small, "b_killed": small, "a_captured": 0, "b_captured": 0}
    x, y, killed = a, b, 0
    while max(x, y) < 2 * min(x, y):
        x, y, killed = x - 1, y - 1, killed + 1
    return {"a_killed": killed, "b_killed": killed, "a_captured": x if a < b else 0, "b_captured": y if b < a else 0}


@pytest.mark.parametrize("isolated", [True, False])
def test_arithmetic_matches_wells_counting_over_many_cases(isolated):
    for a in range(1, 61):
        for b in range(1, 61):
            assert outcome(a, b, isolated) == wells_counting(a, b, isolated), (a, b)


def test_seed_examples():
    # LW-EX-3: 11 attack 9 (isolated): 4 left with 2 prisoners
    r = outcome(11, 9, True)
    assert 11 - r["a_killed"] == 4 and r["b_captured"] == 2 and r["b_killed"] == 7
    # LW-DT-1: isolated 5 attacked by 20: all 5 captured, attacker loses nothing
    assert outcome(20, 5, True) == {"a_killed": 0, "a_captured": 0, "b_killed": 0, "b_captured": 5}
    # LW-DT-2: supported 6 attacked by 10: all 6 killed, attacker loses 6
    assert outcome(10, 6, False) == {"a_killed": 6, "a_captured": 0, "b_killed": 6, "b_captured": 0}
    # LW-DT-3: 8 against 8: all 16 killed, isolated or not
    for iso in (True, False):
        assert outcome(8, 8, iso) == {"a_killed": 8, "a_captured": 0, "b_killed": 8, "b_captured": 0}
    # exactly twice the smaller: all captured, no loss
    assert outcome(3, 6, True) == {"a_killed": 0, "a_captured": 3, "b_killed": 0, "b_captured": 0}


def _clash(blue_friends):
    """6 red march into 4 blue; ``blue_friends`` blue figures stand 8 in behind (within a move, beyond 6 in)."""
    red = [("attack", "inf", [(19 + 0.75 * k, 8) for k in range(6)])]
    blue = [("line", "inf", [(20 + 0.75 * k, 20) for k in range(4)])]
    if blue_friends:
        blue.append(("back", "inf", [(21 + 0.75 * k, 28) for k in range(blue_friends)]))
    return build(red=red, blue=blue)


def test_isolated_smaller_group_is_partly_captured():
    state = _clash(blue_friends=1)  # 1 friend < half of 4: isolated (LW-32)
    state, events = play(state, red="move attack to 20.9,19.6")
    (m,) = payloads(events, "melee")
    assert m["counts"] == {"red": 6, "blue": 4} and m["isolated"] is True and m["initiator"] == "red"
    # 6 vs 4 isolated: 2 captured, 2 killed, red loses 2 killed
    assert len(m["captured"]) == 2 and len(m["killed"]) == 4
    assert sum(1 for i in m["killed"] if i.startswith("red")) == 2
    assert m["captor"] == "red" and state["pows"]["red"][m["pow"]] == m["captured"]
    assert all(state["figures"][i]["st"] == "pow" for i in m["captured"])


def test_exactly_half_in_support_makes_a_group_supported():
    state = _clash(blue_friends=2)  # 2 friends = half of 4: supported
    state, events = play(state, red="move attack to 20.9,19.6")
    (m,) = payloads(events, "melee")
    assert m["isolated"] is False and m["captured"] == []
    assert sorted(i.split(":")[0] for i in m["killed"]) == ["blue"] * 4 + ["red"] * 4


def test_equal_numbers_all_die():
    state = build(red=[("a", "inf", [(10, 10), (10.75, 10)])], blue=[("b", "inf", [(10, 16), (10.75, 16)])])
    state, events = play(state, red="move a to 10.375,15.5")
    (m,) = payloads(events, "melee")
    assert m["smaller"] is None and len(m["killed"]) == 4
    assert all(state["figures"][i]["st"] == "dead" for i in m["killed"])


def test_joining_is_measured_to_exactly_six_inches():
    # red i1 marches onto blue i1 at (20, 20); blue j stands with its footprint exactly 6 in from blue i1's
    base = {"red": [("a", "inf", [(20, 10), (21, 10), (22, 10)])]}
    inside = build(**base, blue=[("b", "inf", [(20, 20)]), ("j", "inf", [(20, 26.5)])])
    outside = build(**base, blue=[("b", "inf", [(20, 20)]), ("j", "inf", [(20, 26.51)])])
    _, ev_in = play(inside, red="move a to 21,19.5")
    _, ev_out = play(outside, red="move a to 21,19.5")
    assert payloads(ev_in, "melee")[0]["counts"]["blue"] == 2
    assert payloads(ev_out, "melee")[0]["counts"]["blue"] == 1


def test_initiator_chooses_who_dies_first():
    red = [("a", "inf", [(19 + 0.75 * k, 8) for k in range(6)])]
    blue = [("line", "cav", [(20, 20), (21.5, 20)]), ("foot", "inf", [(23, 20), (23.75, 20)])]
    state = build(red=red, blue=blue)
    _, events = play(state, red="melee kill cavalry\nmove a to 21,19.2")
    (m,) = payloads(events, "melee")
    assert m["isolated"] is True  # 4 blue, no friends
    # 6 vs 4 isolated: blue loses 2 killed and 2 captured; red chose to kill the cavalry
    blue_killed = [i for i in m["killed"] if i.startswith("blue")]
    assert sorted(blue_killed) == ["blue:c1", "blue:c2"]
    assert sorted(m["captured"]) == ["blue:i1", "blue:i2"]


def test_prisoners_take_no_part_in_a_later_melee_of_the_same_turn():
    red = [("a", "inf", [(10 + 0.75 * k, 8) for k in range(6)]), ("b", "inf", [(40, 8)])]
    blue = [("x", "inf", [(11, 18), (11.75, 18)]), ("y", "inf", [(40, 14)])]
    state = build(red=red, blue=blue, table=(60, 36))
    state, events = play(state, red="move a to 11.9,17.5\nmove b to 40,13.5")
    melees = payloads(events, "melee")
    assert len(melees) == 2
    first_taken = set(melees[0]["captured"]) | set(melees[0]["killed"])
    assert not first_taken & (set(melees[1]["killed"]) | set(melees[1]["captured"]))


def _line(n, x0, y, gap):
    return [(x0 + gap * k, y) for k in range(n)]


def test_a_battle_line_is_one_melee_and_nobody_fights_twice():
    """Issue 15 bug 1: 20 red in a line march onto 14 blue in a line, nobody else on the table. It used to
    make two melees (12 v 9, then 11 v 5) filling 23 red places with 20 figures."""
    state = build(
        red=[("line", "inf", _line(20, 16.875, 8, 0.75))], blue=[("line", "inf", _line(14, 19.125, 20, 0.75))]
    )
    state, events = play(state, red="move line to 24,19.6")
    (m,) = payloads(events, "melee")
    assert m["counts"] == {"red": 20, "blue": 14} and m["isolated"] is True
    red_lost = [i for i in m["killed"] if i.startswith("red")]
    blue_lost = [i for i in m["killed"] if i.startswith("blue")]
    assert len(red_lost) == 8 and len(blue_lost) == 8 and len(m["captured"]) == 6
    assert len(set(m["fighters"]["red"])) == 20 and len(set(m["fighters"]["blue"])) == 14


@st.composite
def fronts(draw):
    """A red line marching straight onto a blue line, both of random length, spacing and offset,
    with a few blue friends somewhere behind (some within a move, some not)."""
    nr, nb = draw(st.integers(1, 24)), draw(st.integers(1, 24))
    gr, gb = draw(st.floats(0.6, 4.0)), draw(st.floats(0.6, 4.0))
    xr, xb = draw(st.floats(2, 20)), draw(st.floats(2, 20))
    back = draw(st.lists(st.tuples(st.floats(2, 58), st.floats(21, 34)), max_size=6, unique=True))
    back = [(x, y) for x, y in back if all(math.dist((x, y), p) > 0.7 for p in _line(nb, xb, 20, gb))]
    back = [p for k, p in enumerate(back) if all(math.dist(p, q) > 0.7 for q in back[:k])]
    return nr, gr, xr, nb, gb, xb, back


@settings(max_examples=60, deadline=None)
@given(fronts())
def test_random_fronts_make_disjoint_melees_with_wells_arithmetic(front):
    nr, gr, xr, nb, gb, xb, back = front
    blue = [("line", "inf", _line(nb, xb, 20, gb))] + ([("back", "inf", back)] if back else [])
    state = build(red=[("line", "inf", _line(nr, xr, 8, gr))], blue=blue, table=(160, 36))
    state, events = play(state, red=f"move line to {xr + gr * (nr - 1) / 2:.3f},19.6")
    seen: set[str] = set()
    for m in payloads(events, "melee"):
        fighters = m["fighters"]["red"] + m["fighters"]["blue"]
        assert not seen & set(fighters), "a figure fought in two melees"
        seen |= set(fighters)
        assert {s: len(v) for s, v in m["fighters"].items()} == m["counts"]
        want = wells_counting(m["counts"]["red"], m["counts"]["blue"], bool(m["isolated"]))
        lost = {s: sum(1 for i in m["killed"] if i.startswith(s)) for s in ("red", "blue")}
        taken = {s: sum(1 for i in m["captured"] if i.startswith(s)) for s in ("red", "blue")}
        assert (lost["red"], lost["blue"], taken["red"], taken["blue"]) == (
            want["a_killed"],
            want["b_killed"],
            want["a_captured"],
            want["b_captured"],
        )
