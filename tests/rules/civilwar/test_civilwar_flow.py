"""Setup, turn flow, standing instructions, defaults, the end of the game."""

import random

import networkx as nx

from rules.civilwar import RULESET as RS
from rules.civilwar.testing import cj, fold_all, new_game, play, row_map, star_map, state, types
from rules.core.protocol import PUBLIC, TurnSpec, side_audience

# --------------------------------------------------------------------------- setup (CW-6..9, DT-7)


def test_dt7_setup_deals_ten_and_ten_face_up():
    st, events = new_game(seed=7)
    assert [e.type for e in events] == ["civilwar.map_loaded", "civilwar.tokens_revealed"]
    assert all(e.audience == PUBLIC and e.version == 1 for e in events)
    tokens = st["tokens"]
    assert len(tokens) == 20 and set(tokens) == set(st["board"]["cities"])
    assert sorted(tokens.values()).count("red") == 10 and sorted(tokens.values()).count("blue") == 10
    assert st["units"] == {} and st["to_move"] == "red"
    assert RS.next_turn(st) == TurnSpec(("red",), "orders", RS.next_turn(st).prompt)
    # the map travels in the log
    assert events[0].payload["map"] == RS.load_scenario(None)


def test_setup_is_deterministic_per_seed_and_varies():
    a = [cj(e.payload) for e in new_game(seed=3)[1]]
    b = [cj(e.payload) for e in new_game(seed=3)[1]]
    deals = {cj(new_game(seed=s)[1][1].payload) for s in range(8)}
    assert a == b and len(deals) > 1


def test_initial_state_and_unknown_events():
    st0 = RS.initial_state()
    assert RS.next_turn(st0).sides == () and RS.result(st0) is None
    st, _ = new_game()
    assert RS.fold(st, "platform.player_joined", {"x": 1}) is st
    assert RS.fold(st, "civilwar.something_new", {"x": 1}) is st


# --------------------------------------------------------------------------- standing instructions (CW-24)


def attacked_position(standing=None):
    return state(
        units={"C1": "blue", "R12": "red", "R15": "red", "R16": "red", "C4": "red"},
        tokens={"C3": "blue", "C6": "red"},
        standing=standing,
    )


def test_standing_instruction_event_is_private():
    st = state(tokens={"C5": "red", "C6": "blue"}, units={"R23": "blue"})
    st2, ev = play(st, "red", "form C5\nif attacked at C5 retreat to R15\nif attacked fight")
    assert ev[0].type == "civilwar.standing_instructions"
    assert ev[0].audience == side_audience("red")
    assert all(e.audience == PUBLIC for e in ev[1:])
    assert st2["standing"]["red"] == {"C5": {"action": "retreat", "to": "R15"}, "*": {"action": "fight", "to": None}}
    # replacing and clearing
    st3, ev = play(dict(st2, to_move="red"), "red", "pass\nif attacked ask\nif attacked at C5 fight")
    assert st3["standing"]["red"] == {"C5": {"action": "fight", "to": None}}
    # unchanged instructions emit nothing
    st4, ev = play(dict(st3, to_move="red"), "red", "pass\nif attacked at C5 fight")
    assert "civilwar.standing_instructions" not in [e.type for e in ev]


def test_standing_retreat_to_named_point():
    st = attacked_position({"blue": {"C1": {"action": "retreat", "to": "R14"}}})
    st2, ev = play(st, "red", "assault C1 from R12")
    # C1's free neighbours after the assault: R14 only (R12 vacated by the attacker, R15/R16 red)
    assert types(ev) == ["assault", "unit_retreated", "turn_completed"]
    assert ev[1].payload == {"side": "blue", "from": "C1", "to": "R14", "by": "standing instruction"}
    assert RS.next_turn(st2).kind == "orders" and st2["to_move"] == "blue"


def test_standing_named_point_unavailable_falls_back_to_general_rule():
    st = attacked_position({"blue": {"C1": {"action": "retreat", "to": "R12"}, "*": {"action": "fight"}}})
    _, ev = play(st, "red", "assault C1 from R12")
    assert types(ev) == ["assault", "unit_destroyed", "turn_completed"]
    assert "standing instruction" in ev[1].payload["reason"]


