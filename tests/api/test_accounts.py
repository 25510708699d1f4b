"""Logins are locked out after repeated failures (web and API, by username and address);
API tokens expire and are revoked at logout and at a change of password."""

from datetime import timedelta

import pytest
import time_machine
from django.conf import settings
from django.test import Client
from django.utils import timezone
from knox.models import get_token_model
from rest_framework.test import APIClient

from campaigns.turns import deadlines
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db
LIMIT = settings.AXES_FAILURE_LIMIT


def web_login(username, password, ip="10.0.0.1"):
    client = Client(REMOTE_ADDR=ip)
    return client, client.post("/accounts/login/", {"username": username, "password": password})


def api_login(username, password, ip="10.0.0.1"):
    return APIClient(REMOTE_ADDR=ip).post(
        "/api/auth/token/", {"username": username, "password": password}, format="json"
    )


def token_client(token):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def test_web_login_locks_the_username_and_address_after_repeated_failures(people):
    for _ in range(LIMIT * 8):
        _, resp = web_login("bob", "wrong password")
        if resp.status_code == 429:
            break
    client, resp = web_login("bob", PASSWORD)
    assert resp.status_code == 429 and "_auth_user_id" not in client.session
    # Another address, or another username from this one, is not locked.
    assert web_login("bob", PASSWORD, ip="10.0.0.2")[1].status_code == 302
    assert web_login("carol", PASSWORD)[1].status_code == 302
    # The lock cools off.
    with time_machine.travel(timezone.now() + settings.AXES_COOLOFF_TIME + timedelta(minutes=1)):
        client, resp = web_login("bob", PASSWORD)
        assert resp.status_code == 302 and client.session["_auth_user_id"] == str(people["bob"].pk)


def test_a_successful_login_resets_the_failure_count(people):
    for _ in range(2):
        for _ in range(LIMIT - 1):
            assert web_login("bob", "wrong password")[1].status_code == 200
        assert web_login("bob", PASSWORD)[1].status_code == 302


def test_token_endpoint_answers_429_when_locked_even_with_the_right_password(people):
    for _ in range(LIMIT):
        resp = api_login("bob", "wrong password")
    assert resp.status_code in (401, 429)
    locked = api_login("bob", PASSWORD)
    assert locked.status_code == 429 and "token" not in locked.json() and "try again later" in locked.json()["detail"]
    assert api_login("bob", PASSWORD, ip="10.0.0.2").status_code == 200
    # The web login shares the lock.
    assert web_login("bob", PASSWORD)[1].status_code == 429


def test_token_endpoint_throttles_attempts_from_one_address_whatever_the_username(people):
    rate = int(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["login"].split("/")[0])
    codes = [api_login(f"nobody{i}", "x").status_code for i in range(rate + 1)]
    assert codes[:rate] == [401] * rate and codes[-1] == 429
    assert api_login("bob", PASSWORD, ip="10.0.0.9").status_code == 200


def test_web_login_shares_the_per_address_throttle(people):
    rate = int(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["login"].split("/")[0])
    codes = [web_login(f"nobody{i}", "x")[1].status_code for i in range(rate - 1)]
    assert codes == [200] * (rate - 1)  # the form again, with its error
    assert api_login("nobody", "x").status_code == 401  # the last attempt of the budget
    _, refused = web_login("bob", PASSWORD)
    assert refused.status_code == 429 and "Retry-After" in refused
    assert web_login("bob", PASSWORD, ip="10.0.0.9")[1].status_code == 302


def test_tokens_expire(people):
    got = api_login("bob", PASSWORD)
    assert got.status_code == 200
    token, expiry = got.json()["token"], got.json()["expiry"]
    assert token_client(token).get("/api/games/").status_code == 200
    ttl = settings.REST_KNOX["TOKEN_TTL"]
    with time_machine.travel(timezone.now() + ttl - timedelta(minutes=5)):
        assert token_client(token).get("/api/games/").status_code == 200
    with time_machine.travel(timezone.now() + ttl + timedelta(minutes=5)):
        assert token_client(token).get("/api/games/").status_code == 401
    assert expiry


def test_expired_tokens_are_refused_and_cleared_by_the_sweep(people):
    """A request refuses an expired token without deleting it (api/tokens.py: one query per
    request); the deadline sweep deletes every expired token, and only those."""
    model = get_token_model()
    _, short = model.objects.create(people["bob"], expiry=timedelta(minutes=1))
    _, long = model.objects.create(people["bob"], expiry=timedelta(hours=1))
    _, carol = model.objects.create(people["carol"], expiry=timedelta(minutes=1))
    later = timezone.now() + timedelta(minutes=5)
    with time_machine.travel(later):
        assert token_client(short).get("/api/games/").status_code == 401
        assert token_client(long).get("/api/games/").status_code == 200
        assert model.objects.filter(user=people["bob"]).count() == 2  # refused, not yet deleted
        assert deadlines.sweep(now=later)["expired_tokens"] == 2
        assert list(model.objects.values_list("user__username", flat=True)) == ["bob"]
        assert token_client(long).get("/api/games/").status_code == 200
        assert token_client(carol).get("/api/games/").status_code == 401


def test_logout_revokes_the_token_and_logout_all_every_token(people):
    first, second, third = (api_login("bob", PASSWORD).json()["token"] for _ in range(3))
    carol = api_login("carol", PASSWORD).json()["token"]
    assert token_client(first).post("/api/auth/logout/").status_code == 204
    assert token_client(first).get("/api/games/").status_code == 401
    assert token_client(second).get("/api/games/").status_code == 200
    assert token_client(second).post("/api/auth/logout-all/").status_code == 204
    for token in (second, third):
        assert token_client(token).get("/api/games/").status_code == 401
    assert token_client(carol).get("/api/games/").status_code == 200
    assert APIClient().post("/api/auth/logout/").status_code == 401


def test_a_password_change_revokes_every_token(people):
    bob = people["bob"]
    token = api_login("bob", PASSWORD).json()["token"]
    carol = api_login("carol", PASSWORD).json()["token"]
    bob.last_login = timezone.now()
    bob.save(update_fields=["last_login"])  # other saves leave tokens alone
    bob.first_name = "Bob"
    bob.save()
    assert token_client(token).get("/api/games/").status_code == 200
    bob.set_password("a brand new password")
    bob.save()
    assert token_client(token).get("/api/games/").status_code == 401
    assert token_client(carol).get("/api/games/").status_code == 200
    assert api_login("bob", "a brand new password").status_code == 200


def test_live_tokens_per_user_are_capped(people):
    for _ in range(settings.REST_KNOX["TOKEN_LIMIT_PER_USER"]):
        get_token_model().objects.create(user=people["bob"])
    refused = api_login("bob", PASSWORD)
    assert refused.status_code == 403 and "log out" in refused.json()["detail"]
    _, token = get_token_model().objects.create(user=people["bob"])
    assert token_client(token).post("/api/auth/logout-all/").status_code == 204
    assert api_login("bob", PASSWORD).status_code == 200


@pytest.mark.django_db
def test_a_body_nested_too_deep_is_a_400_not_a_server_error(client):
    """Issue 29: 100,000 nested '[' to the token endpoint answered 500 (RecursionError) to anyone."""
    resp = client.post("/api/auth/token/", "[" * 100_000, content_type="application/json")
    assert resp.status_code == 400
    assert "nested too deep" in resp.json()["detail"]
