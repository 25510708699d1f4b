"""Every operation, legal and illegal, on small toy maps (digest CW-DT-1..7 and more)."""

import pytest

from rules.civilwar import RULESET as RS
from rules.civilwar.testing import errors, play, row_map, star_map, state, types


def one_error(st, side, text, kind=None):
    errs = errors(st, side, text, kind)
    assert len(errs) == 1, errs
    return errs[0]


# --------------------------------------------------------------------------- formation (CW-12)


def test_form_in_own_empty_city():
    st = state(tokens={"C5": "red", "C6": "blue"})
    st2, ev = play(st, "red", "form C5")
    assert st2["units"] == {"C5": "red"}
    assert types(ev) == ["unit_formed", "turn_completed"]
    assert st2["to_move"] == "blue"
    assert st2["just_occupied"]["red"] == ["C5"]


def test_form_errors():
    st = state(tokens={"C5": "red", "C6": "blue", "C2": "red"}, units={"C2": "blue"})
    assert one_error(st, "red", "form C6") == "C6 is not sympathetic to red (it is blue)"
    assert (
        one_error(st, "red", "form C3") == "C3 is not sympathetic to red (it is neutral: its population was terrorised)"
    )
    assert one_error(st, "red", "form C2") == "C2 is occupied by a blue unit"
    assert one_error(st, "red", "form R12") == "R12 is a road; units are formed only in cities"


def test_form_respects_counter_cap():
    st = state(star_map(max_units=2), tokens={"C5": "red", "C6": "red"}, units={"R12": "red", "R23": "red"})
    assert one_error(st, "red", "form C5") == "red already has 2 units on the map, the most its counters allow"
    assert not any(op.startswith("form") for op in RS.legal_operations(st, "red"))
    st = state(star_map(max_units=2), tokens={"C5": "red"}, units={"R12": "red"})
    assert "form C5" in RS.legal_operations(st, "red")


def test_dt4_formation_after_terror():
    st = state(tokens={"C5": "red", "C6": "blue"}, units={"C6": "red", "R14": "blue"})
    assert "form C5" in RS.legal_operations(st, "red")
    st = state(tokens={"C5": "red"}, to_move="blue", units={"R14": "blue"})
    assert one_error(st, "blue", "form C5").startswith("C5 is not sympathetic to blue")
    st = state(tokens={"C5": "blue"}, units={"C5": "red", "R14": "blue"})
    st, _ = play(st, "red", "terror C5")
    st, _ = play(st, "blue", "move R14 to C4")
    assert st["tokens"] == {}
    assert one_error(st, "red", "form C5").startswith("C5 is not sympathetic to red")
    st = dict(st, units={}, to_move="blue")
    assert one_error(st, "blue", "form C5").startswith("C5 is not sympathetic to blue")


# --------------------------------------------------------------------------- relocation (CW-13)


def test_relocation():
    st = state(tokens={"C4": "blue"}, units={"R12": "red", "C4": "blue"})
    st2, ev = play(st, "red", "MOVE r12 TO c2")
    assert st2["units"] == {"C2": "red", "C4": "blue"}
    assert ev[0].payload == {"side": "red", "from": "R12", "to": "C2"}
    st2, _ = play(st, "red", "relocate R12 to C1")
    assert st2["units"]["C1"] == "red"


def test_relocation_errors():
    st = state(tokens={"C4": "blue"}, units={"R12": "red", "C2": "blue", "R14": "red"})
    assert one_error(st, "red", "move R23 to C3") == "you have no unit on R23"
    assert one_error(st, "red", "move C2 to R23") == "you have no unit on C2"
    assert one_error(st, "red", "move R12 to C3") == "C3 is not adjacent to R12"
    assert one_error(st, "red", "move R12 to C2") == "C2 is occupied by a blue unit"


def test_relocation_to_free_city_is_legal():
    st = state(units={"R14": "red", "C2": "blue"})
    assert errors(st, "red", "move R14 to C1") == []
    assert errors(st, "red", "move R14 to C4") == []


# --------------------------------------------------------------------------- assault (CW-14..18)


