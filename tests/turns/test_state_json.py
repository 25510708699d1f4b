"""The typed lifecycle state keeps the JSON the fold has always written, byte for byte.

fold_transitions.json.gz holds transitions recorded from the fold as it was when the state was
a plain dict (before campaigns/turns/state.py): the state before an event, the event, and the
state after it, as canonical JSON (the snapshots' form). Chosen to cover every lifecycle event
type and every key the fold adds only later (a moved deadline, a grace, several seats a side,
an absence drawn, results held and voided).
"""

from __future__ import annotations

import gzip
import json
from dataclasses import FrozenInstanceError
from pathlib import Path

import pytest

from campaigns.turns import gamelog, lifecycle
from campaigns.turns.state import GameStatus, LifecycleState, Turn, TurnStatus
from rules.core.canonical import canonical_json

with gzip.open(Path(__file__).with_name("fold_transitions.json.gz"), "rt") as recorded:
    RECORDED = json.loads(recorded.read())
TURN_KEYS_ADDED_LATER = {"deadline_version", "late", "late_until", "commands", "commands_ready"}
# Lifecycle events newer than the recording (their folds are tested where they are built):
# game.rules_changed, the umpire's move to newer rules (tests/turns/test_rules_versions.py), and a
# failed adjudication held and retried (tests/turns/test_no_wedged_games.py).
EVENTS_AFTER_THE_RECORDING = {"game.rules_changed", "turn.adjudication_failed", "turn.adjudication_retried"}


def test_the_recording_covers_every_lifecycle_event_and_every_key_added_later():
    types = {r["type"] for r in RECORDED}
    # a handover folds to the same state
    assert set(lifecycle._HANDLERS) - {"side.replaced"} - EVENTS_AFTER_THE_RECORDING <= types
    assert any(not lifecycle.is_lifecycle(t) for t in types)  # a rule set's event too
    turn_keys = set().union(*(json.loads(r["after"])["turn"] for r in RECORDED))
    assert turn_keys >= TURN_KEYS_ADDED_LATER
    assert any("absence_used" in json.loads(r["after"]) for r in RECORDED)
    assert any(json.loads(r["after"])["pending"] for r in RECORDED)
    assert any(json.loads(r["after"])["voided"] for r in RECORDED)


SNAPSHOTS = sorted({r[k] for r in RECORDED for k in ("before", "after")})


@pytest.mark.parametrize("text", SNAPSHOTS, ids=[f"snapshot{i}" for i in range(len(SNAPSHOTS))])
def test_an_old_snapshot_loads_and_writes_back_byte_for_byte(text):
    state = gamelog.store.fold.thaw(text)
    assert isinstance(state, LifecycleState) and isinstance(state.turn, Turn)
    assert isinstance(state.status, GameStatus) and isinstance(state.turn.status, TurnStatus)
    assert gamelog.store.fold.snapshot(state) == text


@pytest.mark.parametrize("i", range(len(RECORDED)), ids=[f"{r['type']}@{i}" for i, r in enumerate(RECORDED)])
def test_the_typed_fold_writes_what_the_dict_fold_wrote(i):
    r = RECORDED[i]
    before = LifecycleState.from_json(json.loads(r["before"]))
    after = lifecycle.fold(before, r["type"], r["payload"], r["seq"], r["at"])
    assert canonical_json(after.to_json()) == r["after"]
    assert gamelog.store.fold.snapshot(before) == r["before"]  # the fold never changed its input


def test_the_empty_state_is_the_old_empty_state():
    assert canonical_json(lifecycle.empty_state().to_json()) == (
        '{"missed":{},"pending":[],"pending_from":null,"result":null,"rules":null,"ruleset":null,"settings":{},'
        '"status":"new","turn":{"close_reason":null,"commitment":null,"deadline":null,"defaulted":{},"kind":"orders",'
        '"number":0,"opened_at":null,"orders":{},"orders_used":null,"prompt":"","ready":{},"seed":null,"sides":[],'
        '"status":""},"voided":[]}'
    )


