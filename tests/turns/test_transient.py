"""A task rides out a dropped database connection in-process (campaigns/transient.py): the
connection is really terminated by the server (pg_terminate_backend), as in a restart."""

import psycopg
import pytest
from django.db import OperationalError, connection

from campaigns import transient
from campaigns.turns import commands
from tests.services import database_url, needs_redis, postgres_only
from tests.support.games import state_of

from .test_celery_adjudication import adjudications

pytestmark = [postgres_only, pytest.mark.django_db(transaction=True)]


def _terminate_this_connection():
    connection.ensure_connection()
    pid = connection.connection.info.backend_pid
    with psycopg.connect(database_url(), autocommit=True) as killer:
        killer.execute("SELECT pg_terminate_backend(%s)", [pid])


@needs_redis
def test_adjudication_is_retried_after_the_database_connection_is_lost(game, broker):
    from rules.civilwar import legal_operations

    text = legal_operations(state_of(game).rules, "red")[0]
    commands.submit_orders(game.pk, "red", text, source="api", ready=False)
    commands.close_turn(game.pk, "closed by the umpire")  # queued on Redis; no worker: it is run here
    _terminate_this_connection()
    with pytest.raises(OperationalError):  # the control: the plain call meets the dead connection
        commands.adjudicate(game.pk, 1)
    _terminate_this_connection()
    assert transient.retrying(commands.adjudicate, game.pk, 1, delays=(0.1, 0.2)) is True
    assert adjudications(game) == 1 and state_of(game).turn.number == 2


def test_inside_a_transaction_the_error_is_the_callers(game):
    from django.db import transaction

    calls = []

    def fails():
        calls.append(1)
        raise OperationalError("server closed the connection unexpectedly")

    with pytest.raises(OperationalError), transaction.atomic():
        transient.retrying(fails, delays=(0.1,))
    assert calls == [1]  # not retried: the caller's transaction is lost and must be retried whole
