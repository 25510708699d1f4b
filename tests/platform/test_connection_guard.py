"""The guard that fails a test leaving a session on the test database (tests/conftest.py,
tests/support/dbleaks.py) sees one: another connection's session is reported until it is closed."""

import psycopg
import pytest

from tests.services import database_url, postgres_only
from tests.support import dbleaks

pytestmark = [postgres_only, pytest.mark.django_db(transaction=True)]


def test_a_session_left_open_is_seen_until_it_is_closed():
    assert dbleaks.leaked() == []
    left_open = psycopg.connect(database_url())
    try:
        assert [row[0] for row in dbleaks.leaked(grace=0.2)] == [left_open.info.backend_pid]
    finally:
        left_open.close()
    assert dbleaks.leaked() == []  # gone within the grace a closed backend takes
