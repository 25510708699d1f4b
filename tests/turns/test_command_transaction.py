"""A command inside a caller's transaction takes no savepoint of its own (mail applies a batch
in one transaction, a savepoint per message): a refusal still leaves that transaction usable
and writes nothing, and a failure after a write is undone with the caller's transaction."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from campaigns.models import Event
from campaigns.turns import commands

pytestmark = pytest.mark.django_db(transaction=True)


def test_refused_orders_leave_the_callers_transaction_usable(game):
    before = Event.objects.filter(game=game).count()
    with transaction.atomic():
        with pytest.raises(commands.TurnError, match="blue has no orders to give"):
            commands.submit_orders(game.pk, "blue", "pass", source="web")
        with pytest.raises(commands.TurnError, match="send your orders before"):
            commands.set_ready(game.pk, "red", True)
        # Still usable: the next command in the same transaction goes through.
        result = commands.submit_orders(game.pk, "red", "pass", source="web", ready=False)
    assert result.accepted
    assert Event.objects.filter(game=game).count() == before + 1


def test_no_savepoint_inside_a_callers_transaction(game):
    with transaction.atomic(), CaptureQueriesContext(connection) as ctx:
        assert commands.submit_orders(game.pk, "red", "pass", source="web", ready=False).accepted
    assert not [q for q in ctx.captured_queries if "SAVEPOINT" in q["sql"].upper()]


def test_a_failure_after_the_append_is_undone_with_the_callers_transaction(game, monkeypatch):
    before = Event.objects.filter(game=game).count()

    def broken(stream):
        raise RuntimeError("after the append")

    monkeypatch.setattr(commands, "_close_if_due", broken)
    with pytest.raises(RuntimeError), transaction.atomic():
        commands.submit_orders(game.pk, "red", "pass", source="web", ready=False)
    assert Event.objects.filter(game=game).count() == before
