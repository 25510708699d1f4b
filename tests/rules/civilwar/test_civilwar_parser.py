import pytest

from rules.civilwar import RULESET as RS
from rules.civilwar.orders import (
    Assault,
    Breakthrough,
    Evacuate,
    Fight,
    Form,
    Move,
    Pass,
    Retreat,
    Standing,
    Terror,
    parse_text,
)
from rules.civilwar.testing import state


@pytest.fixture(scope="module")
def st():
    return state(tokens={"C5": "red"})


def test_parses_every_order(st):
    text = """
# a comment line
FORM c5
move R12 to C2
Assault C1 from r12
breakthrough C3 from R23 along L1
breakthrough C3 along l1
terror C5
evacuate C5 to C6
pass
if attacked at C5 retreat to R15
if attacked at C5 retreat
if attacked at c1 FIGHT
if attacked at C1 ask
if attacked retreat
if attacked fight
if attacked ask
"""
    parsed = RS.parse_orders(st, "red", text)
    assert parsed.ok, parsed.errors
    o = parsed.orders
    assert o[0] == Form(city="C5") and o[0].line == 3
    assert o[1] == Move(unit="R12", to="C2")
    assert o[2] == Assault(target="C1", source="R12")
    assert o[3] == Breakthrough(target="C3", source="R23", along="L1")
    assert o[4] == Breakthrough(target="C3", along="L1")
    assert o[5] == Terror(city="C5")
    assert o[6] == Evacuate(city="C5", to="C6")
    assert o[7] == Pass()
    assert o[8] == Standing(point="C5", action="retreat", to="R15")
    assert o[9] == Standing(point="C5", action="retreat")
    assert o[10] == Standing(point="C1", action="fight")
    assert o[11] == Standing(point="C1", action="ask")
    assert o[12] == Standing(action="retreat")
    assert o[13] == Standing(action="fight")
    assert o[14] == Standing(action="ask")
    # canonical text round-trips
    again = RS.parse_orders(st, "red", "\n".join(x.to_text() for x in o))
    assert again.orders == o


def test_per_line_errors(st):
    text = "\n".join(
        [
            "form C99",  # 1
            "move R12 C2",  # 2
            "assault",  # 3
            "breakthrough C3",  # 4
            "breakthrough C3 from R23 from R23",  # 5
            "terror",  # 6
            "evacuate C5 C6",  # 7
            "pass now",  # 8
            "if attacked at",  # 9
            "if attacked maybe",  # 10
            "fight",  # 11
            "retreat to R12",  # 12
            "march on C3",  # 13
            "   ",  # 14 blank
            "form c5",  # 15 fine
        ]
    )
    parsed = RS.parse_orders(st, "red", text)
    got = {e.line: e.message for e in parsed.errors}
    assert got == {
        1: "unknown point C99",
        2: "expected 'move <point> to <point>'",
        3: "expected 'assault <point> from <point>'",
        4: "say where the column comes from: 'breakthrough <point> from <point>' or '... along <line>'",
        5: "'from' given twice",
        6: "expected 'terror <city>'",
        7: "expected 'evacuate <city> to <city>'",
        8: "expected 'pass'",
        9: "expected 'if attacked at <point> fight|retreat [to <point>]|ask'",
        10: "expected 'if attacked [at <point>] fight|retreat [to <point>]|ask'",
        11: "'fight' is only for decision turns; for a standing instruction write 'if attacked [at <point>] fight'",
        12: (
            "'retreat to R12' is only for decision turns; for a standing instruction write "
            "'if attacked [at <point>] retreat to R12'"
        ),
        13: "unknown order 'march': expected form, move, assault, breakthrough, terror, evacuate, pass or 'if attacked ...'",
    }
    assert [o.line for o in parsed.orders] == [15]
    assert parsed.errors[0].text == "form C99"


def test_decision_kind_accepts_only_decisions(st):
    parsed = RS.parse_orders(st, "blue", "retreat to r14\nform C5\nfight", kind="decision")
    assert parsed.orders == (Retreat(to="R14"), Fight())
    assert [(e.line, e.message) for e in parsed.errors] == [
        (2, "this is a decision turn: write 'retreat to <point>' or 'fight'")
    ]


def test_empty_and_comment_only_text(st):
    assert RS.parse_orders(st, "red", "").orders == ()
    assert RS.parse_orders(st, "red", "# only\n\n   \n").ok


def test_standing_instruction_validation(st):
    parsed = RS.parse_orders(
        st,
        "red",
        "pass\nif attacked retreat to R12\nif attacked at C5 retreat to R12\n"
        "if attacked at C5 fight\nif attacked fight\nif attacked ask",
    )
    errs = RS.validate(st, "red", parsed.orders)
    assert [(e.line, e.message) for e in errs] == [
        (2, "a general rule cannot name a destination: write 'if attacked at <point> retreat to <point>'"),
        (3, "R12 is not adjacent to C5"),
        (4, "line 3 already gives the instruction at C5"),
        (5, "line 2 already gives the instruction (general rule)"),
        (6, "line 2 already gives the instruction (general rule)"),
    ]


def test_parse_without_map_skips_existence_checks():
    assert parse_text("form X1").orders == (Form(city="X1"),)


def test_orders_help_examples_parse():
    st = RS.build_state(None)
    lines = [ln.strip().split("  ")[0].strip() for ln in RS.orders_help.splitlines() if ln.startswith("  ")]
    candidates = [
        ln
        for ln in lines
        if ln and ln.split()[0] in ("form", "move", "assault", "breakthrough", "terror", "evacuate", "pass", "if")
    ]
    assert len(candidates) >= 12
    for ln in candidates:
        ln = ln.replace("R12", "R1_2")
        parsed = RS.parse_orders(st, "red", ln)
        assert parsed.ok, (ln, parsed.errors)