def test_standing_ask_at_point_overrides_general_rule():
    st = attacked_position({"blue": {"C1": {"action": "ask"}, "*": {"action": "fight"}}})
    st2, ev = play(st, "red", "assault C1 from R12")
    assert types(ev) == ["assault", "decision_requested"]
    assert RS.next_turn(st2).kind == "decision"


def test_general_retreat_picks_lowest_free_point():
    st = state(
        units={"C1": "blue", "R12": "red", "R15": "red", "C6": "red"},
        tokens={"C3": "blue"},
        standing={"blue": {"*": {"action": "retreat"}}},
    )
    _, ev = play(st, "red", "assault C1 from R12")
    assert ev[1].payload["to"] == "R14"  # free: R14, R16 (R12 vacated)


def test_red_standing_instructions_do_not_affect_blue_units():
    st = attacked_position({"red": {"*": {"action": "fight"}}})
    _, ev = play(st, "red", "assault C1 from R12")
    assert types(ev) == ["assault", "decision_requested"]


# --------------------------------------------------------------------------- defaults


def test_missing_orders_default_to_pass():
    st = state(tokens={"C5": "red", "C6": "blue"})
    assert RS.default_orders(st, "red") == "pass"
    ev = RS.adjudicate(st, {}, random.Random(0))
    assert types(ev) == ["orders_defaulted", "turn_passed", "turn_completed"]
    assert ev[0].payload == {"side": "red", "kind": "orders", "reason": "no orders", "orders": "pass"}
    assert ev[0].audience == PUBLIC


def test_invalid_orders_default_and_do_not_leak_text():
    st = state(tokens={"C5": "red", "C6": "blue"})
    parsed = RS.parse_orders(st, "red", "form C6\nif attacked at C5 retreat to R15")
    ev = RS.adjudicate(st, {"red": parsed.orders}, random.Random(0))
    assert types(ev) == ["orders_defaulted", "turn_passed", "turn_completed"]
    assert ev[0].payload["reason"] == "invalid orders"
    assert "R15" not in cj([e.payload for e in ev])
    # orders as text with parse errors are also defaulted
    ev = RS.adjudicate(st, {"red": "form C5\nfly away"}, random.Random(0))
    assert types(ev)[0] == "orders_defaulted"
    ev = RS.adjudicate(st, {"red": "form C5"}, random.Random(0))
    assert types(ev) == ["unit_formed", "turn_completed"]


def test_missing_decision_defaults_to_lowest_retreat():
    st = state(units={"C1": "blue", "R12": "red", "R15": "red", "R16": "red"}, tokens={"C3": "blue"})
    st2, _ = play(st, "red", "assault C1 from R16")
    assert st2["pending"]["options"] == ["R14"]
    assert RS.default_orders(st2, "blue", "decision") == "retreat to R14"
    ev = RS.adjudicate(st2, {}, random.Random(0), "decision")
    assert types(ev) == ["orders_defaulted", "unit_retreated", "turn_completed"]
    assert ev[1].payload["by"] == "default"
    # an orders-kind adjudication while a decision is pending does nothing
    assert RS.adjudicate(st2, {"red": "pass"}, random.Random(0), "orders") == []


def test_decision_validation_messages():
    st = state(units={"C1": "blue", "R12": "red", "R14": "red", "R15": "red"}, tokens={"C3": "blue"})
    st2, _ = play(st, "red", "assault C1 from R12")
    assert st2["pending"]["options"] == ["R16"]
    msgs = [
        e.message
        for e in RS.validate(st2, "blue", RS.parse_orders(st2, "blue", "retreat\nfight", "decision").orders, "decision")
    ]
    assert msgs == ["a decision turn takes exactly one line: 'retreat to <point>' or 'fight'"]
    assert RS.validate(st2, "red", (), "decision")[0].message == "the decision belongs to blue"
    assert RS.validate(st2, "blue", (), "decision")[0].message.startswith("write one decision")
    assert RS.validate(st2, "red", RS.parse_orders(st2, "red", "pass").orders)[0].message.startswith(
        "blue must first decide"
    )
    assert RS.validate(st, "blue", (), "decision")[0].message == "there is no decision to make"
    st3, ev = play(st2, "blue", "retreat")  # one option: plain 'retreat' is enough
    assert ev[0].payload["to"] == "R16"


