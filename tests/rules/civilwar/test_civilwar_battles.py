"""Assaults fought as battles (version 2, RULES.md §9): joined, held, resolved, and the end deferred."""

import pytest

from rules.civilwar import RULESET as RS
from rules.civilwar.board import load_map, place_of
from rules.civilwar.testing import errors, fold_all, play, star_map, state, types
from rules.core.battles import check_battle
from rules.core.protocol import RulesError, Strategic


def battle_map():
    return {**star_map(), "battles": True}


def joined_position(standing=None):
    """Blue holds C1 and R16; red stands on R12, R14, R15: 3 against 2, red assaults C1 from R12."""
    st = state(
        battle_map(),
        tokens={"C2": "red", "C3": "red", "C4": "blue", "C5": "blue"},
        units={"C1": "blue", "R16": "blue", "R12": "red", "R14": "red", "R15": "red", "C3": "red", "C5": "blue"},
        standing=standing,
    )
    return play(st, "red", "assault C1 from R12")


def test_an_assault_joins_a_battle_and_the_turn_passes_with_nothing_moved():
    st, events = joined_position()
    assert types(events) == ["battle_joined", "turn_completed"]
    p = events[0].payload
    assert p["battle"] == "B1" and p["target"] == "C1" and p["source"] == "R12"
    assert p["forces"] == {
        "red": [{"unit": "R12", "strength": 1}, {"unit": "R14", "strength": 1}, {"unit": "R15", "strength": 1}],
        "blue": [{"unit": "C1", "strength": 1}, {"unit": "R16", "strength": 1}],
    }
    assert p["place"] == {"id": "C1", "name": "C1", "kind": "town"}
    check_battle({**p, "id": p["battle"]}, RS.sides)  # the shape a tactical rule set is given
    assert st["units"]["C1"] == "blue" and st["units"]["R12"] == "red"  # nothing moved
    assert st["to_move"] == "blue" and [b["battle"] for b in RS.battles(st)] == ["B1"]
    assert isinstance(RS, Strategic)


def test_the_units_fighting_take_no_part_in_other_operations():
    st, _ = joined_position()
    msg = errors(st, "blue", "move R16 to C6")
    assert msg and "fighting battle B1" in str(msg[0])
    assert "move R16 to C6" not in RS.legal_operations(st, "blue")
    assert "move C5 to R15" not in RS.legal_operations(st, "blue")  # R15 is occupied anyway
    assert any(op.startswith(("form", "move C5")) for op in RS.legal_operations(st, "blue"))
    st2, _ = play(st, "blue", "pass")
    msg = errors(st2, "red", "move R14 to C4")
    assert msg and "fighting battle B1" in str(msg[0])


def test_the_attacker_who_wins_takes_the_place_and_the_garrison_retreats_as_instructed():
    st, _ = joined_position(standing={"blue": {"C1": {"action": "retreat", "to": None}}})
    result = {"winner": "red", "reason": "x", "lost": {"red": ["R14"], "blue": ["R16"]}}
    events = RS.resolve_battle(st, "B1", result, "table")
    assert types(events) == ["battle_resolved"]
    after = fold_all(st, events)
    assert after["units"].get("C1") == "red" and "R12" not in after["units"]
    assert "R16" not in after["units"]
    # the garrison's standing rule: retreat to the free point with the lowest id, a point the lost
    # units left included; never R12, where the assault came from (rule 20)
    assert events[0].payload["retreat"] == {"from": "C1", "to": "R14", "reason": "standing instruction"}
    assert after["units"]["R14"] == "blue"
    assert RS.battles(after) == [] and after["battles"]["B1"]["status"] == "resolved"
    assert RS.check_invariants(after) == []
    assert errors(after, "blue", "move R14 to C4") == []  # no battle holds it any more


def test_a_defender_who_holds_keeps_the_place_and_never_loses_its_garrison():
    st, _ = joined_position()
    events = RS.resolve_battle(st, "B1", {"winner": "blue", "lost": {"red": ["R12", "R15"], "blue": ["C1"]}}, "table")
    after = fold_all(st, events)
    p = events[0].payload
    assert p["holds"] == "blue" and p["lost"] == {"red": ["R12", "R15"], "blue": []} and p["retreat"] is None
    assert after["units"]["C1"] == "blue" and "R12" not in after["units"] and after["units"]["R14"] == "red"


def test_neither_side_winning_leaves_the_place_to_the_defender():
    st, _ = joined_position()
    events = RS.resolve_battle(st, "B1", {"winner": None, "lost": {}}, "table")
    assert events[0].payload["holds"] == "blue"
    assert fold_all(st, events)["units"]["C1"] == "blue"


