"""16 processes append to one game at once: nothing lost, nothing duplicated, no gap."""
import multiprocessing
import os

import pytest
from django.db import connection

from campaigns.models import Event
from tests.services import postgres_only

WRITERS, EACH = 16, 25


def _writer(db_url: str, game_id: int, writer: int, each: int) -> int:
    os.environ["DATABASE_URL"] = db_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kriegsbrief.settings")
    import django

    django.setup()
    from campaigns import eventstore
    from campaigns.eventstore import Draft
    from rules.core.protocol import RuleEvent

    conflicts = 0
    for i in range(each):
        def build(stream, i=i):
            return [Draft(1, RuleEvent("orders.submitted", {"turn": 1, "side": "red", "source": "test",
                                                            "text": f"# writer {writer} item {i}"}, audience="side:red"))]
        for _ in range(1000):
            try:
                eventstore.append(eventstore.load(game_id), build(None))
                break
            except eventstore.ConcurrencyConflict:
                conflicts += 1
    return conflicts


def _db_url() -> str:
    s = connection.settings_dict
    return f"postgres://{s['USER']}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_sixteen_processes_append_to_one_game(people):
    from tests.conftest import new_civilwar_game

    game = new_civilwar_game(people)
    start = game.head_seq
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(WRITERS) as pool:
        conflicts = pool.starmap(_writer, [(_db_url(), game.pk, w, EACH) for w in range(WRITERS)])
    seqs = list(Event.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, start + WRITERS * EACH + 1))
    texts = [t for t in Event.objects.filter(game=game, seq__gt=start).values_list("payload__text", flat=True)]
    assert sorted(texts) == sorted(f"# writer {w} item {i}" for w in range(WRITERS) for i in range(EACH))
    assert sum(conflicts) > 0, "the writers never raced: the test proved nothing"
    from campaigns.verify import verify_game

    game.refresh_from_db()
    assert verify_game(game).ok