def test_dt1_road_assault():
    st = state(units={"R12": "blue", "C1": "red", "C2": "red", "C5": "blue"}, tokens={"C3": "blue"})
    assert errors(st, "red", "assault R12 from C1") == []
    st2, ev = play(st, "red", "assault R12 from C1")
    # R12's neighbours are C1 (vacated by the attacker) and C2 (red): no retreat, unit destroyed
    assert types(ev) == ["assault", "unit_destroyed", "turn_completed"]
    assert ev[0].payload["attackers"] == 2 and ev[0].payload["defenders"] == 1
    assert st2["units"] == {"R12": "red", "C2": "red", "C5": "blue"}
    assert st2["just_occupied"]["red"] == ["R12"]
    st1 = state(units={"R12": "blue", "C1": "red", "C5": "blue"})
    assert one_error(st1, "red", "assault R12 from C1") == "assault on R12 needs more than 1 units adjacent, you have 1"


def test_dt2_city_assault_counting_and_vacated_point():
    units = {"C1": "blue", "R14": "blue", "R12": "red", "R15": "red"}
    st = state(units=units, tokens={"C3": "blue"})
    assert one_error(st, "red", "assault C1 from R12") == "assault on C1 needs more than 2 units adjacent, you have 2"
    st = state(units={**units, "R16": "red"}, tokens={"C3": "blue"})
    st2, ev = play(st, "red", "assault C1 from R12")
    # the only free adjacent point R12 was just vacated by the attacker: no retreat
    assert types(ev) == ["assault", "unit_destroyed", "turn_completed"]
    assert ev[1].payload["reason"] == "no free point to retreat to"
    assert st2["units"] == {"C1": "red", "R14": "blue", "R15": "red", "R16": "red"}


def test_assault_defender_asked_then_retreats():
    st = state(units={"C1": "blue", "R12": "red", "R15": "red", "R16": "red"}, tokens={"C3": "blue"})
    st2, ev = play(st, "red", "assault C1 from R15")
    assert types(ev) == ["assault", "decision_requested"]
    spec = RS.next_turn(st2)
    assert spec.sides == ("blue",) and spec.kind == "decision"
    assert "R14" in spec.prompt
    assert ev[1].payload["options"] == ["R14"]  # R15 was vacated by the attacker
    st3, ev3 = play(st2, "blue", "retreat to R14")
    assert types(ev3) == ["unit_retreated", "turn_completed"]
    assert st3["units"]["R14"] == "blue" and st3["units"]["C1"] == "red"
    assert st3["to_move"] == "blue" and RS.next_turn(st3).kind == "orders"
    # the retreat destination is not "just occupied": red's protection covers C1 only
    assert st3["just_occupied"] == {"red": ["C1"], "blue": []}


def test_assault_defender_fights():
    st = state(units={"C1": "blue", "R12": "red", "R15": "red", "R16": "red"}, tokens={"C3": "blue"})
    st2, _ = play(st, "red", "assault C1 from R15")
    assert one_error(st2, "blue", "retreat to R15").startswith("cannot retreat to R15: the attacker just came from R15")
    assert one_error(st2, "blue", "retreat to R12").startswith("cannot retreat to R12: R12 is occupied")
    assert one_error(st2, "blue", "retreat to R23").startswith("cannot retreat to R23: R23 is not adjacent to C1")
    st3, ev = play(st2, "blue", "fight")
    assert types(ev) == ["unit_destroyed", "turn_completed"]
    assert "C1" in st3["units"] and "blue" not in st3["units"].values()


def test_assault_errors():
    st = state(units={"C1": "blue", "R12": "red", "R15": "red", "R16": "red", "C3": "red"}, tokens={"C6": "blue"})
    assert one_error(st, "red", "assault C2 from R12") == "cannot assault C2: there is no enemy unit there"
    assert one_error(st, "red", "assault C3 from R23") == "cannot assault C3: it holds your own unit"
    assert one_error(st, "red", "assault C1") == (
        "say which of your adjacent units moves in: 'assault C1 from R12' (adjacent: R12, R15, R16)"
    )
    assert one_error(st, "red", "assault C1 from R14") == "you have no unit on R14"
    assert one_error(st, "red", "assault C1 from C3") == "C3 is not adjacent to C1"


