"""A worker keeps its database connection between tasks, as the web does between requests, and
replaces one the server dropped (kriegsbrief/celery.py: keep_healthy_connections).

Celery 5.7 closes every connection around every task; each task then paid a handshake and the
server a new backend with cold caches. Real worker, real PostgreSQL: the sessions are read from
pg_stat_activity."""

import pytest
from django.db import connection

from campaigns.turns import commands
from tests.services import needs_redis
from tests.support import dbleaks
from tests.support.games import state_of
from tests.support.workers import Worker, broker, wait_for  # noqa: F401  (the fixture)

pytestmark = [needs_redis, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def worker(broker):
    # Connections kept as deployed (tests/settings.py sets 0 for the test run's own processes).
    w = Worker(env={"DATABASE_CONN_MAX_AGE": "60"})
    yield w
    w.stop()


def play_one_turn(game) -> None:
    """Orders for every side to move, then the umpire closes the turn; waits for the worker."""
    from rules.civilwar import legal_operations

    state = state_of(game)
    number = state.turn.number
    for side in state.turn.sides:
        commands.submit_orders(game.pk, side, legal_operations(state.rules, side)[0], source="api", ready=False)
    commands.close_turn(game.pk, "closed by the umpire")  # queues the adjudication on commit
    assert wait_for(lambda: state_of(game).turn.number == number + 1), f"turn {number} was not adjudicated"


def sessions() -> set:
    """(pid, start) of the other client sessions on the test database (dbleaks' query): the liveness
    heartbeat's come and go (it closes its own after each beat), the worker's kept one stays."""
    with connection.cursor() as cur:
        cur.execute(dbleaks.OTHERS)
        return {(pid, started) for pid, _app, _state, started, _query in cur.fetchall()}


def test_the_worker_adjudicates_turn_after_turn_on_one_kept_connection(game, worker):
    play_one_turn(game)
    after_first = sessions()
    assert after_first, "the worker's connection was closed after its task"
    for _ in range(3):
        play_one_turn(game)
    # The session that was there after the first adjudication is there after the fourth: the same
    # backend (pid and start), not a new one per task.
    assert after_first & sessions()


def test_a_kept_connection_the_server_dropped_is_replaced_before_the_next_task(game, worker):
    play_one_turn(game)
    with connection.cursor() as cur:  # what a database restart does to every kept session
        cur.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
        )
    assert wait_for(lambda: not sessions(), 10)
    play_one_turn(game)
    play_one_turn(game)
    assert state_of(game).turn.number == 4