def test_statuses_equal_the_strings_they_replace():
    assert [s.value for s in TurnStatus] == [
        "",
        "open",
        "closed",
        "adjudicated",
        "adjudication_failed",
        "published",
        "finished",
    ]
    assert TurnStatus.OPEN == "open" and GameStatus.FINISHED == "finished"
    assert json.dumps({"s": TurnStatus.ADJUDICATED}) == '{"s": "adjudicated"}'


def test_a_stored_state_with_a_key_this_code_does_not_know_is_refused_not_dropped():
    data = json.loads(RECORDED[0]["after"])
    with pytest.raises(ValueError, match="unknown keys"):
        LifecycleState.from_json({**data, "surprise": 1})
    with pytest.raises(ValueError, match="unknown keys"):
        LifecycleState.from_json({**data, "turn": {**data["turn"], "surprise": 1}})


def test_a_stored_state_missing_a_key_is_refused_not_filled_in():
    data = json.loads(RECORDED[0]["after"])
    with pytest.raises(ValueError, match="missing keys"):
        LifecycleState.from_json({k: v for k, v in data.items() if k != "missed"})
    with pytest.raises(ValueError, match="missing keys"):
        LifecycleState.from_json({**data, "turn": {k: v for k, v in data["turn"].items() if k != "seed"}})


def test_the_state_cannot_be_changed_in_place():
    state = lifecycle.empty_state()
    with pytest.raises(FrozenInstanceError):
        state.status = GameStatus.ACTIVE  # type: ignore[misc]


# --- snapshots that reuse the text of what a fold left unchanged (eventstore.Fold.snapshot_spans) ---


@pytest.mark.parametrize("i", range(len(RECORDED)), ids=[f"{r['type']}@{i}" for i, r in enumerate(RECORDED)])
def test_a_snapshot_reusing_the_thawed_texts_is_the_canonical_json_of_the_state(i):
    r, fold = RECORDED[i], gamelog.store.fold
    before, texts = fold.thaw_spans(r["before"])
    assert texts is not None and before == fold.thaw(r["before"])
    assert {k: t for k, (_, t) in texts.items()} == {k: canonical_json(v) for k, v in json.loads(r["before"]).items()}
    after = lifecycle.fold(before, r["type"], r["payload"], r["seq"], r["at"])
    text, spans = fold.snapshot_spans(after, texts)
    assert text == r["after"] == canonical_json(after.to_json())
    # and again from what that snapshot left: a second event in the same append
    again = lifecycle.fold(after, r["type"], r["payload"], r["seq"] + 1, r["at"])
    assert fold.snapshot(again, spans) == canonical_json(again.to_json())


def test_a_reused_text_is_only_that_of_the_very_same_object():
    fold = gamelog.store.fold
    text = next(t for t in SNAPSHOTS if json.loads(t)["rules"])
    state, texts = fold.thaw_spans(text)
    # An equal but different object, or an object whose text was of another value: encoded afresh.
    stale = {**texts, "rules": ({"not": "these rules"}, '{"not":"these rules"}')}
    assert fold.snapshot(state, stale) == text
    changed = LifecycleState.from_json({**json.loads(text), "rules": {"board": "other"}})
    assert '"rules":{"board":"other"}' in fold.snapshot(changed, texts)
    assert fold.snapshot(changed, texts) == canonical_json(changed.to_json())


@pytest.mark.parametrize(
    "text",
    [
        '{ "missed":{}}',  # whitespace
        '{"b":1,"a":2}',  # keys not sorted
        '{"a":1,"a":2}',  # a key twice
        "[1,2]",
        "{}",
        '{"a":1,}',
        '{"a":1',
    ],
)
def test_only_a_text_laid_out_as_canonical_json_gives_its_spans(text):
    from campaigns.log.eventstore import _top_level_spans

    spans = _top_level_spans(text)
    if text == "{}":
        assert spans == {}
    else:
        assert spans is None


def test_a_recorded_rules_version_is_kept_and_an_unrecorded_one_stays_out_of_the_json():
    data = json.loads(RECORDED[-1]["after"])
    assert "rules_version" not in data  # recorded before versions were: loads and writes back as it was
    versioned = LifecycleState.from_json({**data, "rules_version": 2})
    assert versioned.rules_version == 2
    assert canonical_json(versioned.to_json()) == canonical_json({**data, "rules_version": 2})
