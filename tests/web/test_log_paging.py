"""The game page shows the latest events of the viewer's log and links to older ones (issue 18): the
page is found by keyset from the log's end, so it runs the same queries and folds no event whether
the log holds ~30 events or 10,000 more; following "older events" walks the viewer's whole log,
each event once, in English and in Russian. Counted, not timed."""

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from campaigns.models import Event, Profile
from campaigns.web import present
from campaigns.web.access import load_seen
from tests.support.games import grow_log, legal_red_orders
from tests.support.leaks import counting_folds

pytestmark = pytest.mark.django_db

LONG = 10_000


def web(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def measure(client, url) -> tuple[int, int, str]:
    """(queries, events folded, the older link) of one page."""
    with counting_folds() as folds, CaptureQueriesContext(connection) as queries:
        res = client.get(url)
    assert res.status_code == 200, res.content[:300]
    assert not any("OFFSET" in q["sql"].upper() for q in queries.captured_queries)
    return len(queries), folds[0], res.context["older_log"]


def test_the_game_page_costs_the_same_at_a_short_and_a_long_log(game, people):
    clients = {who: web(people[who]) for who in ("bob", "alice")}  # a player and the umpire
    url = f"/games/{game.pk}/"
    for client in clients.values():
        client.get(url)  # the session's first request loads what every later one has
    assert Event.objects.filter(game=game).count() <= 40
    short = {who: measure(c, url) for who, c in clients.items()}
    assert all(older is None for _, _, older in short.values())  # all of it on one page
    grow_log(game, LONG, legal_red_orders(game)[0])
    long = {who: measure(c, url) for who, c in clients.items()}
    assert {who: m[:2] for who, m in long.items()} == {who: m[:2] for who, m in short.items()}
    assert all(folded == 0 for _, folded, _ in long.values())
    # an older page costs what the first does, less the player's COUNT (the cursor numbers it)
    for who, client in clients.items():
        queries, folded, _ = measure(client, f"{url}?cursor={long[who][2]}")
        assert (queries, folded) == (long[who][0] - (who == "bob"), 0), who


def numbers(context) -> list[int]:
    return [line["number"] for group in context["log"] for line in group["lines"]]


@pytest.mark.parametrize("who", ["bob", "alice"])
def test_older_events_walk_the_viewers_whole_log_once(game, people, who):
    grow_log(game, 2 * present.LOG_PAGE + 50, legal_red_orders(game)[0])
    client, url = web(people[who]), f"/games/{game.pk}/"
    whole = numbers({"log": present.log_by_turn(load_seen(game.pk, people[who]))})
    seen, pages, res = [], 0, client.get(url)
    while True:
        pages += 1
        assert res.status_code == 200
        page = numbers(res.context)
        assert 0 < len(page) <= present.LOG_PAGE
        assert not seen or max(page) < min(seen)  # each page older than the one before
        assert ("latest-log" in res.content.decode()) == (pages > 1)
        seen += page
        older = res.context["older_log"]
        if older is None:
            break
        res = client.get(url, {"cursor": older})
    # every line of the whole log, each once
    assert sorted(seen) == sorted(whole) and len(set(seen)) == len(seen)
    assert pages == 3 if who == "alice" else pages >= 2


def test_the_older_link_in_russian_and_a_bad_cursor(game, people):
    grow_log(game, 2 * present.LOG_PAGE + 50, legal_red_orders(game)[0])
    Profile.objects.filter(user=people["bob"]).update(language="ru")
    client, url = web(people["bob"]), f"/games/{game.pk}/"
    first = client.get(url).content.decode()
    assert "Более ранние события" in first and "Последние события" not in first
    older = re.search(r'class="older-log" href="([^"]+)"', first)[1].replace("&amp;", "&")
    second = client.get(older).content.decode()
    assert "Последние события" in second
    bad = client.get(url, {"cursor": "forged"})
    assert bad.status_code == 400 and "Ссылка на более ранние события" in bad.content.decode()
    # a cursor of red's log is not the umpire's
    assert web(people["alice"]).get(older).status_code == 400
    Profile.objects.filter(user=people["bob"]).update(language="en")
    assert "not one this game's page gave you" in client.get(url, {"cursor": "forged"}).content.decode()