def test_dt3_just_occupied_protects_for_one_turn():
    st = state(
        units={"C2": "red", "C3": "red", "R12": "blue", "R15": "red", "C4": "blue"},
        tokens={"C5": "blue"},
        to_move="blue",
    )
    st, _ = play(st, "blue", "move R12 to C1")
    st, _ = play(st, "red", "move R15 to C5")
    st, _ = play(st, "blue", "move C1 to R12")
    # red's turn: R12 was entered by blue's last move
    assert st["just_occupied"]["blue"] == ["R12"]
    st = dict(st, units={**st["units"], "C1": "red"})
    assert one_error(st, "red", "assault R12 from C2") == "cannot assault R12: the enemy occupied it on its last move"
    assert not any("R12" in op for op in RS.legal_operations(st, "red") if op.startswith(("assault", "breakthrough")))
    st, _ = play(st, "red", "move C5 to R15")
    st, _ = play(st, "blue", "move C4 to R14")
    # after blue's following move the assault is allowed
    assert errors(st, "red", "assault R12 from C2") == []


def test_pass_ends_the_protection_too():
    st = state(
        units={"C1": "red", "C2": "red", "R12": "blue", "C4": "blue"},
        to_move="red",
        just={"blue": ["R12"]},
        tokens={"C5": "blue"},
    )
    assert one_error(st, "red", "assault R12 from C1").endswith("occupied it on its last move")
    st, _ = play(st, "red", "move C1 to R15")
    st = dict(st, units={**st["units"], "C1": "red"})
    st, _ = play(st, "blue", "pass")
    assert errors(st, "red", "assault R12 from C1") == []


# --------------------------------------------------------------------------- breakthrough (CW-19..23)


def row_state(units, to_move="red", just=None, tokens=None):
    return state(row_map(), tokens=tokens or {"C7": "blue", "C8": "red"}, units=units, to_move=to_move, just=just)


def test_breakthrough_moves_the_column():
    st = row_state({"R12": "red", "C2": "red", "R23": "red", "C3": "blue", "R34": "blue", "C6": "blue"})
    # assault is impossible: red has 1 unit next to C3, blue 2 (C3 + R34)
    assert one_error(st, "red", "assault C3 from R23").startswith("assault on C3 needs more than 2")
    st2, ev = play(st, "red", "breakthrough C3 from R23")
    p = ev[0].payload
    assert p["line"] == "L1" and p["attackers"] == 3 and p["defenders"] == ["C3", "R34"]
    assert p["moves"] == [["R23", "C3"], ["C2", "R23"], ["R12", "C2"]] and p["vacated"] == "R12"
    assert st2["units"]["C3"] == "red" and st2["units"]["R23"] == "red" and st2["units"]["C2"] == "red"
    assert "R12" not in st2["units"]
    # blue's dislodged unit may go to R37 only (R23 red, R34 blue)
    assert types(ev) == ["breakthrough", "decision_requested"]
    assert ev[1].payload["options"] == ["R37"]
    st3, _ = play(st2, "blue", "retreat to R37")
    assert st3["just_occupied"]["red"] == ["C3"]  # only the target is newly taken


def test_breakthrough_counts_only_the_unbroken_enemy_row():
    # C3 blue, R34 empty, C4 blue: only C3 counts -> 2 > 1
    st = row_state({"C2": "red", "R23": "red", "C3": "blue", "C4": "blue", "R45": "blue"})
    assert errors(st, "red", "breakthrough C3 from R23") == []
    # C3, R34 blue: 2 vs 2 fails
    st = row_state({"C2": "red", "R23": "red", "C3": "blue", "R34": "blue"})
    assert one_error(st, "red", "breakthrough C3 from R23") == (
        "breakthrough at C3 along L1 needs more than 2 units in the column, you have 2 (enemy: C3, R34)"
    )


