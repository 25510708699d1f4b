"""Orders, readiness, adjudication and the umpire's commands through the API."""

import pytest
from django.core import signing

from rules.civilwar import legal_operations
from tests.conftest import new_civilwar_game
from tests.support.api import client_for
from tests.support.games import legal_red_orders, state_of

pytestmark = pytest.mark.django_db


def post(client, game, what, body):
    return client.post(f"/api/games/{game.pk}/{what}/", body, format="json")


def all_events(client, game):
    resp = client.get(f"/api/games/{game.pk}/events/?limit=500")
    assert resp.status_code == 200 and resp.json()["next"] is None
    return resp.json()["results"]


def test_invalid_orders_give_line_errors_and_earlier_orders_stay(game, people):
    bob = client_for(people["bob"])
    good = legal_red_orders(game)[0]
    assert post(bob, game, "orders", {"text": good, "ready": False}).status_code == 201
    bad = post(bob, game, "orders", {"text": f"{good}\nfly to the moon"})
    assert bad.status_code == 400
    body = bad.json()
    assert body["accepted"] is False
    assert [e["line"] for e in body["errors"]] == [2]
    assert body["errors"][0]["text"] == "fly to the moon" and body["errors"][0]["message"]
    view = bob.get(f"/api/games/{game.pk}/view/").json()
    assert view["turn"]["orders"] == {"red": good} and view["turn"]["status"] == "open"
    assert state_of(game).turn.orders["red"]["text"] == good


def test_not_your_turn_is_a_conflict(game, people):
    carol = client_for(people["carol"])
    resp = post(carol, game, "orders", {"text": "pass"})
    assert resp.status_code == 409 and "blue has no orders to give in turn 1" in resp.json()["detail"]
    bob = client_for(people["bob"])
    early = post(bob, game, "ready", {"ready": True})
    assert early.status_code == 409 and "send your orders" in early.json()["detail"]


def test_accepted_red_order_is_adjudicated_and_the_result_is_visible(game, people, django_capture_on_commit_callbacks):
    bob, carol = client_for(people["bob"]), client_for(people["carol"])
    order = next(op for op in legal_red_orders(game) if op.startswith("form "))
    city = order.split()[1]
    with django_capture_on_commit_callbacks(execute=True):
        resp = post(bob, game, "orders", {"text": order, "ready": True})
    assert resp.status_code == 201 and resp.json() == {"accepted": True, "closed": True}

    for client in (bob, carol):
        events = all_events(client, game)
        formed = [e for e in events if e["type"] == "civilwar.unit_formed"]
        assert len(formed) == 1 and formed[0]["turn"] == 1 and formed[0]["payload"]["city"] == city
        assert "Red formed a unit in" in formed[0]["text"]
        assert any(e["type"] == "turn.published" and e["turn"] == 1 for e in events)
        view = client.get(f"/api/games/{game.pk}/view/").json()
        assert (view["turn"]["number"], view["turn"]["sides"], view["turn"]["status"]) == (2, ["blue"], "open")
        assert {"point": city, "side": "red"} in view["board"]["units"]
    assert bob.get("/api/games/").json()["results"][0]["turn_sides"] == ["blue"]


def test_ready_endpoint_closes_the_turn(game, people, django_capture_on_commit_callbacks):
    bob = client_for(people["bob"])
    assert post(bob, game, "orders", {"text": legal_red_orders(game)[0], "ready": False}).json()["closed"] is False
    assert post(bob, game, "ready", {"ready": False}).json() == {"closed": False}
    with django_capture_on_commit_callbacks(execute=True):
        resp = post(bob, game, "ready", {"ready": True})
    assert resp.status_code == 200 and resp.json() == {"closed": True}
    assert state_of(game).turn.number == 2


def events_page(client, game, query=""):
    resp = client.get(f"/api/games/{game.pk}/events/?{query}")
    assert resp.status_code == 200, resp.content
    return resp.json()


