"""The Kriegspiel's scripted player (rules/kriegspiel/testing.py): it charges when it can, and it plays
from a side's own view (``state_from_view``), as the API play-through drives it."""

import random

from rules.core.protocol import Viewer
from rules.kriegspiel.ruleset import RULESET
from rules.kriegspiel.testing import bot_orders, state_from_view
from tests.support.conformance import play


def test_the_conformance_kit_sees_kriegspiel_charges():
    """KS-68: the shipped farm's horse were 6 a side, too few to charge, and the bot never ordered one:
    the kit counted no charge in any Kriegspiel game. Now both are 12, and the bot charges."""
    counts = play("kriegspiel", "ks_farm", seed=1)
    assert counts["over"] and counts["charges"] > 0, counts


def test_the_bot_playing_from_its_own_view_writes_orders_that_validate():
    """Each side's bot sees only its side's view; its orders are clean on the true position, every turn
    of a whole game; the position it rebuilds holds of the enemy only what the side sees."""
    rs = RULESET
    state = rs.set_up(rs.load_scenario("ks_farm"), random.Random(3))
    charges = 0
    for n in range(60):
        spec = rs.next_turn(state)
        if not spec.sides:
            break
        orders = {}
        for side in spec.sides:
            view = rs.view(state, Viewer("player", side))
            mine = state_from_view(view)
            enemy = {i for i, f in mine["figures"].items() if f["side"] != side and f["st"] == "ok"}
            assert enemy <= set(state["ks"]["seen"][side]["now"]["figures"]) | set(mine["ks"]["seen"][side]["last"])
            assert all(w["side"] == side or "public" in w for w in mine["ks"]["works"].values())
            text = bot_orders(mine, side)
            parsed = rs.parse_orders(state, side, text)
            assert parsed.ok and rs.validate(state, side, parsed.orders) == (), (n, side, text)
            orders[side] = parsed.orders
        events = rs.adjudicate(state, orders, random.Random(n))
        charges += sum(e.type == "kriegspiel.charge" for e in events)
        state = rs.fold_events(state, events)
        assert rs.check_invariants(state) == []
    assert not rs.next_turn(state).sides and charges > 0


def test_a_view_rebuilds_what_binds_the_sides_units(new_game):
    """The rebuilt position keeps the rules version, the side's columns, works and the pursuit its units
    are under, so orders the true position refuses are refused on it too."""
    g = new_game()
    g.deploy()
    g.turn(red="column foot1\nsplit foot2 2 as sappers nearest 32,3\nmine sappers at 32.5,3")
    view = g.view("red")
    mine = state_from_view(view)
    assert mine["ks"]["rules_version"] == g.state["ks"]["rules_version"] == 4
    assert mine["ks"]["columns"]["red"] == g.state["ks"]["columns"]["red"] != []
    assert mine["ks"]["works"] == {
        k: {f: w[f] for f in ("id", "kind", "side", "at", "to", "status", "done", "need", "workers", "started")}
        for k, w in g.state["ks"]["works"].items()
    }
    assert mine["ks"]["works"] and not [w for w in mine["ks"]["works"].values() if w["side"] == "blue"]
    for text in ("charge foot1 at 24,150", "mine sappers at 32.5,3", "move foot2 to 32,20"):
        parsed = RULESET.parse_orders(g.state, "red", text).orders
        true = [e.message for e in RULESET.validate(g.state, "red", parsed)]
        assert [e.message for e in RULESET.validate(mine, "red", parsed)] == true, text
