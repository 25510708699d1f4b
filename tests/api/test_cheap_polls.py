"""Cheaper polls (issue 34, point 3): a conditional GET of a game's view, the game or its map whose
ETag is the one last sent is answered 304 before anything of the game is loaded, folded or
rendered: by the ETag kept for what the body is made from (api/views.py ``SentETags``), keyed by
the viewer, their language, the game's row, the rule set's code and the heads of the parts of the
log that viewer's view is folded from (``viewing.Seated.heads``). Never another side's private
events: red's key, ETag and work stay the same while blue orders in secret. Everything the viewer
would see change moves the key; the ETag stays the body's own hash, so it still says nothing the
body does not."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient

from api import views
from campaigns import prepared
from campaigns.log.eventstore import EventStore
from campaigns.models import Profile, Seat
from campaigns.turns import commands, deadlines, failures, gamelog, viewing
from rules import catalog
from rules.civilwar import legal_operations
from tests.log.test_rows_read_by_viewers import hidden_drafts, rows_read
from tests.log.test_rows_read_by_viewers import statements as recorded_statements
from tests.support.api import seat_observer
from tests.support.games import play_one

pytestmark = pytest.mark.django_db


def token_client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(user)[1]}")
    return client


def get(client, url, etag=None):
    return client.get(url, **({"HTTP_IF_NONE_MATCH": etag} if etag else {}))


@pytest.fixture
def loads(monkeypatch):
    """Counts the event store's loads (every fold of a game's state starts with one): through
    ``gamelog.load`` (the store's bound method, which everything calls) or the store itself."""
    count = [0]
    real, bound = EventStore.load, gamelog.load

    def load(self, *args, **kwargs):
        count[0] += 1
        return real(self, *args, **kwargs)

    def load_bound(*args, **kwargs):
        count[0] += 1
        return bound(*args, **kwargs)

    monkeypatch.setattr(EventStore, "load", load)
    monkeypatch.setattr(gamelog, "load", load_bound)
    return count


@pytest.fixture
def statements(monkeypatch):
    """The prepared statements run (the token's, the seat's, the load's), by their SQL."""
    seen: list[str] = []
    run = prepared.fetchall
    monkeypatch.setattr(prepared, "fetchall", lambda sql, params: seen.append(sql) or run(sql, params))
    return seen


def blue_to_move(game) -> None:
    """Red's turn 1 played and adjudicated (as the worker would once the command commits): blue moves."""
    play_one(game)
    commands.adjudicate(game.pk, gamelog.load(game.pk).state.turn.number)
    assert gamelog.load(game.pk).state.turn.sides == ("blue",) or list(gamelog.load(game.pk).state.turn.sides) == [
        "blue"
    ]


URLS = ("view/", "", "map.svg")


@pytest.mark.parametrize("path", URLS, ids=["view", "game", "map"])
def test_blue_ordering_in_secret_leaves_reds_etag_and_reds_304_costs_no_load(game, people, loads, statements, path):
    blue_to_move(game)
    url = f"/api/games/{game.pk}/{path}"
    bob = token_client(people["bob"])
    first = get(bob, url)
    assert first.status_code == 200 and first["ETag"]
    red_heads = viewing.seated_in(game.pk, people["bob"]).heads

    state = gamelog.load(game.pk).state
    for text in legal_operations(state.rules, "blue")[:3]:  # blue's drafts, each private to blue
        assert commands.submit_orders(game.pk, "blue", text, source="api", ready=False).accepted
    assert viewing.seated_in(game.pk, people["bob"]).heads == red_heads  # red's key did not move

    loads[0], statements[:] = 0, []
    with CaptureQueriesContext(connection) as queries:
        again = get(bob, url, first["ETag"])
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == first["ETag"]
    assert loads[0] == 0  # answered without loading (so without folding) the game
    assert len(queries) == (1 if path == "" else 0), [q["sql"][:120] for q in queries.captured_queries]  # roster
    assert len(statements) == 2, [sql[:120] for sql in statements]  # the token's, the seat's with its heads
    if path == "map.svg":
        assert again["Cache-Control"] == first["Cache-Control"]
    # and the body is indeed the same (this one loads)
    assert get(bob, url).content == first.content

    # Blue ready: the turn closes, which red sees (the map shows only the board, which stays).
    commands.set_ready(game.pk, "blue", True)
    changed = get(bob, url, first["ETag"])
    if path == "map.svg":
        assert changed.status_code == 304
    else:
        assert changed.status_code == 200 and changed["ETag"] != first["ETag"]


def test_what_red_sees_change_moves_the_key(game, people, loads):
    """A deadline moved, a turn closed, a failed adjudication (an umpire's event, which holds the
    turn every seat sees), a seat changed: each answered 200 with a new ETag, never a stale 304."""
    bob, url = token_client(people["bob"]), f"/api/games/{game.pk}/view/"

    def poll_after(change):
        before = get(bob, url)
        assert get(bob, url, before["ETag"]).status_code == 304
        change()
        after = get(bob, url, before["ETag"])
        assert after.status_code == 200 and after["ETag"] != before["ETag"], change.__name__
        return after.json()

    def deadline_moved():
        deadlines.set_deadline(game.pk, game.turn_number, timezone.now() + timedelta(days=3), "more time")

    assert poll_after(deadline_moved)["turn"]["deadline"]

    def turn_closed():
        play_one(game)  # red's orders, ready

    assert poll_after(turn_closed)["turn"]["status"] == "closed"

    def adjudication_failed():  # appended for the umpire's eyes only
        assert failures.record(game.pk, 1, RuntimeError("the rules raised"))

    assert poll_after(adjudication_failed)["turn"]["status"] == "adjudication_failed"

    def seat_changed():
        Seat.objects.filter(game=game, user=people["bob"]).update(role=Seat.Role.OBSERVER, side="")

    assert poll_after(seat_changed)["viewer"]["role"] == "observer"


def test_language_and_the_rules_code_are_in_the_key(game, people, loads, monkeypatch):
    """The map is drawn in the reader's language: a new language, a new ETag. The view holds no
    words: its key moves (one load), its ETag does not. A new version of the rule set's code (a
    deploy) is looked at again too."""
    bob = token_client(people["bob"])
    view_url, map_url = f"/api/games/{game.pk}/view/", f"/api/games/{game.pk}/map.svg"
    view, svg = get(bob, view_url), get(bob, map_url)
    Profile.objects.filter(user=people["bob"]).update(language="ru")
    loads[0] = 0
    russian = get(bob, map_url, svg["ETag"])
    assert russian.status_code == 200 and russian["ETag"] != svg["ETag"]
    assert get(bob, view_url, view["ETag"]).status_code == 304
    assert loads[0] == 2  # each looked at again once
    assert get(bob, view_url, view["ETag"]).status_code == 304 and loads[0] == 2  # and then kept

    code_version = views._rules_code_version(game.ruleset)
    assert code_version == catalog.get(game.ruleset).version
    monkeypatch.setattr(views, "_rules_code_version", lambda ruleset: code_version + 1)
    assert get(bob, view_url, view["ETag"]).status_code == 304
    assert loads[0] == 3


def test_each_viewer_has_a_key_of_their_own(game, people, loads):
    """The umpire's key is the whole log's head (they see it all); an observer's has no side's part;
    nobody's ETag answers for another's view."""
    seat_observer(game, people["dave"])
    Seat.objects.filter(game=game, user=people["dave"]).update(status=Seat.Status.ACTIVE)
    found = {who: viewing.seated_in(game.pk, people[who]) for who in ("alice", "bob", "carol", "dave")}
    assert all(found.values()), found
    heads = {who: f.heads for who, f in found.items()}
    assert heads["alice"][0] and heads["alice"][1:] == (None, None, None)  # the whole log's head only
    assert heads["bob"][0] is None and heads["bob"][1] and heads["bob"][3]
    assert heads["bob"][1] == heads["carol"][1] == heads["dave"][1]  # the public part
    assert heads["dave"][2] is None
    clients = {who: token_client(people[who]) for who in found}
    url = f"/api/games/{game.pk}/view/"
    etags = {who: get(c, url)["ETag"] for who, c in clients.items()}
    for who, c in clients.items():
        for other, etag in etags.items():
            if etag != etags[who]:
                assert get(c, url, etag).status_code == 200, (who, other)


def test_the_browsable_api_is_not_answered_from_the_kept_etags(game, people, loads):
    """Its HTML holds a CSRF token and the user: its ETag is the hash of each body as made."""
    bob, url = token_client(people["bob"]), f"/api/games/{game.pk}/view/"
    html = bob.get(url, HTTP_ACCEPT="text/html")
    assert html.status_code == 200 and html["Content-Type"].startswith("text/html")
    loads[0] = 0
    assert bob.get(url, HTTP_ACCEPT="text/html", HTTP_IF_NONE_MATCH=html["ETag"]).status_code in (200, 304)
    assert loads[0] == 1


@pytest.mark.parametrize("generic", [False, True], ids=["custom plans", "generic plans"])
def test_reds_304_reads_as_many_event_rows_whatever_blue_hid(game, people, generic):
    """The poll's statements under EXPLAIN ANALYZE (as tests/log/test_rows_read_by_viewers.py
    counts them): the heads are found by the index from the end, one row each, with none or 2,000
    private drafts of blue's at the head of the log."""
    blue_to_move(game)
    bob, url = token_client(people["bob"]), f"/api/games/{game.pk}/view/"
    etag = get(bob, url)["ETag"]

    def rows() -> list[int]:
        # Statistics as the server keeps them (a test database's may be stale or absent, and a
        # planner that thinks the log is empty scans it all: 48 rows once, in a busy test run)
        with connection.cursor() as cur:
            cur.execute("ANALYZE campaigns_event")
        with recorded_statements() as recorded:
            assert get(bob, url, etag).status_code == 304
        return [n for n, _, _ in rows_read(recorded, generic)]

    quiet = rows()
    hidden_drafts(game, 2000)
    assert rows() == quiet and sum(quiet) <= 3, quiet  # public, red's and the umpire's heads