def test_events_cursor_pagination_has_no_gaps_or_repeats(game, people, django_capture_on_commit_callbacks):
    bob, carol = client_for(people["bob"]), client_for(people["carol"])
    with django_capture_on_commit_callbacks(execute=True):
        assert post(bob, game, "orders", {"text": legal_red_orders(game)[0], "ready": True}).status_code == 201
    for client in (bob, carol):
        full = all_events(client, game)
        assert [e["seq"] for e in full] == list(range(1, len(full) + 1)) and len(full) > 7
        seen, url, pages = [], f"/api/games/{game.pk}/events/?limit=3", 0
        while url:
            page = client.get(url).json()
            assert len(page["results"]) <= 3
            seen += page["results"]
            url, pages = page["next"], pages + 1
        assert seen == full and pages == -(-len(full) // 3)
        first = events_page(client, game, "limit=4")
        rest = events_page(client, game, f"cursor={first['cursor']}&limit=500")
        assert rest["results"] == full[4:] and rest["next"] is None
        end = events_page(client, game, f"cursor={rest['cursor']}")
        assert end == {"next": None, "cursor": rest["cursor"], "results": []}


def test_a_cursor_polls_for_what_is_new_and_nothing_of_the_other_side(game, people, django_capture_on_commit_callbacks):
    bob, carol = client_for(people["bob"]), client_for(people["carol"])
    with django_capture_on_commit_callbacks(execute=True):
        assert post(bob, game, "orders", {"text": legal_red_orders(game)[0], "ready": True}).status_code == 201
    mine = events_page(bob, game, "limit=500")
    blue = legal_operations(state_of(game).rules, "blue")
    for text in blue[:3]:  # blue changes its mind: private events after everything bob has
        assert post(carol, game, "orders", {"text": text, "ready": False}).status_code == 201
    assert events_page(bob, game, f"cursor={mine['cursor']}") == {"next": None, "cursor": mine["cursor"], "results": []}
    with django_capture_on_commit_callbacks(execute=True):
        assert post(carol, game, "ready", {"ready": True}).json() == {"closed": True}
    new = events_page(bob, game, f"cursor={mine['cursor']}")
    assert new["results"] and [e["seq"] for e in new["results"]] == list(
        range(len(mine["results"]) + 1, len(mine["results"]) + len(new["results"]) + 1)
    )
    assert "side:blue" not in {e["audience"] for e in new["results"]}
    assert new["results"][0]["type"] == "side.ready"  # blue's orders were never counted
    assert all_events(bob, game) == mine["results"] + new["results"]


def test_bad_cursors_are_refused_with_the_reason(game, people):
    bob, carol, alice = (client_for(people[n]) for n in ("bob", "carol", "alice"))
    mine = events_page(bob, game, "limit=2")["cursor"]
    other = new_civilwar_game(people)
    payload, signature = mine.rsplit(":", 1)
    forged = (
        signing.b64_encode(b'{"game":%d,"window":"public+side:red","after":1}' % game.pk).decode() + ":" + signature
    )
    cases = {
        "limit=0": ("limit", "between 1 and 500"),
        "limit=501": ("limit", "between 1 and 500"),
        "limit=x": ("limit", "must be an integer"),
        "cursor=garbage": ("cursor", "not a cursor this server gave"),
        f"cursor={forged}": ("cursor", "not a cursor this server gave"),
        "after=3": ("after", "resume with the `cursor`"),
    }
    for query, (field, words) in cases.items():
        resp = bob.get(f"/api/games/{game.pk}/events/?{query}")
        assert resp.status_code == 400 and words in resp.json()[field][0], (query, resp.content)
    for client, game_id, words in (
        (carol, game.pk, "another seat's view"),
        (alice, game.pk, "another seat's view"),
        (bob, other.pk, "another game's log"),
    ):
        resp = client.get(f"/api/games/{game_id}/events/?cursor={mine}")
        assert resp.status_code == 400 and words in resp.json()["cursor"][0], resp.content
    assert bob.get(f"/api/games/{game.pk}/events/?cursor={mine}").status_code == 200


def test_umpire_submits_for_a_side_and_closes(game, people, django_capture_on_commit_callbacks):
    alice = client_for(people["alice"])
    order = legal_red_orders(game)[0]
    missing = post(alice, game, "orders", {"text": order})
    assert missing.status_code == 400 and "side" in missing.json()
    assert post(alice, game, "orders", {"side": "red", "text": order, "ready": False}).status_code == 201
    submitted = [e for e in all_events(alice, game) if e["type"] == "orders.submitted"]
    assert submitted[-1]["payload"]["source"] == "umpire" and submitted[-1]["payload"]["text"] == order
    with django_capture_on_commit_callbacks(execute=True):
        resp = post(alice, game, "close", {"turn": 1})
    assert resp.status_code == 200 and resp.json() == {"closed": True, "turn": 1}
    assert post(alice, game, "close", {"turn": 1}).status_code == 409
    assert state_of(game).turn.number == 2


def test_umpire_amends_and_approves_results(approval_game, people, django_capture_on_commit_callbacks):
    game = approval_game
    alice, bob, carol = (client_for(people[n]) for n in ("alice", "bob", "carol"))
    ops = [op for op in legal_red_orders(game) if op.startswith("form ")]
    with django_capture_on_commit_callbacks(execute=True):
        assert post(bob, game, "orders", {"text": ops[0], "ready": True}).json()["closed"] is True
    assert state_of(game).turn.status == "adjudicated"

    umpire_view = alice.get(f"/api/games/{game.pk}/view/").json()
    assert umpire_view["turn"]["pending_results"] > 0 and "preview" in umpire_view
    player_view = carol.get(f"/api/games/{game.pk}/view/").json()
    assert "pending_results" not in player_view["turn"] and "preview" not in player_view
    assert not any(e["type"].startswith("civilwar.unit_formed") for e in all_events(carol, game))

    # players may not approve or amend
    assert post(bob, game, "approve", {"turn": 1}).status_code == 403
    assert post(carol, game, "amend", {"turn": 1, "orders": {"red": ops[1]}, "reason": "no"}).status_code == 403

    # the umpire amends: bad orders and unknown sides are refused, good ones re-adjudicate
    bad = post(alice, game, "amend", {"turn": 1, "orders": {"red": "fly to the moon"}, "reason": "typo"})
    assert (
        bad.status_code == 400
        and bad.json()["accepted"] is False
        and (1, "red") in [(e["line"], e["side"]) for e in bad.json()["errors"]]
    )
    assert post(alice, game, "amend", {"turn": 1, "orders": {"green": ops[1]}, "reason": "x"}).status_code == 400
    assert post(alice, game, "amend", {"turn": 1, "orders": {}, "reason": "x"}).status_code == 400
    assert post(alice, game, "amend", {"turn": 2, "orders": {"red": ops[1]}, "reason": "x"}).status_code == 409
    amended = post(alice, game, "amend", {"turn": 1, "orders": {"red": ops[1]}, "reason": "red meant the other city"})
    assert amended.status_code == 200 and amended.json() == {"accepted": True}

    assert post(alice, game, "approve", {"turn": 2}).status_code == 409
    with django_capture_on_commit_callbacks(execute=True):
        approved = post(alice, game, "approve", {"turn": 1, "note": "checked"})
    assert approved.status_code == 200 and approved.json() == {"turn": 1, "published": True}
    assert post(alice, game, "approve", {"turn": 1}).status_code == 409

    formed = [e for e in all_events(carol, game) if e["type"] == "civilwar.unit_formed"]
    assert [e["payload"]["city"] for e in formed] == [ops[1].split()[1]]
    view = carol.get(f"/api/games/{game.pk}/view/").json()
    assert view["turn"]["number"] == 2 and view["turn"]["sides"] == ["blue"]


def test_map_svg(game, people):
    resp = client_for(people["carol"]).get(f"/api/games/{game.pk}/map.svg")
    assert resp.status_code == 200 and resp["Content-Type"].startswith("image/svg+xml")
    assert b"<svg" in resp.content
    denied = client_for(people["dave"]).get(f"/api/games/{game.pk}/map.svg", HTTP_ACCEPT="image/svg+xml")
    assert denied.status_code == 404 and denied["Content-Type"].startswith("application/json")


def test_orders_without_ready_leave_the_side_not_ready(game, people, django_capture_on_commit_callbacks):
    """Ready is never implied (issue 17): omitted ``ready`` keeps the orders and closes nothing."""
    bob = client_for(people["bob"])
    with django_capture_on_commit_callbacks(execute=True):
        resp = post(bob, game, "orders", {"text": legal_red_orders(game)[0]})
    assert resp.status_code == 201 and resp.json() == {"accepted": True, "closed": False}
    turn = state_of(game).turn
    assert turn.number == 1 and turn.status == "open" and "red" not in turn.ready
    with django_capture_on_commit_callbacks(execute=True):
        assert post(bob, game, "ready", {"ready": True}).json() == {"closed": True}
    assert state_of(game).turn.number == 2
