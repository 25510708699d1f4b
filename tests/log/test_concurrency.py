"""16 processes append to one game at once: nothing lost, nothing duplicated, no gap."""

import subprocess
import sys
from pathlib import Path

import pytest

from campaigns.models import Event
from campaigns.turns import gamelog
from tests.services import database_url, postgres_only

WRITERS, EACH = 16, 25
ROOT = Path(__file__).resolve().parents[2]


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_sixteen_processes_append_to_one_game(people):
    from tests.conftest import new_civilwar_game

    game = new_civilwar_game(people)
    start = gamelog.head(game.pk)[0]
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.support.concurrent_writer", database_url(), str(game.pk), str(w), str(EACH)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )
        for w in range(WRITERS)
    ]
    conflicts = []
    for p in procs:
        out, _ = p.communicate(timeout=240)
        assert p.returncode == 0
        conflicts.append(int(out.strip().splitlines()[-1]))
    seqs = list(Event.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, start + WRITERS * EACH + 1))
    texts = list(Event.objects.filter(game=game, seq__gt=start).values_list("payload__text", flat=True))
    assert sorted(texts) == sorted(f"# writer {w} item {i}" for w in range(WRITERS) for i in range(EACH))
    assert sum(conflicts) > 0, "the writers never raced: the test proved nothing"
    from campaigns.turns.gamelog import verify_game

    assert verify_game(game).ok


@postgres_only
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("writers", ["lock", "lock-free"])
def test_rebuild_snapshots_beside_live_appends(people, writers):
    """rebuild_snapshots runs again and again while four processes append, locking the game as
    commands do or lock-free: no IntegrityError, and the snapshots end valid and identical to a
    quiet rebuild's."""
    from campaigns.models import Snapshot
    from tests.conftest import new_civilwar_game

    game = new_civilwar_game(people)
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.support.concurrent_writer",
                database_url(),
                str(game.pk),
                str(w),
                "40",
                writers,
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )
        for w in range(4)
    ]
    rebuilds = 0
    try:
        while any(p.poll() is None for p in procs):
            gamelog.rebuild_snapshots(game.pk)
            rebuilds += 1
    finally:
        for p in procs:
            p.communicate(timeout=240)
    assert all(p.returncode == 0 for p in procs)
    assert rebuilds >= 2
    assert Event.objects.filter(game=game, payload__text__startswith="# writer").count() == 4 * 40
    live = list(Snapshot.objects.filter(game=game).order_by("seq").values_list("seq", "state"))
    gamelog.rebuild_snapshots(game.pk)
    assert list(Snapshot.objects.filter(game=game).order_by("seq").values_list("seq", "state")) == live
    from campaigns.turns.gamelog import verify_game

    assert verify_game(game).ok
