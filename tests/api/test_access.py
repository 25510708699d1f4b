"""Who may reach what: authentication, default deny (404), per-role permissions."""

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from campaigns.models import Campaign
from campaigns.turns import creation
from tests.support.api import client_for, seat_observer
from tests.support.games import legal_red_orders

pytestmark = pytest.mark.django_db


def game_urls(pk):
    return {
        "get": [f"/api/games/{pk}/", f"/api/games/{pk}/view/", f"/api/games/{pk}/events/", f"/api/games/{pk}/map.svg"],
        "post": {
            f"/api/games/{pk}/orders/": {"text": "pass"},
            f"/api/games/{pk}/ready/": {"ready": True},
            f"/api/games/{pk}/approve/": {"turn": 1},
            f"/api/games/{pk}/amend/": {"turn": 1, "orders": {"red": "pass"}, "reason": "x"},
            f"/api/games/{pk}/close/": {},
        },
    }


def test_anonymous_is_refused_everywhere(game):
    anon = APIClient()
    urls = game_urls(game.pk)
    for url in ["/api/games/", "/api/seats/", *urls["get"]]:
        assert anon.get(url).status_code in (401, 403), url
    for url, body in urls["post"].items():
        assert anon.post(url, body, format="json").status_code in (401, 403), url


def test_token_auth(game, people):
    bob = people["bob"]
    bob.set_password("a long enough token password")
    bob.save()
    anon = APIClient()
    bad = anon.post("/api/auth/token/", {"username": "bob", "password": "wrong"}, format="json")
    assert bad.status_code == 401 and "token" not in bad.json()
    got = anon.post("/api/auth/token/", {"username": "bob", "password": "a long enough token password"}, format="json")
    assert got.status_code == 200
    token = got.json()["token"]

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    listed = client.get("/api/games/")
    assert listed.status_code == 200
    assert [g["id"] for g in listed.json()["results"]] == [game.pk]
    # Token-authenticated writes need no CSRF token.
    order = legal_red_orders(game)[0]
    assert (
        client.post(f"/api/games/{game.pk}/orders/", {"text": order, "ready": False}, format="json").status_code == 201
    )

    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    assert client.get("/api/games/").status_code in (401, 403)


def test_list_shows_only_my_games_with_my_role(game, people, erin):
    other_people = {
        name: get_user_model().objects.create_user(name, f"{name}@example.org", "x" * 12) for name in ("oscar", "petra")
    }
    other = creation.create_game(
        campaign=Campaign.objects.create(name="Other campaign"),
        name="Other game",
        ruleset="civilwar",
        seats=[
            {"role": "umpire", "user": people["carol"], "email": "carol@example.org"},
            {"role": "player", "side": "red", "user": other_people["oscar"], "email": "o@example.org"},
            {"role": "player", "side": "blue", "user": other_people["petra"], "email": "p@example.org"},
        ],
        operator=True,
    )
    seat_observer(game, erin)

    def listed(user):
        resp = client_for(user).get("/api/games/")
        assert resp.status_code == 200
        return {g["id"]: g for g in resp.json()["results"]}

    bob = listed(people["bob"])
    assert set(bob) == {game.pk}
    g = bob[game.pk]
    assert (g["name"], g["ruleset"], g["campaign"], g["status"]) == ("Test game", "civilwar", "Test campaign", "active")
    assert (g["turn_number"], g["turn_status"], g["turn_kind"], g["turn_sides"]) == (1, "open", "orders", ["red"])
    assert (g["role"], g["side"]) == ("player", "red") and g["deadline"]

    carol = listed(people["carol"])
    assert set(carol) == {game.pk, other.pk}
    assert (carol[game.pk]["role"], carol[game.pk]["side"]) == ("player", "blue")
    assert (carol[other.pk]["role"], carol[other.pk]["side"]) == ("umpire", None)
    assert set(listed(erin)) == {game.pk} and listed(erin)[game.pk]["role"] == "observer"
    assert listed(people["dave"]) == {}

    seats = client_for(people["carol"]).get("/api/seats/").json()
    assert sorted((x["game"], x["role"], x["side"]) for x in seats) == sorted(
        [(game.pk, "player", "blue"), (other.pk, "umpire", "")]
    )
    assert client_for(people["dave"]).get("/api/seats/").json() == []


