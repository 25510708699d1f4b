"""A game set up before payloads kept marked texts (``message_msg``) re-adjudicates to the very
events its log recorded, so ``verify_game`` still finds it sound; a new game keeps them."""

import json
import random

from rules.core.canonical import canonical_json
from rules.core.i18n import MARKED_TEXTS_VERSION, with_marked_texts
from rules.littlewars import RULESET as RS
from rules.littlewars.testing import build, play

REFUSED = "move b to 10.5,10.3"  # LW-27: b would stand closer than 1/16 in to a; refused at adjudication


def _position():
    # build() lays the table as a log written before texts_version: its scenario has no version.
    return build(
        red=[("a", "inf", [(10, 10), (11, 10)]), ("b", "inf", [(20, 10), (21, 10)])], blue=[("x", "inf", [(40, 30)])]
    )


def _rejected(state):
    _, events = play(state, red=REFUSED, check=False)
    (rejected,) = [e for e in events if e.type == "littlewars.orders_rejected"]
    return events, rejected.payload["errors"][0]


def test_an_old_game_re_adjudicates_to_the_events_recorded_before_marked_texts():
    old = _position()
    assert "texts_version" not in old["scenario"]
    events, error = _rejected(old)
    # exactly the payload the code before the merge wrote (line, text, message), nothing added
    assert sorted(error) == ["line", "message", "text"] and "LW-27" in error["message"]
    again, _ = _rejected(json.loads(json.dumps(old)))  # as verify_game re-runs it from the stored state
    assert [canonical_json(dict(e.payload)) for e in again] == [canonical_json(dict(e.payload)) for e in events]
    assert RS.describe_event("littlewars.orders_rejected", {"side": "red", "errors": [error]})  # still readable


def test_a_new_game_keeps_the_marked_message_for_each_readers_language():
    new = {**_position()}
    new["scenario"] = with_marked_texts(new["scenario"])
    _, error = _rejected(new)
    assert error["message_msg"]["msgid"].startswith("{value} and {value2} would stand")


def test_setup_stores_the_version_in_the_scenario_of_a_new_game():
    (laid, *_) = RS.setup("skirmish", random.Random(1))
    assert laid.type == "littlewars.table_laid"
    assert laid.payload["scenario"]["texts_version"] == MARKED_TEXTS_VERSION