def test_retreat_needs_a_destination_when_there_are_several():
    st = state(units={"C1": "blue", "R12": "red", "R15": "red", "R14": "red"}, tokens={"C3": "blue"})
    st2, _ = play(st, "red", "assault C1 from R15")
    assert st2["pending"]["options"] == ["R16"]
    st = state(units={"C1": "blue", "R12": "red", "R15": "red", "C4": "red"}, tokens={"C3": "blue"})
    st2, _ = play(st, "red", "assault C1 from R15")
    assert st2["pending"]["options"] == ["R14", "R16"]
    msgs = [
        e.message
        for e in RS.validate(st2, "blue", RS.parse_orders(st2, "blue", "retreat", "decision").orders, "decision")
    ]
    assert msgs == ["retreat where? write 'retreat to <point>' with one of: R14, R16"]


# --------------------------------------------------------------------------- end of the game (CW-11)


def test_dt6_side_without_operations_loses():
    # blue has no units; its cities C2, C3; red in C2 and on R23 moves into C3
    st = state(units={"C2": "red", "R23": "red"}, tokens={"C2": "blue", "C3": "blue", "C1": "red"})
    assert RS.has_legal_operation(st, "blue") is True  # blue could form in C3
    st2, ev = play(st, "red", "move R23 to C3")
    assert types(ev) == ["unit_relocated", "turn_completed", "game_over"]
    assert RS.result(st2) == {"winner": "red", "loser": "blue", "reason": "blue cannot carry out any operation (CW-11)"}
    assert RS.next_turn(st2).sides == ()
    assert RS.adjudicate(st2, {"blue": "pass"}, random.Random(0)) == []


def test_blocked_units_lose_but_evacuation_keeps_a_side_alive():
    # blue's unit on R23 is boxed in by red C2 and C3; its only city C5 is held by red
    st = state(
        units={"C2": "red", "C3": "red", "R23": "blue", "C5": "red"}, tokens={"C5": "blue", "C4": "red"}, to_move="blue"
    )
    assert RS.legal_operations(st, "blue") == []
    assert not RS.has_legal_operation(st, "blue")
    # same box, C5 free and quiet, blue at its counter limit: evacuation to neutral C1 is its only operation
    st = state(
        star_map(max_units=2),
        units={"C2": "red", "R12": "red", "C3": "blue", "R23": "blue"},
        tokens={"C5": "blue"},
        to_move="blue",
    )
    assert RS.legal_operations(st, "blue") == ["evacuate C5 to C1"]
    st2, ev = play(st, "blue", "evacuate C5 to C1")
    assert st2["tokens"] == {"C1": "blue"} and not RS.result(st2)


def test_a_scripted_game_played_to_a_win():
    st = state(
        row_map(),
        units={"C2": "red", "R23": "red", "C3": "red", "C8": "red", "R34": "blue", "C4": "blue"},
        tokens={"C1": "red", "C7": "red", "C4": "blue"},
    )
    script = [
        ("red", "breakthrough R34 from C3", ["breakthrough", "unit_destroyed", "turn_completed"]),
        ("blue", "pass", ["turn_passed", "turn_completed"]),
        ("red", "move C8 to R48", ["unit_relocated", "turn_completed"]),
        ("blue", "pass", ["turn_passed", "turn_completed"]),
        ("red", "assault C4 from R48", ["assault", "decision_requested"]),
        ("blue", "retreat to R45", ["unit_retreated", "turn_completed"]),
        ("blue", "move R45 to C5", ["unit_relocated", "turn_completed"]),
        ("red", "terror C4", ["terror", "turn_completed"]),
        ("blue", "move C5 to R56", None),
        ("red", "move C4 to R45", None),
        ("blue", "move R56 to C6", None),
        ("red", "move R45 to C5", None),
        ("blue", "move C6 to R56", None),
        ("red", "move R34 to C4", None),
        ("blue", "move R56 to C6", None),
        ("red", "move C5 to R56", ["unit_relocated", "turn_completed", "game_over"]),
    ]
    for side, text, expected in script:
        spec = RS.next_turn(st)
        assert spec.sides == (side,), (side, text, spec)
        st, ev = play(st, side, text)
        if expected:
            assert types(ev) == expected, (text, types(ev))
    assert RS.result(st) == {"winner": "red", "loser": "blue", "reason": "blue cannot carry out any operation (CW-11)"}
    assert RS.next_turn(st).sides == ()
    assert st["tokens"] == {"C1": "red", "C7": "red"}