def test_breakthrough_counts_only_the_unbroken_own_column():
    # R12 red, C2 empty, R23 red: column is R23 alone
    st = row_state({"R12": "red", "R23": "red", "C3": "blue"})
    assert one_error(st, "red", "breakthrough C3 from R23") == (
        "a breakthrough needs several (at least 2) of your units in a row on line L1 ending at R23; you have 1"
    )


def test_breakthrough_errors():
    st = row_state(
        {"C2": "red", "R23": "red", "C3": "blue", "C7": "red", "R37": "red", "C5": "red"}, just={"blue": ["C3"]}
    )
    assert (
        one_error(st, "red", "breakthrough C3 from R23")
        == "cannot break through at C3: the enemy occupied it on its last move"
    )
    st = row_state({"C2": "red", "R23": "red", "C3": "blue", "C7": "red", "R37": "red"})
    assert one_error(st, "red", "breakthrough C3 from R37") == "no straight line runs from R37 to C3"
    assert (
        one_error(st, "red", "breakthrough C4 from R34") == "cannot break through at C4: there is no enemy unit there"
    )
    assert one_error(st, "red", "breakthrough C3 from R34") == "you have no unit on R34"
    assert one_error(st, "red", "breakthrough C2 from R12") == "cannot break through at C2: it holds your own unit"
    assert errors(st, "red", "breakthrough C3 from R23 along L9")[0] == "unknown line L9"


def test_breakthrough_along_line_and_ambiguity():
    st = row_state({"C2": "red", "R23": "red", "C3": "blue", "R34": "red", "C4": "red"})
    assert one_error(st, "red", "breakthrough C3 along L1") == (
        "breakthrough at C3 along L1 is possible from both sides: add 'from R23' or 'from R34'"
    )
    assert errors(st, "red", "breakthrough C3 along L1 from R34") == []
    st2, ev = play(st, "red", "breakthrough C3 from R34 along L1")
    assert ev[0].payload["moves"] == [["R34", "C3"], ["C4", "R34"]]
    st = row_state({"C2": "red", "R23": "red", "C3": "blue"})
    st2, ev = play(st, "red", "breakthrough c3 along l1")
    assert ev[0].payload["source"] == "R23"
    assert one_error(st, "red", "breakthrough C7 along L1") == "C7 is not on line L1"
    st = state(tokens={"C6": "blue"}, units={"C4": "red", "R14": "red", "C1": "blue"})
    assert one_error(st, "red", "breakthrough C1 from R14 along L2") == "line L2 does not run from R14 to C1"
    assert errors(st, "red", "breakthrough C1 from R14 along L1") == []


def test_breakthrough_reverse_direction_and_line_end():
    # target at the end of the line: C6, column C5? no: column R56 <- C5 <- R45
    st = row_state({"R45": "red", "C5": "red", "R56": "red", "C6": "blue"})
    st2, ev = play(st, "red", "breakthrough C6 from R56")
    assert types(ev) == ["breakthrough", "unit_destroyed", "turn_completed"]  # C6's only road is now red
    st = row_state({"R34": "red", "C3": "red", "R23": "blue", "C1": "blue"})
    st2, ev = play(st, "red", "breakthrough R23 from C3")
    assert ev[0].payload["moves"] == [["C3", "R23"], ["R34", "C3"]]
    assert ev[1].payload["options"] == ["C2"]


# --------------------------------------------------------------------------- terror (CW-25/26)


def test_dt5_terror():
    st = state(tokens={"C1": "blue", "C2": "red"}, units={"C1": "red", "C2": "red", "R23": "blue", "C3": "red"})
    st2, ev = play(st, "red", "terror C1")
    assert "C1" not in st2["tokens"] and st2["units"]["C1"] == "red"
    assert ev[0].payload == {"side": "red", "city": "C1", "token": "blue"}
    assert (
        one_error(st, "red", "terror C2") == "cannot terrorise C2: its population is sympathetic to red, your own side"
    )
    assert one_error(st, "red", "terror C3") == "C3 is neutral: there is no sympathy token to remove"
    assert one_error(st, "red", "terror C4") == "you have no unit in C4"
    assert one_error(st, "red", "terror R23") == "R23 is a road; terror is carried out in cities"


