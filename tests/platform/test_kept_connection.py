"""A web thread keeps its database connection between requests (DATABASE_CONN_MAX_AGE); one the
server closed meanwhile (a restart: here its backend terminated, as a restart does) is found out
before the next request uses it and replaced, so that request is answered as any other - also
when its first statement is a prepared one (campaigns/prepared.py: the API's token lookup). The
check asks the server only when the socket says something (kriegsbrief/postgresql/base.py)."""

import psycopg
import pytest
from django.db import connection
from knox.models import AuthToken
from rest_framework.test import APIClient

from tests.services import database_url, postgres_only

pytestmark = [postgres_only, pytest.mark.django_db(transaction=True)]


def end_of_request() -> None:
    """What Django does between two requests (the test client leaves it out), on a connection not
    yet at its DATABASE_CONN_MAX_AGE (the test session's may be older: it is not what is tested)."""
    connection.close_at = None
    connection.close_if_unusable_or_obsolete()
    assert connection.connection is not None


def terminate_our_backend() -> int:
    pid = connection.connection.info.backend_pid
    with psycopg.connect(database_url(), autocommit=True) as other:
        assert other.execute("SELECT pg_terminate_backend(%s)", [pid]).fetchone() == (True,)
        # Gone once the server no longer lists it: its socket is closed by then.
        while other.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone():
            pass
    return pid


def test_a_poll_after_the_kept_connection_died_is_answered(game, people):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(people['bob'])[1]}")
    url = f"/api/games/{game.pk}/view/"
    first = client.get(url)
    assert first.status_code == 200
    end_of_request()
    old = terminate_our_backend()
    again = client.get(url)
    assert again.status_code == 200 and again.content == first.content
    assert connection.connection.info.backend_pid != old


def test_a_quiet_kept_connection_is_kept(game):
    connection.ensure_connection()
    kept = connection.connection
    end_of_request()
    assert connection.is_usable() and connection.connection is kept