def test_user_without_a_seat_gets_404_everywhere(game, people):
    dave = client_for(people["dave"])
    for pk in (game.pk, game.pk + 1000):
        urls = game_urls(pk)
        for url in urls["get"]:
            assert dave.get(url).status_code == 404, url
        for url, body in urls["post"].items():
            assert dave.post(url, body, format="json").status_code == 404, url
    # ...and the seat holders do get through
    bob = client_for(people["bob"])
    for url in game_urls(game.pk)["get"]:
        assert bob.get(url).status_code == 200, url


def test_players_and_observers_cannot_use_umpire_commands(approval_game, people, erin):
    seat_observer(approval_game, erin)
    urls = game_urls(approval_game.pk)["post"]
    for name in ("bob", "carol"):
        client = client_for(people[name])
        for what in ("approve", "amend", "close"):
            url = f"/api/games/{approval_game.pk}/{what}/"
            assert client.post(url, urls[url], format="json").status_code == 403, (name, what)
    observer = client_for(erin)
    for url, body in urls.items():
        assert observer.post(url, body, format="json").status_code == 403, url
    for url in game_urls(approval_game.pk)["get"]:
        assert observer.get(url).status_code == 200, url


def test_player_orders_only_for_own_side(game, people):
    bob, carol = client_for(people["bob"]), client_for(people["carol"])
    order = legal_red_orders(game)[0]
    url = f"/api/games/{game.pk}/orders/"
    assert bob.post(url, {"side": "blue", "text": "pass"}, format="json").status_code == 403
    assert carol.post(url, {"side": "red", "text": order}, format="json").status_code == 403
    assert carol.post(f"/api/games/{game.pk}/ready/", {"side": "red", "ready": True}, format="json").status_code == 403
    unknown = bob.post(url, {"side": "green", "text": order}, format="json")
    assert unknown.status_code == 400 and "side" in unknown.json()
    ok = bob.post(url, {"side": "red", "text": order, "ready": False}, format="json")
    assert ok.status_code == 201 and ok.json() == {"accepted": True, "closed": False}


def test_strict_request_bodies(game, people):
    bob = client_for(people["bob"])
    url = f"/api/games/{game.pk}/orders/"
    order = legal_red_orders(game)[0]
    for body in (
        {"text": order, "redy": False},
        {"text": "x" * 20001},
        {"text": ""},
        {"ready": True},
        {"text": order, "ready": "perhaps"},
        [order],
    ):
        resp = bob.post(url, body, format="json")
        assert resp.status_code == 400, body
    form = bob.post(url, {"text": order}, format="multipart")
    assert form.status_code == 415


def test_other_side_is_forbidden_even_with_a_bad_body(game, people):
    bob = client_for(people["bob"])
    resp = bob.post(f"/api/games/{game.pk}/orders/", {"side": "blue", "text": ""}, format="json")
    assert resp.status_code == 403


def test_api_map_has_the_web_maps_headers(game, people):
    """One viewer's SVG, served alone: a CSP that lets it run nothing and no shared caching, on both ways."""
    client = client_for(people["bob"])
    web = client.get(f"/games/{game.pk}/map.svg")
    api = client.get(f"/api/games/{game.pk}/map.svg")
    assert web.status_code == api.status_code == 200 and api.content == web.content
    for header in ("Content-Security-Policy", "Cache-Control", "Content-Type"):
        assert api[header] == web[header], header
    assert "default-src 'none'" in api["Content-Security-Policy"] and api["Cache-Control"].startswith("private")


@pytest.mark.parametrize(
    "query, field",
    [
        ("page=0", "page"),
        ("page=x", "page"),
        ("page_size=null", "page_size"),
        ("page_size=0", "page_size"),
        ("page_size=201", "page_size"),
    ],
)
def test_bad_paging_is_a_clear_400(game, people, query, field):
    resp = client_for(people["bob"]).get(f"/api/games/?{query}")
    assert resp.status_code == 400 and field in resp.json() and "must be" in resp.json()[field][0]


def test_a_body_that_is_not_json_is_a_documented_400(game, people):
    resp = client_for(people["bob"]).post(f"/api/games/{game.pk}/ready/", b"\x00", content_type="application/json")
    assert resp.status_code == 400 and "JSON parse error" in resp.json()["detail"]


@pytest.mark.parametrize(
    "body", [{"side": "", "ready": True}, {"text": "   "}, {"text": ""}, {"text": "pass\x00"}, {"text": "\x1c\u3000"}]
)
def test_blank_side_or_text_is_refused_as_the_schema_says(game, people, body):
    url = f"/api/games/{game.pk}/{'ready' if 'ready' in body else 'orders'}/"
    resp = client_for(people["bob"]).post(url, body, format="json")
    assert resp.status_code == 400 and set(resp.json()) <= {"side", "text"}
