"""The conformance kit: what every rule set in ``rules.catalog`` must do, driven by
``catalog.names()`` (a new rule set is checked by being registered; issue 33).

Each rule set's ``testing`` module offers ``bot_orders(state, side)``, a scripted player. For every
shipped scenario a game of two bots is played to its end (bounded here: CI; the long run is
``python bench/conformance.py``; the driver: tests/support/conformance.py), and after every adjudication:

- the orders the bot wrote are clean (``parse_orders`` and ``validate``), the adjudication does not
  raise, and adjudicating the same state, orders and seed again gives the same events;
- the state is JSON and comes back equal through canonical JSON, and folding the adjudication's
  events gives it (replay);
- ``check_invariants`` finds nothing (rule sets with ``SelfCheck``);
- every event is described (``describe_event``) and every viewer's view renders as a map.

And on any text at all (fuzzed lines from the rule set's own order words), ``parse_orders`` and
``validate`` answer with errors, never an exception.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import catalog
from tests.support.conformance import bot, play, scenarios

NAMES = catalog.names()


@pytest.mark.parametrize("name", NAMES)
def test_every_rule_set_has_a_scripted_player_and_versions(name):
    rs = catalog.get(name)
    assert callable(bot(name))
    assert sorted(rs.versions) == list(range(1, rs.version + 1))


@pytest.mark.parametrize(
    "name,scenario", [(name, sc) for name in NAMES for sc in scenarios(name)], ids=lambda v: str(v)
)
def test_two_bots_play_every_shipped_scenario_cleanly(name, scenario):
    counts = play(name, scenario, seed=1)
    assert counts["turns"] > 0 and counts["over"], counts  # every shipped scenario ends (the longest: ~40)


ORDER_NOISE = st.lists(
    st.one_of(
        st.sampled_from(["0", "1", "0600", "0000", "-3", "999999", "1e9", "nan", "x", "to", "at", "all", "", "red:i1"]),
        st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=8),
    ),
    max_size=6,
)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_reading_any_text_gives_errors_never_an_exception(name, data):
    rs = catalog.get(name)
    state = rs.set_up(scenarios(name)[0], random.Random(2))
    spec = rs.next_turn(state)
    side = spec.sides[0]
    words = [w.replace("* ", "") for w in rs.order_words]
    lines = data.draw(st.lists(st.tuples(st.sampled_from(words), ORDER_NOISE), min_size=1, max_size=4))
    text = "\n".join(" ".join([w, *rest]) for w, rest in lines)
    parsed = rs.parse_orders(state, side, text, spec.kind)
    rs.validate(state, side, parsed.orders, spec.kind)
