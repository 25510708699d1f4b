"""``testing.state_from_view``: the position a Civil War player's own view rebuilds, for scripted players
that know only the API (tests/support/playthrough.py, the conformance kit's play-through). It reads
nothing the view does not give, and gives the bot, the default orders and validation what the whole
state gives them."""

import json
import random

import pytest

from rules.civilwar import RULESET as RS
from rules.civilwar.testing import bot_orders, check_result, play, state, state_from_view
from rules.core.protocol import Viewer


def _view(st, side):
    """The side's board as the API hands it over (JSON: tuples are lists)."""
    return json.loads(json.dumps(RS.view(st, Viewer("player", side))))


def _orders_of(st, side, kind):
    return bot_orders(st, side) if kind == "orders" else RS.default_orders(st, side, kind)


def _clean(st, side, text, kind):
    parsed = RS.parse_orders(st, side, text, kind)
    return list(parsed.errors) + list(RS.validate(st, side, parsed.orders, kind))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_bot_game_played_from_the_views_is_the_bot_game(seed):
    """Each side orders from its own rebuilt view: the same orders as from the whole state, clean on
    the server's state, and the same turn to come, to the game's end."""
    st = RS.set_up(RS.load_scenario(None), random.Random(seed))
    rng = random.Random(seed)
    for _ in range(200):
        spec = RS.next_turn(st)
        for side in RS.sides:
            rebuilt = state_from_view(_view(st, side))
            assert rebuilt["units"] == st["units"] and rebuilt["tokens"] == st["tokens"]
            assert rebuilt["just_occupied"] == st["just_occupied"] and rebuilt["token_start"] == st["token_start"]
            assert (RS.next_turn(rebuilt).sides, RS.next_turn(rebuilt).kind) == (spec.sides, spec.kind)
            assert RS.result(rebuilt) == RS.result(st)
        if not spec.sides:
            break
        (side,) = spec.sides
        text = _orders_of(state_from_view(_view(st, side)), side, spec.kind)
        assert text == _orders_of(st, side, spec.kind)
        assert _clean(st, side, text, spec.kind) == []
        orders = RS.parse_orders(st, side, text, spec.kind).orders
        st = RS.fold_events(st, RS.adjudicate(st, {side: orders}, random.Random(rng.getrandbits(32)), spec.kind))
    assert RS.result(st) is not None
    check_result(RS.result(st), _view(st, "red"))


def test_a_defender_decides_from_its_own_view():
    """Driven out of C1 with one way out: the defender's rebuilt view has the decision turn and its
    default retreat, which the server takes."""
    st = state(units={"C1": "blue", "R12": "red", "R15": "red", "R16": "red"}, tokens={"C3": "blue"})
    st, _ = play(st, "red", "assault C1 from R16")
    assert RS.next_turn(st).kind == "decision"
    rebuilt = state_from_view(_view(st, "blue"))
    assert RS.next_turn(rebuilt).sides == ("blue",) and RS.next_turn(rebuilt).kind == "decision"
    text = RS.default_orders(rebuilt, "blue", "decision")
    assert text == "retreat to R14" == RS.default_orders(st, "blue", "decision")
    assert _clean(st, "blue", text, "decision") == []
    assert RS.validate(rebuilt, "red", RS.parse_orders(rebuilt, "red", "pass").orders)  # red waits for blue


def test_it_reads_nothing_the_view_does_not_give():
    """Red's standing instructions, the count of passes and the last operation's events are not in
    blue's view: two positions that differ only in them rebuild alike for blue."""
    st = state(units={"C1": "blue", "R12": "red"}, tokens={"C1": "blue", "C2": "red"}, to_move="blue")
    other = {
        **st,
        "standing": {**st["standing"], "red": {"*": {"action": "fight"}}},
        "passes": 3,
        "last": {"turn": 1, "side": "red", "events": []},
    }
    assert state_from_view(_view(st, "blue")) == state_from_view(_view(other, "blue"))
    rebuilt = state_from_view(_view(other, "blue"))
    assert rebuilt["standing"] == {"red": {}, "blue": {}} and rebuilt["passes"] == 0 and rebuilt["last"] is None


def test_a_view_before_the_map_rebuilds_the_empty_game():
    assert state_from_view(_view(RS.initial_state(), "red")) == RS.initial_state()
