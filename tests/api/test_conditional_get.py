"""A poller's view is cheap to ask again (issue 18): GET /api/games/<id>/view/ carries an ETag, the
hash of the body as sent, and If-None-Match with it is answered 304 without a body - until what
this viewer sees changes - and without loading the game (issue 34, tests/api/test_cheap_polls.py).
It never changes on what they may not see: the other side's draft orders leave it as it was
(the differential leak test, tests/platform/test_hidden_activity.py, checks the header against the
body for every seat's fetch). A request is answered from a fixed number of queries, whatever the
viewer."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from knox.models import AuthToken
from rest_framework.test import APIClient

from api import serializers as s
from campaigns import prepared
from campaigns.models import Profile
from campaigns.turns import commands, gamelog, viewing
from tests.support.games import legal_red_orders

pytestmark = pytest.mark.django_db


def token_client(user) -> APIClient:
    """A client as the bench's players and real apps are: a knox token, no session."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(user)[1]}")
    return client


def view(client, game, etag=None):
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    return client.get(f"/api/games/{game.pk}/view/", **headers)


def test_the_view_is_not_sent_again_until_what_the_viewer_sees_changes(game, people):
    carol = token_client(people["carol"])  # blue: red is to move in turn 1
    first = view(carol, game)
    assert first.status_code == 200 and first["ETag"]
    again = view(carol, game, first["ETag"])
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == first["ETag"]

    # Red's draft orders are red's secret: blue's view, and so its ETag, stay as they were.
    assert commands.submit_orders(game.pk, "red", legal_red_orders(game)[0], source="api", ready=False).accepted
    assert view(carol, game, first["ETag"]).status_code == 304
    assert view(carol, game).content == first.content

    # Red ready: the turn closes, which blue sees.
    commands.set_ready(game.pk, "red", True)
    changed = view(carol, game, first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    assert changed.json()["turn"]["number"] != first.json()["turn"]["number"] or (
        changed.json()["turn"]["status"] != first.json()["turn"]["status"]
    )


def test_an_etag_is_the_viewers_own(game, people):
    """Red and blue do not share ETags (their bodies differ); red's is red's in any language its
    view is the same in (the view holds no words: its ETag follows the body, not the language)."""
    bob, carol = token_client(people["bob"]), token_client(people["carol"])
    red, blue = view(bob, game), view(carol, game)
    assert red["ETag"] != blue["ETag"]
    assert view(carol, game, red["ETag"]).status_code == 200
    Profile.objects.filter(user=people["bob"]).update(language="ru")
    russian = view(bob, game)
    assert (russian["ETag"] == red["ETag"]) == (russian.content == red.content)


def test_the_map_and_the_game_answer_if_none_match_too(game, people):
    bob = token_client(people["bob"])
    for url in (f"/api/games/{game.pk}/", f"/api/games/{game.pk}/map.svg"):
        first = bob.get(url)
        assert first.status_code == 200, url
        assert bob.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304, url


def test_a_poll_costs_three_statements_and_a_stranger_gets_404(game, people, monkeypatch):
    """Three statements (two for a 304), each prepared (campaigns/prepared.py), none compiled by the ORM: the token
    with its user and the user's profile, for the language (api/tokens.py: knox's scan of the
    user's other tokens for expired ones is the sweep's now), the seat with its game and campaign,
    and the snapshot with the events after it. Under contention each round trip waits to be
    scheduled again, so their number is the poll's latency, and the ORM's compile of the first two
    was about half a poll's CPU (issue 18). One who holds no seat gets the 404 of a game that does
    not exist."""
    bob = token_client(people["bob"])
    view(bob, game)
    statements = []
    run = prepared.fetchall
    monkeypatch.setattr(prepared, "fetchall", lambda sql, params: statements.append(sql) or run(sql, params))
    with CaptureQueriesContext(connection) as queries:
        sent = view(bob, game)
        assert sent.status_code == 200
    assert len(queries) == 0, [q["sql"][:120] for q in queries.captured_queries]
    assert len(statements) == 3, [sql[:120] for sql in statements]
    # Asked again with its ETag: two, the token's and the seat's with the heads of what red may see
    # (a light one: the seat's and the game's names), and no load (tests/api/test_cheap_polls.py).
    statements.clear()
    with CaptureQueriesContext(connection) as queries:
        assert view(bob, game, sent["ETag"]).status_code == 304
    assert len(queries) == 0, [q["sql"][:120] for q in queries.captured_queries]
    assert len(statements) == 2, [sql[:120] for sql in statements]
    assert "campaigns_snapshot" not in " ".join(statements)
    dave = token_client(people["dave"])
    stranger, missing = view(dave, game), dave.get("/api/games/999999/view/")
    huge = dave.get(f"/api/games/{2**70}/view/")
    assert stranger.status_code == missing.status_code == huge.status_code == 404
    assert stranger.content == missing.content == huge.content


def test_the_shared_serializer_answers_as_a_new_one_would(game, people):
    """api.serializers.represent keeps one serializer per class for every request (DRF makes its
    fields again for each new one): what it gives is what a fresh serializer gives, for each viewer,
    also after another viewer's view went through it."""
    state = gamelog.load(game).state
    for seat in game.seats.all():
        view = viewing.game_view(game, state, viewing.viewer_of_seat(seat))
        assert s.represent(s.GameViewSerializer, view) == s.GameViewSerializer(view).data
