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
    procs = [subprocess.Popen([sys.executable, "-m", "tests.support.concurrent_writer", database_url(), str(game.pk),
                               str(w), str(EACH)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
             for w in range(WRITERS)]
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
