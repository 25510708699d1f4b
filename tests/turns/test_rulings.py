"""A scripted umpired Kriegspiel game end to end through the API: both sides order, the results
await the umpire, who amends one side's orders, writes narrative for each side through the
umpire's desk and publishes; each side's report says what that side may know, and only that."""

import pytest
from rest_framework.test import APIClient

from campaigns.models import Campaign, Event, OutboxMail, Seat
from campaigns.turns import creation, gamelog
from campaigns.turns.gamelog import verify_game

pytestmark = pytest.mark.django_db(transaction=True)


def client_for(user) -> APIClient:
    c = APIClient()
    c.force_login(user)
    return c


@pytest.fixture
def umpired(people):
    game = creation.create_game(
        campaign=Campaign.objects.create(name="Kriegspiel"),
        name="KS umpired",
        ruleset="kriegspiel",
        scenario="ks_farm",
        settings={"require_approval": True},
        seats=[
            {"role": "umpire", "user": people["alice"], "email": "alice@example.org"},
            {"role": "player", "side": "red", "user": people["bob"], "email": "bob@example.org"},
            {"role": "player", "side": "blue", "user": people["carol"], "email": "carol@example.org"},
        ],
        operator=True,
    )
    return game, client_for(people["alice"]), client_for(people["bob"]), client_for(people["carol"])


def order(client, game, text):
    resp = client.post(f"/api/games/{game.pk}/orders/", {"text": text, "ready": True}, format="json")
    assert resp.status_code == 201, resp.json()
    return resp


def approve(alice, game, turn):
    resp = alice.post(f"/api/games/{game.pk}/approve/", {"turn": turn}, format="json")
    assert resp.status_code == 200, resp.json()


def test_umpire_amends_writes_narrative_and_publishes(umpired):
    game, alice, bob, carol = umpired
    order(bob, game, "hold")
    order(carol, game, "hold")
    approve(alice, game, 1)  # the deployment
    order(bob, game, "split foot1 2 as sappers nearest 16,3\nmine sappers at 16.5,3")
    order(carol, game, "move horse to 24,258")
    state = gamelog.load(game.pk).state
    assert state.turn.status == "adjudicated"  # awaiting the umpire
    # players see nothing of turn 2's results yet
    assert not [
        e
        for e in bob.get(f"/api/games/{game.pk}/events/?limit=200").json()["results"]
        if e["turn"] == 2 and e["type"].startswith("kriegspiel.")
    ]
    # the umpire sees red's hidden work in the pending results
    pending = [p for p in state.pending if p["type"] == "kriegspiel.works" and p["payload"]["side"] == "red"]
    assert pending[0]["payload"]["started"][0]["kind"] == "mine"
    # amend one result: blue's horse was to go only half as far
    resp = alice.post(
        f"/api/games/{game.pk}/amend/",
        {"turn": 2, "orders": {"blue": "move horse to 24,270"}, "reason": "blue's order was misread"},
        format="json",
    )
    assert resp.status_code == 200 and resp.json() == {"accepted": True}
    # narrative for each side, and a wrong ruling refused line by line with nothing applied
    bad = alice.post(f"/api/games/{game.pk}/ruling/", {"text": "note red: fine\nreveal w9 because no"}, format="json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["line"] == 2
    assert "no work 'w9'" in bad.json()["errors"][0]["message"]
    resp = alice.post(
        f"/api/games/{game.pk}/ruling/",
        {"text": "note red: RED-NOTE your sappers dig unseen\nnote blue: BLUE-NOTE dust rises to the south"},
        format="json",
    )
    assert resp.status_code == 200 and resp.json() == {"accepted": True, "events": 2}
    assert bob.post(f"/api/games/{game.pk}/ruling/", {"text": "note all: x"}, format="json").status_code == 403
    approve(alice, game, 2)
    state = gamelog.load(game.pk).state
    horse = [state.rules["figures"][f"blue:c{k}"]["y"] for k in range(1, 7)]
    assert min(horse) == pytest.approx(270.0, abs=0.01)  # the amended order counted
    assert Event.objects.filter(game=game, type="results.voided").count() == 1
    # each side's report of turn 2 carries its own narrative only; the umpire's carries both
    reports = {
        s.side or s.role: OutboxMail.objects.get(seat=s, kind="report", subject__contains="turn 2").body
        for s in Seat.objects.filter(game=game)
    }
    assert "RED-NOTE" in reports["red"] and "BLUE-NOTE" not in reports["red"]
    assert "BLUE-NOTE" in reports["blue"] and "RED-NOTE" not in reports["blue"]
    assert "RED-NOTE" in reports["umpire"] and "BLUE-NOTE" in reports["umpire"]
    # red's report tells red of its mine; blue's report says nothing of it
    # (below "How to answer by mail" every report quotes the order language, mines included)
    news = {side: text.split("How to answer by mail")[0] for side, text in reports.items()}
    assert "started a mine" in news["red"] and "mine" not in news["blue"].lower()
    # and the views: red's notes and works; blue sees neither
    red_view = bob.get(f"/api/games/{game.pk}/view/").json()
    blue_view = carol.get(f"/api/games/{game.pk}/view/").json()
    assert "RED-NOTE" in str(red_view) and "RED-NOTE" not in str(blue_view)
    assert "mine" in str(red_view) and "'mine'" not in str(blue_view)
    # the log replays: hash chain, snapshots and re-adjudication from the revealed seeds (amendment included)
    report = verify_game(game)
    assert report.ok, report


def test_the_desk_form_on_the_umpire_page(umpired, people, client):
    from tests.conftest import PASSWORD

    game, alice, bob, carol = umpired
    bad = alice.post(f"/api/games/{game.pk}/ruling/", {"text": "note red: too early"}, format="json")
    assert "rules on a game in play" in bad.json()["errors"][0]["message"]  # still deploying
    order(bob, game, "hold")
    order(carol, game, "hold")
    approve(alice, game, 1)
    client.login(username="alice", password=PASSWORD)
    page = client.get(f"/games/{game.pk}/umpire/")
    assert page.status_code == 200 and b"Umpire's desk" in page.content and b"reveal blue:w3 because" in page.content
    bad = client.post(f"/games/{game.pk}/umpire/", {"action": "ruling", "ruling-text": "kill red:i1"})
    assert bad.status_code == 200 and b"because &lt;reason&gt;" in bad.content
    assert not Event.objects.filter(game=game, type="kriegspiel.ruling").exists()
    ok = client.post(f"/games/{game.pk}/umpire/", {"action": "ruling", "ruling-text": "note red: RED-ONLY rain"})
    assert ok.status_code == 302
    client.logout()
    client.login(username="bob", password=PASSWORD)
    assert b"RED-ONLY rain" in client.get(f"/games/{game.pk}/").content
    client.logout()
    client.login(username="carol", password=PASSWORD)
    assert b"RED-ONLY" not in client.get(f"/games/{game.pk}/").content
    assert client.get(f"/games/{game.pk}/umpire/").status_code in (403, 404)
