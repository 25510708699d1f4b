"""States the event store keeps thawed (eventstore ``_Thawed``): an append in a batch that holds
its game keeps the state its snapshot thaws to, and the game's next load in such a batch takes it
instead of reading the snapshot - only while that snapshot is still the log's latest and its
event the one it was kept for; what a load gives and what the next snapshot writes are the same
as from a thaw. And a batch's loads read up front (``holding_locks(preload=True)``)."""

import pytest
from django.db import transaction

from campaigns.log import eventstore
from campaigns.models import Snapshot
from campaigns.turns import gamelog, lifecycle
from rules.core.canonical import canonical_json
from tests.conftest import new_civilwar_game
from tests.services import postgres_only

from .test_eventstore import note

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _nothing_kept():
    eventstore._thawed_states().clear()
    yield
    eventstore._thawed_states().clear()


@pytest.fixture
def thaws(monkeypatch, settings):
    """The states loads thawed from a snapshot's text (the tests' check of a kept state, which
    thaws too, is off here: the first test makes it by hand)."""
    settings.EVENTSTORE_CHECK_THAWED = False
    seen = []
    real = eventstore.Fold.thaw_spans

    def thaw_spans(self, text):
        state, spans = real(self, text)
        seen.append(state)
        return state, spans

    monkeypatch.setattr(eventstore.Fold, "thaw_spans", thaw_spans)
    return seen


def held_append(game_id, drafts):
    """A command in a batch (mail-in's): the game locked up front, loaded, appended to."""
    with transaction.atomic(), gamelog.holding_locks([game_id]):
        return gamelog.append(gamelog.load(game_id, lock=True), drafts)


def held_load(game_id):
    with transaction.atomic(), gamelog.holding_locks([game_id]):
        return gamelog.load(game_id, lock=True)


def from_scratch(game_id):
    """The state at the log's head, folded from its first event."""
    return list(gamelog.replay(game_id))[-1][1]


def latest_snapshot(game_id) -> Snapshot:
    return Snapshot.objects.filter(game_id=game_id).latest("seq")


def test_a_held_append_keeps_what_a_thaw_of_its_snapshot_makes(game):
    after = held_append(game.pk, [note(1), note(2)])
    kept = eventstore._thawed_states()[game.pk]
    assert (kept.seq, kept.hash) == (after.seq, after.head_hash)
    assert kept.text == latest_snapshot(game.pk).state
    state, spans = gamelog.store.fold.thaw_spans(kept.text)
    assert repr(kept.state) == repr(state) and repr(kept.spans) == repr(spans)  # types, dict order


def test_the_next_held_load_takes_it_and_the_next_snapshot_is_the_same_bytes(game, thaws):
    held_append(game.pk, [note(1)])
    thaws.clear()
    stream = held_load(game.pk)
    assert thaws == [] and stream.state is eventstore._thawed_states()[game.pk].state
    assert lifecycle.to_json(stream.state) == lifecycle.to_json(from_scratch(game.pk))
    after = held_append(game.pk, [note(2), note(3)])  # from the kept state, its texts reused
    assert thaws == []
    assert latest_snapshot(game.pk).state == canonical_json(lifecycle.to_json(from_scratch(game.pk)))
    assert after.seq == latest_snapshot(game.pk).seq


def test_a_load_outside_a_batch_reads_the_snapshot(game, thaws):
    held_append(game.pk, [note(1)])
    thaws.clear()
    with transaction.atomic():
        gamelog.load(game.pk, lock=True)
    gamelog.load(game.pk)
    assert len(thaws) == 2


def test_a_state_kept_by_a_rolled_back_append_is_not_taken(game, thaws):
    class Undo(Exception):
        pass

    with pytest.raises(Undo), transaction.atomic():
        held_append(game.pk, [note("never committed")])
        raise Undo
    kept = eventstore._thawed_states()[game.pk]  # kept for a seq whose event was rolled back ...
    other = gamelog.append(gamelog.load(game.pk), [note("committed")])  # ... which another writer takes
    assert other.seq == kept.seq and other.head_hash != kept.hash
    thaws.clear()
    stream = held_load(game.pk)
    assert len(thaws) == 1 and stream.state is not kept.state
    assert stream.state == from_scratch(game.pk) != kept.state


