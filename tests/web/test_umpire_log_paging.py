"""The umpire's console pages its whole log as the game page does (issue 18): the newest events that
pass the filter, found by keyset from the log's end, so the console runs the same queries and folds
no event whether the log holds ~30 events or 10,000 more, filtered or not; "older events" walks the
filtered log, each event once, the filter kept; the filter's kinds are named in the reader's
language, their values the codes. Counted, not timed."""

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from campaigns.models import Event, Profile
from campaigns.web import present
from tests.support.games import grow_log, legal_red_orders
from tests.support.leaks import counting_folds

pytestmark = pytest.mark.django_db

LONG = 10_000
FILTERS = {"whole": "", "orders": "?kind=orders", "one type": "?kind=turn.opened", "red's": "?audience=side:red"}


def umpire(people) -> Client:
    client = Client()
    client.force_login(people["alice"])
    return client


def measure(client, url) -> tuple[int, int, str | None]:
    """(queries, events folded, the older link) of one page of the console."""
    with counting_folds() as folds, CaptureQueriesContext(connection) as queries:
        res = client.get(url)
    assert res.status_code == 200, res.content[:300]
    assert not any("OFFSET" in q["sql"].upper() for q in queries.captured_queries)
    return len(queries), folds[0], res.context["older_url"]


def lines(res) -> list[int]:
    return [line["number"] for group in res.context["log"] for line in group["lines"]]


def test_the_console_costs_the_same_at_a_short_and_a_long_log(game, people):
    client, url = umpire(people), f"/games/{game.pk}/umpire/"
    client.get(url)  # the session's first request loads what every later one has
    assert Event.objects.filter(game=game).count() <= 40
    short = {name: measure(client, url + query) for name, query in FILTERS.items()}
    assert all(older == "" for _, _, older in short.values())  # all of it on one page
    grow_log(game, LONG, legal_red_orders(game)[0])
    long = {name: measure(client, url + query) for name, query in FILTERS.items()}
    assert {n: m[:2] for n, m in long.items()} == {n: m[:2] for n, m in short.items()}
    assert all(folded == 0 for _, folded, _ in long.values())
    assert long["one type"][2] == ""  # one turn opened: no older page of it
    for name in ("whole", "orders", "red's"):  # an older page costs what the first does
        assert long[name][2], name
        assert measure(client, long[name][2])[:2] == long[name][:2], name


@pytest.mark.parametrize("query", ["", "?kind=orders.submitted&audience=side:blue"])
def test_older_events_walk_the_filtered_log_once(game, people, query):
    grow_log(game, 2 * present.LOG_PAGE + 50, legal_red_orders(game)[0])
    client, url = umpire(people), f"/games/{game.pk}/umpire/"
    wanted = Event.objects.filter(game=game)
    if query:
        wanted = wanted.filter(type="orders.submitted", audience="side:blue")
    seen, pages, res = [], 0, client.get(url + query)
    while True:
        pages += 1
        assert res.status_code == 200
        page = lines(res)
        assert 0 < len(page) <= present.LOG_PAGE
        assert not seen or max(page) < min(seen)  # each page older than the one before
        assert (res.context["latest_url"] != "") == (pages > 1)
        if query:  # the filter is kept on every page, and in the way back to the latest
            assert res.context["log_filter"].query() == {"kind": "orders.submitted", "audience": "side:blue"}
            assert pages == 1 or "kind=orders.submitted" in res.context["latest_url"]
        seen += page
        if not res.context["older_url"]:
            break
        res = client.get(res.context["older_url"])
    assert sorted(seen) == sorted(wanted.values_list("seq", flat=True)) and len(set(seen)) == len(seen)
    assert pages == (3 if not query else 2)


def kinds(html: str) -> dict[str, str]:
    menu = re.search(r'<select name="kind".*?</select>', html, re.S)[0]
    return dict(re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', menu))


def test_the_kinds_are_named_in_the_readers_language(game, people):
    client, url = umpire(people), f"/games/{game.pk}/umpire/"
    english = kinds(client.get(url).content.decode())
    assert english["turn"] == "Turns" and english["turn.opened"] == "· Turn opened"
    assert english["game"] == "The game" and english["game.created"] == "· Game created"
    assert english["civilwar"] == "Rules&#x27; events: Civil War (Гражданская война)"
    assert not any(name == code or "." in name for code, name in english.items() if code)  # no code shown
    Profile.objects.filter(user=people["alice"]).update(language="ru")
    russian = kinds(client.get(url).content.decode())
    assert russian.keys() == english.keys()  # the values stay the codes
    assert russian["turn"] == "Ходы" and russian["turn.opened"] == "· Ход открыт"
    assert russian["civilwar"] == "События правил: Civil War (Гражданская война)"
    filtered = client.get(url, {"kind": "turn.opened"}).content.decode()
    assert '<option value="turn.opened" selected>· Ход открыт</option>' in filtered


def test_a_bad_cursor_on_the_console(game, people):
    grow_log(game, 2 * present.LOG_PAGE + 50, legal_red_orders(game)[0])
    client, url = umpire(people), f"/games/{game.pk}/umpire/"
    assert client.get(url, {"cursor": "forged"}).status_code == 400
    # a cursor of red's log is not the umpire's
    bob = Client()
    bob.force_login(people["bob"])
    reds = bob.get(f"/games/{game.pk}/").context["older_log"]
    assert reds and client.get(url, {"cursor": reds}).status_code == 400
