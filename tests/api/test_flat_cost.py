"""The work of answering a player does not grow with the log (issue 18, item 7): my games (API
and web), a game with my view, and a page of events, asked when the game's log is short and again
when it holds 10,000 more events, run the same number of queries and fold the same number of
events; pages of events are found by the (game, seq) index (keyset), never by OFFSET. A poll of
the view, the game or the map with the ETag last sent is answered 304 from the same small number
of queries at either length, folding nothing (issue 34). Counted, not timed."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns.models import Event
from tests.support.api import client_for
from tests.support.games import grow_log, legal_red_orders
from tests.support.leaks import counting_folds

pytestmark = pytest.mark.django_db

LONG = 10_000


@pytest.fixture
def folds():
    """Counts the events the event store folds (every load and every past state goes through it)."""
    with counting_folds() as count:
        yield count


def requests(client, game, cursor: str | None) -> dict[str, str]:
    urls = {
        "api list": "/api/games/",
        "api game": f"/api/games/{game.pk}/",
        "api view": f"/api/games/{game.pk}/view/",
        "events first page": f"/api/games/{game.pk}/events/?limit=5",
        "web my games": "/",
    }
    if cursor:
        urls["events resumed"] = f"/api/games/{game.pk}/events/?limit=5&cursor={cursor}"
    return urls


POLLED = {"api view poll": "view/", "api game poll": "", "map poll": "map.svg"}


def measure(client, game, folds, cursor=None) -> dict[str, tuple[int, int]]:
    out = {}
    for name, url in requests(client, game, cursor).items():
        folds[0] = 0
        with CaptureQueriesContext(connection) as queries:
            res = client.get(url)
        assert res.status_code == 200, (name, res.content[:300])
        if name.startswith("events"):
            assert not any("OFFSET" in q["sql"].upper() for q in queries.captured_queries), name
        out[name] = (len(queries), folds[0])
    for name, path in POLLED.items():  # as a poller asks again with the ETag it was sent
        url = f"/api/games/{game.pk}/{path}"
        etag = client.get(url)["ETag"]
        folds[0] = 0
        with CaptureQueriesContext(connection) as queries:
            res = client.get(url, HTTP_IF_NONE_MATCH=etag)
        assert res.status_code == 304, (name, res.content[:300])
        out[name] = (len(queries), folds[0])
    return out


def last_cursor(client, game) -> str:
    """The cursor at the end of the viewer's log, by following the pages."""
    page = client.get(f"/api/games/{game.pk}/events/?limit=500").json()
    while page["next"]:
        page = client.get(page["next"]).json()
    return page["cursor"]


def test_answers_cost_the_same_at_a_short_and_a_long_log(game, people, folds):
    clients = {who: client_for(people[who]) for who in ("bob", "alice")}  # a player and the umpire
    assert Event.objects.filter(game=game).count() <= 40
    short = {who: measure(c, game, folds, last_cursor(c, game)) for who, c in clients.items()}
    grow_log(game, LONG, legal_red_orders(game)[0])
    assert Event.objects.filter(game=game).count() >= LONG
    # The page after the end of a 10,000-event log (what a poller asks) is as cheap as after the
    # end of a short one; so is everything else.
    long = {who: measure(c, game, folds, last_cursor(c, game)) for who, c in clients.items()}
    assert long == short
    assert all(folded == 0 for answers in long.values() for _, folded in answers.values()), long