def test_a_state_is_not_taken_once_another_writer_appended(game, thaws):
    held_append(game.pk, [note(1)])
    kept = eventstore._thawed_states()[game.pk]
    gamelog.append(gamelog.load(game.pk), [note(2)])  # as another process would: nothing kept here
    thaws.clear()
    stream = held_load(game.pk)
    assert len(thaws) == 1 and stream.seq == kept.seq + 1
    assert stream.state == from_scratch(game.pk)


def test_a_kept_state_changed_in_place_is_found_out(game, settings):
    """The tests run with EVENTSTORE_CHECK_THAWED: a state shared between loads that someone
    changed would fail here rather than write a wrong snapshot."""
    assert settings.EVENTSTORE_CHECK_THAWED
    held_append(game.pk, [note(1)])
    eventstore._thawed_states()[game.pk].state.settings["changed"] = True
    with pytest.raises(AssertionError, match="changed in place"):
        held_load(game.pk)


@pytest.mark.parametrize("bound", ["THAWED_MAX", "THAWED_CHARS"])
def test_kept_states_are_bounded(game, people, monkeypatch, bound):
    other = new_civilwar_game(people)
    held_append(game.pk, [note(1)])
    kept = eventstore._thawed_states()
    monkeypatch.setattr(eventstore, bound, 1 if bound == "THAWED_MAX" else kept.chars + 1)
    held_append(other.pk, [note(1)])  # the game kept first goes
    assert list(kept) == [other.pk] and kept.chars == len(kept[other.pk].text)
    monkeypatch.setattr(eventstore, bound, 0)
    held_append(other.pk, [note(2)])
    assert not kept and kept.chars == 0


# --- preloaded reads (holding_locks(preload=True), PostgreSQL) ---------------------------------


def _reads(monkeypatch) -> list[str]:
    from campaigns import prepared

    seen = []
    real = prepared.fetchall
    monkeypatch.setattr(prepared, "fetchall", lambda sql, params: seen.append(sql) or real(sql, params))
    return seen


def _same(one, other):
    assert (one.seq, one.head_hash, one.state) == (other.seq, other.head_hash, other.state)
    assert [getattr(one.game, f.attname) for f in one.game._meta.concrete_fields] == [
        getattr(other.game, f.attname) for f in other.game._meta.concrete_fields
    ]


@postgres_only
def test_preloaded_loads_are_what_a_load_of_their_own_reads(game, people, monkeypatch):
    other = new_civilwar_game(people)
    held_append(game.pk, [note(1)])  # game: a kept state; other: none
    with transaction.atomic():
        own = {g.pk: gamelog.load(g.pk, lock=True) for g in (game, other)}
    reads = _reads(monkeypatch)
    with transaction.atomic(), gamelog.holding_locks([game.pk, other.pk], preload=True):
        preloaded = {g.pk: gamelog.load(g.pk, lock=True) for g in (game, other)}
    assert len(reads) == 2  # the locks, and every game's read
    for pk in own:
        _same(preloaded[pk], own[pk])


@postgres_only
def test_a_preloaded_read_is_taken_once_and_not_after_an_append(game, monkeypatch):
    stale = gamelog.load(game.pk)
    with transaction.atomic(), gamelog.holding_locks([game.pk], preload=True):
        gamelog.append(stale, [note(1)])  # before any load in the block: the preloaded read is out of date
        after = gamelog.load(game.pk, lock=True)
        assert after.seq == stale.seq + 1
        gamelog.append(after, [note(2)])
        assert gamelog.load(game.pk, lock=True).seq == stale.seq + 2
    with transaction.atomic(), gamelog.holding_locks([game.pk], preload=True):
        first = gamelog.load(game.pk, lock=True)
        reads = _reads(monkeypatch)
        second = gamelog.load(game.pk, lock=True)
    assert len(reads) == 1  # the second load read for itself
    _same(first, second)
