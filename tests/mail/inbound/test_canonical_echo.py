"""Every rule set's acknowledgement echoes each accepted line in its canonical English words,
"-> ..." (README, "Orders by mail"; issue 30, point 7): Little Wars, Kriegspiel and Kings of War
as Civil War does."""

import pytest

from campaigns.mailin.apply import understood
from rules import catalog

LINES = {
    "littlewars": ("двигать A к 3,4\nhold", ["двигать A к 3,4  ->  move A to 3,4", "hold  ->  hold"]),
    "kriegspiel": ("двигать A к 3,4\nhold", ["двигать A к 3,4  ->  move A to 3,4", "hold  ->  hold"]),
    "kingsofwar": ("r1 наступать 5\nr2  halt", ["r1 наступать 5  ->  r1 advance 5", "r2  halt  ->  r2 halt"]),
}


@pytest.mark.parametrize("ruleset", sorted(LINES))
def test_each_accepted_line_is_echoed_in_canonical_words(ruleset):
    text, echoes = LINES[ruleset]
    parsed = catalog.get(ruleset).parse_orders(None, "red", text)
    assert not parsed.errors
    listing = understood(text, parsed.orders, parsed.errors)
    for n, echo in enumerate(echoes, start=1):
        assert f"{n:>4}. {echo}" in listing, listing
