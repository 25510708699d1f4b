"""Nothing a viewer may not see leaks through any GET endpoint."""

import json

import pytest

from tests.support.api import all_strings, client_for, seat_observer
from tests.support.games import legal_red_orders

pytestmark = pytest.mark.django_db

SECRET = "SECRET-RED-PLAN-7f3a"
STANDING = "if attacked at C20 retreat"  # point-specific: no line blue itself is offered reads the same


def everything(client, game) -> tuple[list, list[dict]]:
    """Every GET response body (as JSON or text) and every visible event."""
    bodies = []
    for url in ("/api/games/", "/api/seats/", f"/api/games/{game.pk}/", f"/api/games/{game.pk}/view/"):
        resp = client.get(url)
        assert resp.status_code == 200, url
        bodies.append(resp.json())
    svg = client.get(f"/api/games/{game.pk}/map.svg")
    assert svg.status_code == 200
    bodies.append(svg.content.decode())
    events, url = [], f"/api/games/{game.pk}/events/?limit=7"
    while url:
        page = client.get(url).json()
        bodies.append(page)
        events += page["results"]
        url = page["next"]
    return bodies, events


def assert_no_leak(client, game, allowed_audiences):
    bodies, events = everything(client, game)
    for body in bodies:
        for text in all_strings(body):
            assert SECRET not in text and STANDING not in text, text
        # belt and braces: the raw JSON too
        assert SECRET not in json.dumps(body)
    audiences = {e["audience"] for e in events}
    assert audiences <= allowed_audiences, audiences
    return events


def test_blue_and_observers_never_see_red_orders(approval_game, people, erin, django_capture_on_commit_callbacks):
    game = approval_game
    seat_observer(game, erin)
    bob, carol, alice, observer = (client_for(u) for u in (people["bob"], people["carol"], people["alice"], erin))
    red_text = f"# {SECRET}\n{legal_red_orders(game)[0]}\n{STANDING}"

    def scan():
        assert_no_leak(carol, game, {"public", "side:blue"})
        assert_no_leak(observer, game, {"public"})
        # positive control: red and the umpire do see red's orders
        assert any(SECRET in json.dumps(b) for b in everything(bob, game)[0])
        umpire_events = everything(alice, game)[1]
        assert any(SECRET in json.dumps(e) for e in umpire_events)
        assert "umpire" in {e["audience"] for e in umpire_events}

    assert (
        client_for(people["bob"])
        .post(f"/api/games/{game.pk}/orders/", {"text": red_text, "ready": False}, format="json")
        .status_code
        == 201
    )
    scan()
    with django_capture_on_commit_callbacks(execute=True):
        assert bob.post(f"/api/games/{game.pk}/ready/", {"ready": True}, format="json").json() == {"closed": True}
    scan()  # results await approval: hidden from players
    carol_events = everything(carol, game)[1]
    assert not any(e["type"].startswith("civilwar.") and e["turn"] == 1 for e in carol_events)
    with django_capture_on_commit_callbacks(execute=True):
        assert alice.post(f"/api/games/{game.pk}/approve/", {"turn": 1}, format="json").status_code == 200
    scan()
    carol_events = everything(carol, game)[1]
    assert any(e["type"].startswith("civilwar.") and e["turn"] == 1 for e in carol_events)


def test_a_players_numbering_of_the_log_never_changes_through_approval_and_amendment(
    approval_game, people, django_capture_on_commit_callbacks
):
    """Results awaiting the umpire, voided and redone, then published: each player's log only grows
    at its end, so the numbers (and cursors) a player already has keep meaning the same events."""
    game = approval_game
    bob, carol, alice = (client_for(people[n]) for n in ("bob", "carol", "alice"))
    first, second = legal_red_orders(game)[:2]
    logs = {"bob": [], "carol": []}

    def grows():
        for name, client in (("bob", bob), ("carol", carol)):
            events = everything(client, game)[1]
            assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
            assert events[: len(logs[name])] == logs[name], f"{name}'s earlier events changed their numbers"
            assert all(e["audience"] != "umpire" for e in events)
            logs[name] = events

    assert bob.post(f"/api/games/{game.pk}/orders/", {"text": first, "ready": False}, format="json").status_code == 201
    grows()
    with django_capture_on_commit_callbacks(execute=True):
        assert bob.post(f"/api/games/{game.pk}/ready/", {"ready": True}, format="json").json() == {"closed": True}
    grows()
    pending = {name: len(events) for name, events in logs.items()}
    amended = alice.post(
        f"/api/games/{game.pk}/amend/", {"turn": 1, "orders": {"red": second}, "reason": "typo"}, format="json"
    )
    assert amended.status_code == 200, amended.content
    grows()
    with django_capture_on_commit_callbacks(execute=True):
        assert alice.post(f"/api/games/{game.pk}/approve/", {"turn": 1}, format="json").status_code == 200
    grows()
    assert all(len(logs[name]) > pending[name] for name in logs)  # the published results came after
    umpire = everything(alice, game)[1]  # the umpire's numbers are the log's own seqs, voided results and all
    assert [e["seq"] for e in umpire] == list(range(1, len(umpire) + 1))
    assert any(e["type"] == "results.voided" for e in umpire)