def test_by_the_rules_the_assault_succeeds_as_an_ordinary_one():
    st, _ = joined_position()
    result = RS.resolve_by_rules(st, "B1")
    assert result["winner"] == "red" and result["lost"] == {"red": [], "blue": []}
    after = fold_all(st, RS.resolve_battle(st, "B1", result, "rules"))
    plain = play(state(star_map(), units=dict(st["units"]), tokens=dict(st["tokens"])), "red", "assault C1 from R12")[0]
    plain = fold_all(plain, RS.adjudicate(plain, {"blue": "retreat to R16"}, None, "decision"))
    assert after["units"] == plain["units"]  # the same board as the assault without battles, defaults alike


def test_a_result_that_does_not_fit_the_battle_is_refused():
    st, _ = joined_position()
    with pytest.raises(RulesError, match="no battle B9"):
        RS.resolve_battle(st, "B9", {"winner": "red"}, "table")
    with pytest.raises(RulesError, match="C3 did not fight for red"):
        RS.resolve_battle(st, "B1", {"winner": "red", "lost": {"red": ["C3"]}}, "table")
    with pytest.raises(RulesError, match="winner"):
        RS.resolve_battle(st, "B1", {"winner": "green"}, "table")
    after = fold_all(st, RS.resolve_battle(st, "B1", {"winner": "red"}, "table"))
    with pytest.raises(RulesError, match="already decided"):
        RS.resolve_battle(after, "B1", {"winner": "red"}, "table")


def test_no_side_loses_or_draws_while_a_battle_is_fought_and_the_result_can_end_the_game():
    # red's only units fight at C1; passes while it is fought do not count towards the draw
    st = state(
        battle_map(),
        tokens={},
        units={"C1": "blue", "R12": "red", "R14": "red"},
    )
    st, events = play(st, "red", "assault C1 from R12")
    for _turn in range(4):
        st, events = play(st, "blue", "pass")
        st, events = play(st, "red", "pass")
    assert st["passes"] == 0 and RS.result(st) is None
    # blue wins and red loses both units: red, to move next, has no operation left (CW-11)
    st, _ = play(st, "blue", "pass")
    events = RS.resolve_battle(st, "B1", {"winner": "blue", "lost": {"red": ["R12", "R14"], "blue": ["C1"]}}, "table")
    assert types(events) == ["battle_resolved", "game_over"]
    assert events[1].payload["loser"] == "red"


def test_the_map_names_the_ground_of_each_place_and_the_option_turns_battles_on():
    board = fold_all(RS.initial_state(), RS.setup(None, __import__("random").Random(1)))["board"]
    assert place_of(board, "R8_13")["kind"] == "crossing" and place_of(board, "C8")["kind"] == "town"
    assert place_of(board, "R2_3")["kind"] == "hills" and place_of(board, "R1_2")["kind"] == "open"
    assert RS.with_options(None, {"battles": True})["battles"] is True
    assert "battles" not in RS.with_options(None, {"battles": False}) if RS.with_options(None, {}) else True
    with pytest.raises(Exception, match="terrain must be one of"):
        load_map({**star_map(), "roads": [{"id": "R12", "joins": ["C1", "C2"], "terrain": "swamp"}]})


def test_version_1_games_assault_as_before():
    st = state(star_map(), units={"C1": "blue", "R12": "red", "R14": "red"})
    _, events = play(st, "red", "assault C1 from R12")
    assert "battle_joined" not in types(events) and "assault" in types(events)
    assert RS.pinned(1) is RS


def test_the_map_marks_a_battle_being_fought_and_keys_it_in_both_languages():
    from rules.core.protocol import Viewer

    st, _ = joined_position()
    view = RS.view(st, Viewer("player", "blue"))
    assert [b["id"] for b in view["battles"]] == ["B1"] and view["board"]["battles"] is True
    svg = RS.render_svg(view)
    assert 'data-battle="B1"' in svg and "battle being fought (B1, B2…)" in svg
    assert "идёт сражение (B1, B2…)" in RS.render_svg(view, lang="ru")
    after = fold_all(st, RS.resolve_battle(st, "B1", {"winner": "blue"}, "table"))
    assert 'data-battle="B1"' not in RS.render_svg(RS.view(after, Viewer("player", "blue")))
    plain = state(star_map(), units={"C1": "blue"})
    assert "battle being fought" not in RS.render_svg(RS.view(plain, Viewer("player", "red")))
