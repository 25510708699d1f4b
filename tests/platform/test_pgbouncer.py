"""The whole application through a real PgBouncer in transaction mode (issue 32).

Behind PgBouncer a client's transactions go to whichever server connection is free, so nothing may
outlive a transaction on the server: with psycopg's prepared statements ("prepared statement
_pg3_N does not exist" in mail claims and adjudication) and Django's server-side cursors
(``QuerySet.iterator()`` in the events list and the turn history: most such requests answered 500)
it half worked. ``DATABASE_PGBOUNCER=true`` turns both off (kriegsbrief/settings.py).

Here gunicorn (as deployed), a Celery worker adjudicating and sending mail to an SMTP sink, and a
player's pages and API calls all go through one PgBouncer with a pool smaller than its clients,
while other readers poll the events list, the view and the turn history: every answer is a
success, every turn is adjudicated once, every report is delivered.
"""

from __future__ import annotations

import http.cookiejar
import json
import re
import threading
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from django.db import connection

from campaigns.models import Event
from rules import catalog
from rules.civilwar import legal_operations
from tests.conftest import PASSWORD, new_civilwar_game
from tests.services import REQUIRE, needs_redis
from tests.support.games import state_of
from tests.support.pgbouncer import PGBOUNCER, Gunicorn, PgBouncer, call
from tests.support.workers import Worker, _process_env, wait_for_adjudication

needs_pgbouncer = pytest.mark.skipif(
    not REQUIRE and not Path(PGBOUNCER).exists(), reason="needs PgBouncer (Debian's pgbouncer)"
)
pytestmark = [needs_redis, needs_pgbouncer, pytest.mark.django_db(transaction=True)]
TURNS = 4


@pytest.fixture
def through_pgbouncer(broker, smtp, settings):
    """gunicorn and a worker (every queue) whose database is PgBouncer, with mail to the sink."""
    bouncer = PgBouncer(pool_size=3)
    env = _process_env(
        DATABASE_URL=bouncer.url(connection.settings_dict["NAME"]),
        DATABASE_PGBOUNCER="true",
        DATABASE_CONN_MAX_AGE="60",  # kept client connections, as deployed
        EMAIL_URL=f"smtp://{settings.EMAIL_HOST}:{settings.EMAIL_PORT}",
    )
    web, worker = Gunicorn(env), Worker(env={k: env[k] for k in ("DATABASE_URL", "DATABASE_PGBOUNCER", "EMAIL_URL")})
    yield web
    worker.stop()
    web.stop()
    bouncer.stop()


def api_token(web, username) -> str:
    body = json.dumps({"username": username, "password": PASSWORD}).encode()
    status, answer = call(f"{web.base}/api/auth/token/", "POST", body, {"Content-Type": "application/json"})
    assert status == 200, answer
    return json.loads(answer)["token"]


def web_session(web, username) -> urllib.request.OpenerDirector:
    """A browser's session: the login form with its CSRF token, then its cookie."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    form = opener.open(f"{web.base}/accounts/login/", timeout=60).read().decode()
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
    data = urllib.parse.urlencode({"username": username, "password": PASSWORD, "csrfmiddlewaretoken": csrf})
    opener.open(f"{web.base}/accounts/login/", data.encode(), timeout=60)
    assert any(c.name == "sessionid" for c in jar)
    return opener


class Readers:
    """Other viewers polling while the game is played: every answer's status is kept."""

    def __init__(self, web, game, token, session):
        self.statuses: list[tuple[str, int]] = []
        self.stop = threading.Event()
        auth = {"Authorization": f"Token {token}"}
        self.api = [f"{web.base}/api/games/{game.pk}/events/?limit=100", f"{web.base}/api/games/{game.pk}/view/"]
        self.threads = [threading.Thread(target=self._api, args=(url, auth)) for url in self.api]
        self.threads.append(threading.Thread(target=self._history, args=(web, game, session)))
        for t in self.threads:
            t.start()

    def _api(self, url, auth):
        while not self.stop.is_set():
            self.statuses.append((url, call(url, headers=auth)[0]))

    def _history(self, web, game, session):
        pages = [f"{web.base}/games/{game.pk}/turns/1/", f"{web.base}/games/{game.pk}/"]
        while not self.stop.is_set():
            for url in pages:
                try:
                    self.statuses.append((url, session.open(url, timeout=60).status))
                except urllib.error.HTTPError as exc:
                    self.statuses.append((url, exc.code))

    def finish(self):
        self.stop.set()
        for t in self.threads:
            t.join(60)


def orders_for(game) -> tuple[str, str]:
    state = state_of(game)
    side = state.turn.sides[0]
    if state.turn.kind == "orders":
        return side, legal_operations(state.rules, side)[0]
    return side, catalog.get("civilwar").default_orders(state.rules, side, state.turn.kind)


def play(web, game, tokens, number):
    """The side to move orders by the API, ready; the worker adjudicates."""
    side, text = orders_for(game)
    status, answer = call(
        f"{web.base}/api/games/{game.pk}/orders/",
        "POST",
        json.dumps({"text": text, "ready": True}).encode(),
        {"Content-Type": "application/json", "Authorization": f"Token {tokens[side]}"},
    )
    assert status == 201, answer
    wait_for_adjudication(game, number, timeout=90)


def test_pages_api_mail_and_adjudication_through_pgbouncer(people, smtp, through_pgbouncer):
    web = through_pgbouncer
    game = new_civilwar_game(people)
    tokens = {"red": api_token(web, "bob"), "blue": api_token(web, "carol")}
    play(web, game, tokens, 1)  # turn 1 published: its history page is there to read
    readers = Readers(web, game, tokens["red"], web_session(web, "bob"))
    try:
        for number in range(2, TURNS + 1):
            play(web, game, tokens, number)
    finally:
        readers.finish()
    failed = [(what, status) for what, status in readers.statuses if status >= 400]
    assert not failed, failed[:10]
    assert len(readers.statuses) > 3 * TURNS  # the readers did read, throughout
    published = Event.objects.filter(game=game, type="turn.published").values_list("turn", flat=True)
    assert sorted(published) == list(range(1, TURNS + 1))  # each turn adjudicated once
    deadline_ok = _wait(lambda: smtp.to("bob@example.org") and smtp.to("carol@example.org"))
    assert deadline_ok, "no report reached the players"


def _wait(predicate, timeout=60.0):
    from tests.support.workers import wait_for

    return wait_for(predicate, timeout)