# --------------------------------------------------------------------------- evacuation (CW-27/28)


def test_evacuation_to_neutral_neighbour():
    st = state(tokens={"C1": "red", "C4": "blue"}, units={"C5": "blue", "C3": "blue"})
    st2, ev = play(st, "red", "evacuate C1 to C2")
    assert st2["tokens"] == {"C2": "red", "C4": "blue"}
    assert ev[0].payload == {"side": "red", "from": "C1", "to": "C2"}
    assert sorted(op for op in RS.legal_operations(st, "red")) == sorted(
        ["evacuate C1 to C2", "evacuate C1 to C6", "form C1"]
    )


def test_evacuation_errors():
    st = state(tokens={"C1": "red", "C4": "blue", "C3": "red"}, units={"C6": "blue", "R23": "red", "C5": "red"})
    assert (
        one_error(st, "red", "evacuate C1 to C4")
        == "C4 already has a sympathy token (blue); refugees can only go to a neutral city"
    )
    assert one_error(st, "red", "evacuate C1 to C6") == "C6 is held by the enemy; refugees cannot go there"
    assert one_error(st, "red", "evacuate C1 to C3") == "C3 is not a neighbouring city of C1 (one road away)"
    assert one_error(st, "red", "evacuate C1 to R12") == "R12 is not a neighbouring city of C1 (one road away)"
    assert one_error(st, "red", "evacuate C4 to C1") == "C4 is not sympathetic to red (it is blue)"
    assert one_error(st, "red", "evacuate C2 to C1") == "C2 is not sympathetic to red (it is neutral)"
    assert one_error(st, "red", "evacuate R12 to C1") == "R12 is a road; only a city's population can be evacuated"
    attacked = state(tokens={"C1": "red"}, units={"R14": "blue"})
    assert (
        one_error(attacked, "red", "evacuate C1 to C2") == "cannot evacuate C1: it is under attack (enemy unit on R14)"
    )
    occupied = state(tokens={"C1": "red"}, units={"C1": "blue"})
    assert (
        one_error(occupied, "red", "evacuate C1 to C2") == "cannot evacuate C1: it is under attack (enemy unit on C1)"
    )


# --------------------------------------------------------------------------- one operation per turn, pass


def test_exactly_one_operation():
    st = state(tokens={"C5": "red", "C6": "red"})
    parsed = RS.parse_orders(st, "red", "form C5\nform C6\n# note\n\nmove C5 to R15")
    errs = RS.validate(st, "red", parsed.orders)
    assert [(e.line, e.message) for e in errs] == [
        (2, "only one operation per turn (CW-10); line 1 already orders 'form C5'"),
        (5, "only one operation per turn (CW-10); line 1 already orders 'form C5'"),
    ]
    errs = RS.validate(st, "red", RS.parse_orders(st, "red", "if attacked fight").orders)
    assert errs[0].line == 0 and errs[0].message.startswith("no operation")


def test_not_your_turn():
    st = state(tokens={"C5": "red", "C6": "blue"})
    assert one_error(st, "blue", "form C6") == "it is not blue's turn: red is to move"


def test_pass_is_accepted_but_is_not_a_legal_operation():
    st = state(tokens={"C5": "red", "C6": "blue"})
    assert errors(st, "red", "pass") == []
    assert "pass" not in RS.legal_operations(st, "red")
    st2, ev = play(st, "red", "pass")
    assert types(ev) == ["turn_passed", "turn_completed"]
    assert st2["to_move"] == "blue" and st2["passes"] == 1


@pytest.mark.parametrize(
    "text",
    ["form C5", "move R12 to C1", "assault C1 from R12", "breakthrough C1 from R12", "terror C1", "evacuate C5 to C1"],
)
def test_every_operation_is_rejected_in_a_finished_game(text):
    st = dict(state(tokens={"C5": "red"}, units={"R12": "red"}), result={"winner": "red", "reason": "x"}, phase="over")
    assert one_error(st, "red", text) == "the game is over"
    assert RS.legal_operations(st, "red") == []
