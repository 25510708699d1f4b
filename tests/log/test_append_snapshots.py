"""An append keeps its snapshots with its events (on PostgreSQL in the events' own statement):
each snapshot is the state folded from the log, and a refused append leaves neither."""

import json
from contextlib import nullcontext

import pytest
from django.db import transaction

from campaigns.models import Event, Snapshot
from campaigns.turns import gamelog, lifecycle
from campaigns.turns.gamelog import ConcurrencyConflict

from .test_eventstore import note

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("in_transaction", [False, True])
def test_snapshots_are_written_with_the_events_and_equal_the_fold(game, in_transaction):
    stream = gamelog.load(game.pk)
    with transaction.atomic() if in_transaction else nullcontext():
        after = gamelog.append(stream, [note(1), note(2)])
    folded = {ev.seq: state for ev, state in gamelog.replay(game.pk)}  # the whole log, from the start
    for seq in (after.seq - 1, after.seq):
        assert json.loads(Snapshot.objects.get(game=game, seq=seq).state) == lifecycle.to_json(folded[seq])
    assert gamelog.load(game.pk).state == after.state


def test_a_refused_append_writes_no_event_and_no_snapshot(game):
    stale = gamelog.load(game.pk)
    gamelog.append(gamelog.load(game.pk), [note(1)])
    events, snaps = Event.objects.filter(game=game).count(), Snapshot.objects.filter(game=game).count()
    with transaction.atomic(), pytest.raises(ConcurrencyConflict):
        gamelog.append(stale, [note(2)])
    assert (Event.objects.filter(game=game).count(), Snapshot.objects.filter(game=game).count()) == (events, snaps)