def _greedy(st, side, dist):
    ops = RS.legal_operations(st, side)

    def score(op):
        w = op.split()
        if w[0] == "terror":
            return (0, op)
        if w[0] in ("assault", "breakthrough"):
            return (1, op)
        if w[0] == "move":
            return (2 + dist(st, side, w[3]) - dist(st, side, w[1]), op)
        if w[0] == "form":
            return (5, op)
        return (9, op)

    return min(ops, key=score)


def test_greedy_red_beats_an_absent_blue_on_the_default_map():
    st, _ = new_game(seed=11)
    board = st["board"]
    g = nx.Graph()
    for p, ns in board["adj"].items():
        for q in ns:
            g.add_edge(p, q)
    lengths = dict(nx.all_pairs_shortest_path_length(g))

    def dist(state_, side, point):
        targets = [c for c, s in state_["tokens"].items() if s == "blue" and state_["units"].get(c) != "red"]
        return min((lengths[point][t] for t in targets), default=0)

    for _ in range(400):
        spec = RS.next_turn(st)
        if not spec.sides:
            break
        side = spec.sides[0]
        if side == "blue":
            ev = RS.adjudicate(st, {}, random.Random(0), spec.kind)  # blue never answers
        else:
            ev = RS.adjudicate(st, {"red": _greedy(st, "red", dist)}, random.Random(0), spec.kind)
        st = fold_all(st, ev)
    assert RS.result(st) is not None and RS.result(st)["winner"] == "red"


def test_six_passes_in_a_row_are_a_draw():
    st = state(tokens={"C5": "red", "C6": "blue"})
    for i in range(6):
        side = "red" if i % 2 == 0 else "blue"
        st, ev = play(st, side, "pass")
    assert types(ev)[-1] == "game_over"
    assert RS.result(st) == {"winner": None, "reason": "6 turns in a row were passed: a draw"}


def test_an_operation_resets_the_pass_count():
    st = state(tokens={"C5": "red", "C6": "blue"})
    for text in ["pass", "pass", "form C5", "pass", "pass", "pass", "pass", "pass"]:
        side = st["to_move"]
        st, _ = play(st, side, text if side == "red" or text == "pass" else "pass")
    assert RS.result(st) is None and st["passes"] == 5


def test_describe_every_event_type():
    st, events = new_game()
    lines = [RS.describe_event(e.type, e.payload) for e in events]
    assert lines[0].startswith("The map 'The Divided Country' was laid out: 20 cities, 35 roads")
    assert "10 red, 10 blue" in lines[1]
    samples = {
        "standing_instructions": {"side": "red", "instructions": {"C5": {"action": "retreat", "to": "R5_10"}}},
        "orders_defaulted": {"side": "blue", "kind": "orders", "reason": "no orders", "orders": "pass"},
        "unit_formed": {"side": "red", "city": "C5"},
        "unit_relocated": {"side": "red", "from": "C5", "to": "R5_10"},
        "assault": {"side": "red", "target": "C1", "source": "R1_2", "attackers": 3, "defenders": 2},
        "breakthrough": {
            "side": "red",
            "target": "C3",
            "line": "L1",
            "attackers": 3,
            "defenders": ["C3"],
            "vacated": "C1",
        },
        "decision_requested": {"side": "red", "defender": "blue", "point": "C1", "options": ["R1_6", "R1_7"]},
        "unit_retreated": {"side": "blue", "from": "C1", "to": "R1_6", "by": "decision"},
        "unit_destroyed": {"side": "blue", "point": "C1", "reason": "fought to the end"},
        "terror": {"side": "red", "city": "C1", "token": "blue"},
        "evacuation": {"side": "red", "from": "C1", "to": "C2"},
        "turn_passed": {"side": "blue"},
        "turn_completed": {"side": "red", "turn": 4, "next": "blue"},
        "game_over": {"winner": "red", "reason": "blue cannot carry out any operation (CW-11)"},
    }
    for kind, payload in samples.items():
        text = RS.describe_event("civilwar." + kind, payload)
        assert text and "{" not in text, (kind, text)
    assert (
        RS.describe_event("civilwar.assault", samples["assault"]) == "Red assaulted C1 from R1_2 (3 units against 2)."
    )
    assert RS.describe_event("civilwar.game_over", {"winner": None, "reason": "x"}) == "Game over: a draw; x."
