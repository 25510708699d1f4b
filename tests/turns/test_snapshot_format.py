"""Snapshots an older release's fold wrote are rebuilt once by ``migrate`` (turns/snapshotformat.py).

0.1.0's snapshots of a Civil War game lack the settings 0.2.0 added (umpire_plays, grace_hours,
absence_days): a replay under the new code disagrees with them, so the game failed verification
for good after the upgrade, and a load carried on from a state this code never makes."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.utils import timezone

from campaigns.log.eventstore import event_hash
from campaigns.models import Event, Snapshot, SnapshotFormat
from campaigns.turns import gamelog, snapshotformat
from tests.conftest import new_civilwar_game
from tests.support.games import play_one


def _as_an_older_fold_wrote_it(game) -> None:
    """Every snapshot of ``game`` without the settings 0.2.0 added, as 0.1.0 wrote them; and the
    database's format unrecorded, as in 0.1.0."""
    for snap in Snapshot.objects.filter(game=game):
        state = json.loads(snap.state)
        for key in ("umpire_plays", "grace_hours", "absence_days"):
            state["settings"].pop(key, None)
        Snapshot.objects.filter(pk=snap.pk).update(state=json.dumps(state, sort_keys=True, separators=(",", ":")))
    SnapshotFormat.objects.all().delete()


@pytest.mark.django_db(transaction=True)
def test_migrate_rebuilds_snapshots_an_older_fold_wrote_once(people):
    game = new_civilwar_game(people)
    play_one(game)
    _as_an_older_fold_wrote_it(game)
    report = gamelog.verify_game(game)
    assert any("snapshot at seq" in p for p in report.problems), report.problems

    call_command("migrate", verbosity=0)  # nothing to migrate: its post-migrate step still runs

    assert gamelog.verify_game(game).ok
    assert snapshotformat.stored_format() == snapshotformat.SNAPSHOT_FORMAT
    before = list(Snapshot.objects.filter(game=game).values_list("pk", flat=True))
    assert snapshotformat.rebuild_if_stale() == []  # recorded: not again
    assert list(Snapshot.objects.filter(game=game).values_list("pk", flat=True)) == before


def _a_newer_release_event(game) -> None:
    """An event this code cannot fold, chained into the log as a newer release would have written it
    (a downgrade): ``game.paused``."""
    last = Event.objects.filter(game=game).order_by("-seq").first()
    at = timezone.now()
    payload = {"by": "alice"}
    digest = event_hash(last.hash, game.uid, last.seq + 1, last.turn, "game.paused", 1, payload, "public", at)
    Event.objects.create(
        game=game,
        seq=last.seq + 1,
        turn=last.turn,
        type="game.paused",
        payload=payload,
        audience="public",
        created_at=at,
        prev_hash=last.hash,
        hash=digest,
    )


@pytest.mark.django_db(transaction=True)
def test_a_game_that_cannot_be_rebuilt_is_named_and_the_others_are_rebuilt(people):
    good, bad = new_civilwar_game(people), new_civilwar_game(people)
    for game in (good, bad):
        _as_an_older_fold_wrote_it(game)
    _a_newer_release_event(bad)
    said: list[str] = []
    assert snapshotformat.rebuild_if_stale(say=said.append) == [good.pk]
    assert gamelog.verify_game(good).ok
    assert any(f"game {bad.pk}: snapshots NOT rebuilt" in line and "game.paused" in line for line in said)
    assert snapshotformat.stored_format() == 0  # not recorded: the next migrate tries again
