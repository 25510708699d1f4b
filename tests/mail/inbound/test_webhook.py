"""The inbound webhook through django-anymail (Mailgun raw MIME): signature and
basic auth checked, then the same ingestion as every other way in.

Only the provider is absent: the request is the one Mailgun would post, with
a signature computed here from the signing key."""

import base64
import hashlib
import hmac
import math
import secrets
import time

import pytest
from django.test import override_settings

from campaigns.mailin.models import InboundMessage
from tests.support.games import orders_of, red_opening
from tests.support.mail import seat_mail

KEY, AUTH = "key-test-signing", "mailgun:hook-password"
URL = "/mail/inbound/mailgun/mime"
CONFIGURED = override_settings(ANYMAIL={"MAILGUN_WEBHOOK_SIGNING_KEY": KEY, "WEBHOOK_SECRET": AUTH})


def post(
    client, raw: bytes, *, key=KEY, auth=AUTH, recipient="orders@kriegsbrief.localhost", timestamp=None, token=None
):
    """As Mailgun posts: every post has its own random 50-character token and the time it was signed."""
    timestamp = str(int(time.time()) if timestamp is None else timestamp)
    token = token or secrets.token_hex(25)
    signature = hmac.new(key.encode(), f"{timestamp}{token}".encode(), hashlib.sha256).hexdigest()
    data = {
        "body-mime": raw.decode("utf-8"),
        "timestamp": timestamp,
        "token": token,
        "signature": signature,
        "recipient": recipient,
        "sender": "bob@example.org",
    }
    headers = {"HTTP_AUTHORIZATION": "Basic " + base64.b64encode(auth.encode()).decode()} if auth else {}
    return client.post(URL, data, **headers)


@CONFIGURED
def test_signed_post_is_ingested(client, game, red):
    response = post(client, seat_mail(red, red_opening(game)))
    assert response.status_code == 200
    assert orders_of(game, "red")["text"] == red_opening(game)
    assert InboundMessage.objects.get().via == "webhook"


@CONFIGURED
@pytest.mark.parametrize("skew", [-302, 302, -(10**9), "soon"])
def test_a_signature_outside_the_time_window_is_refused(client, game, red, skew):
    """A correctly signed post from 2001 (or from the future) is a replay, not Mailgun.

    Timestamps are whole seconds: rounded away from now (floor into the past, ceiling into the
    future), a 302 s skew stays beyond the 300 s window even if the check runs a second later."""
    now = time.time()
    timestamp = "soon" if skew == "soon" else (math.floor(now) if skew < 0 else math.ceil(now)) + skew
    response = post(client, seat_mail(red, red_opening(game)), timestamp=timestamp)
    assert response.status_code == 400
    assert not InboundMessage.objects.exists()


@CONFIGURED
def test_a_signature_is_taken_once(client, game, red):
    """The signature covers only timestamp and token: whoever saw one post could attach any message to it."""
    token = secrets.token_hex(25)
    assert post(client, seat_mail(red, "STATUS"), token=token, timestamp=int(time.time()) - 250).status_code == 200
    replayed = post(client, seat_mail(red, red_opening(game)), token=token, timestamp=int(time.time()) - 250)
    assert replayed.status_code == 400
    assert InboundMessage.objects.count() == 1 and orders_of(game, "red") is None


@CONFIGURED
def test_a_post_whose_ingestion_failed_can_be_posted_again(client, game, red, monkeypatch):
    """Mailgun retries a post we answered with a 500: the same token must still be taken then."""
    from campaigns.mailin import ingest

    real, token, raw = ingest.ingest_deliveries, secrets.token_hex(25), seat_mail(red, red_opening(game))

    def down(*args, **kwargs):
        raise ConnectionError("database down")

    monkeypatch.setattr(ingest, "ingest_deliveries", down)
    with pytest.raises(ConnectionError):
        post(client, raw, token=token)
    monkeypatch.setattr(ingest, "ingest_deliveries", real)
    assert post(client, raw, token=token).status_code == 200
    assert orders_of(game, "red")["text"] == red_opening(game)


@CONFIGURED
def test_repeated_post_is_one_message(client, game, red):
    raw = seat_mail(red, red_opening(game))
    assert post(client, raw).status_code == post(client, raw).status_code == 200
    assert InboundMessage.objects.count() == 1


@CONFIGURED
@pytest.mark.parametrize("change", [{"key": "wrong-key"}, {"auth": "mailgun:wrong"}, {"auth": None}])
def test_bad_signature_or_auth_is_refused(client, game, red, change):
    response = post(client, seat_mail(red, red_opening(game)), **change)
    assert response.status_code in (400, 401, 403)
    assert not InboundMessage.objects.exists()


@override_settings(ANYMAIL={"MAILGUN_WEBHOOK_SIGNING_KEY": "", "WEBHOOK_SECRET": ""})
def test_unconfigured_webhook_refuses_everything(client, game, red):
    # With an empty key anyone could sign: the view must refuse, not accept.
    response = post(client, seat_mail(red, red_opening(game)), key="", auth=None)
    assert response.status_code == 400
    assert not InboundMessage.objects.exists()


@CONFIGURED
def test_a_message_too_large_arrives_and_is_answered_not_dropped(client, game, red):
    from django.conf import settings

    from tests.support.mail import last_reply

    padding = "x" * 76 + "\n"
    body = red_opening(game) + "\n\n" + padding * (settings.MAIL_MAX_BYTES // len(padding) + 100)
    raw = seat_mail(red, body)
    assert settings.MAIL_MAX_BYTES < len(raw) < settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    response = post(client, raw)
    assert response.status_code == 200  # not a 400 that nobody reads
    row = InboundMessage.objects.get()
    kept = bytes(row.raw)  # whole, under the Authentication-Results the view wrote on top (webhook.vouched)
    assert kept.startswith(b"Authentication-Results: ") and kept.endswith(raw)
    assert row.status == "rejected" and row.size == len(kept)
    assert "the message is too large" in last_reply(red.email).body
    assert orders_of(game, "red") is None  # nothing applied


@CONFIGURED
@override_settings(MAIL_REQUIRE_AUTHENTICATION=True)
def test_a_webhook_message_without_our_mtas_verdict_is_held_when_required(client, game, red):
    """A valid signature says Mailgun posted it, not that the From is genuine: the hold applies to every way in."""
    assert post(client, seat_mail(red, red_opening(game))).status_code == 200
    row = InboundMessage.objects.get()
    assert row.status == "held" and orders_of(game, "red") is None
