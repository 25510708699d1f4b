"""Authentication verdicts are trusted only from a server of ours (issue 30, 5). On the pipe only
the topmost Authentication-Results with our authserv-id is read (RFC 8601 §5: any other copy with
our id is ignored); on the webhook no header in the posted message is ours, only what the provider
itself verified; over IMAP only the receiving server's configured authserv-id; and a verdict with
no pass (``dmarc=none; spf=softfail; dkim=none``) authenticates no one. One test per forgery."""

import base64
import hashlib
import hmac
import secrets
import time

import pytest
from django.test import override_settings

from campaigns.mailin import ingest
from campaigns.mailin.models import InboundMessage
from campaigns.models import Event, OutboxMail
from tests.support.games import red_opening
from tests.support.mail import mail, replies_to, seat_mail

S = InboundMessage.Status
OURS = "mx.kriegsbrief.localhost"  # MAIL_AUTHSERV_ID in the tests
KEY, AUTH = "key-test-signing", "mailgun:hook-password"
WEBHOOK = override_settings(ANYMAIL={"MAILGUN_WEBHOOK_SIGNING_KEY": KEY, "WEBHOOK_SECRET": AUTH})


@pytest.fixture
def required(settings):
    settings.MAIL_REQUIRE_AUTHENTICATION = True
    assert settings.MAIL_AUTHSERV_ID == OURS


def on_top(raw: bytes, *headers: str) -> bytes:
    """``raw`` with ``headers`` added above all others, the first topmost (as receiving servers add theirs)."""
    return b"".join(f"{h}\r\n".encode() for h in headers) + raw


def applied(game) -> bool:
    return Event.objects.filter(game=game, type="orders.submitted").exists()


def post(client, raw: bytes, *, sender: str = "bob@example.org"):
    timestamp, token = str(int(time.time())), secrets.token_hex(25)
    data = {
        "body-mime": raw.decode("utf-8"),
        "timestamp": timestamp,
        "token": token,
        "signature": hmac.new(KEY.encode(), f"{timestamp}{token}".encode(), hashlib.sha256).hexdigest(),
        "recipient": "orders@kriegsbrief.localhost",
        "sender": sender,
    }
    auth = "Basic " + base64.b64encode(AUTH.encode()).decode()
    response = client.post("/mail/inbound/mailgun/mime", data, HTTP_AUTHORIZATION=auth)
    assert response.status_code == 200
    return InboundMessage.objects.get(via="webhook")


# --- the pipe: our MTA's header, the topmost with our id ---------------------------------------


def test_a_verdict_without_a_pass_is_no_authentication(required, game, red):
    raw = on_top(
        seat_mail(red, red_opening(game)), f"Authentication-Results: {OURS}; dmarc=none; spf=softfail; dkim=none"
    )
    row = ingest.ingest(raw, via="pipe")
    assert row.status == S.HELD and "did not find the sender genuine" in row.error
    assert not applied(game)


def test_a_forged_pass_with_our_id_below_our_mtas_header_is_ignored(required, game, red):
    raw = on_top(
        seat_mail(red, red_opening(game)),
        f"Authentication-Results: {OURS}; dmarc=none; spf=none; dkim=none",  # our MTA's, on top
        f"Authentication-Results: {OURS}; dmarc=pass header.from=example.org; spf=pass smtp.mailfrom=example.org",
    )
    assert ingest.ingest(raw, via="pipe").status == S.HELD
    assert not applied(game)


def test_another_servers_header_on_top_does_not_hide_our_fail(game, red):
    raw = on_top(
        seat_mail(red, red_opening(game)),
        "Authentication-Results: filter.example; dmarc=pass header.from=example.org",
        f"Authentication-Results: {OURS}; dmarc=fail header.from=example.org",
    )
    row = ingest.ingest(raw, via="pipe")
    assert row.status == S.HELD and "DMARC" in row.error


def test_our_mtas_pass_for_the_sender_is_applied(required, game, red):
    raw = on_top(
        seat_mail(red, red_opening(game)), f"Authentication-Results: {OURS}; dmarc=pass header.from=example.org"
    )
    assert ingest.ingest(raw, via="pipe").status == S.APPLIED and applied(game)


# --- the webhook: the provider's own verdicts only ---------------------------------------------


@WEBHOOK
def test_our_id_in_a_posted_message_is_not_ours(required, client, game, red):
    raw = on_top(
        seat_mail(red, red_opening(game)), f"Authentication-Results: {OURS}; dmarc=pass header.from=example.org"
    )
    row = post(client, raw)
    assert row.status == S.HELD and not applied(game)


@WEBHOOK
def test_our_id_in_a_posted_message_earns_a_stranger_no_answer(client, game, red):
    raw = on_top(
        mail(to="orders+" + "0" * 32 + "@kriegsbrief.localhost", frm="victim@innocent.example", body="hello"),
        f"Authentication-Results: {OURS}; dmarc=pass header.from=innocent.example",
    )
    row = post(client, raw, sender="victim@innocent.example")
    assert row.status == S.REJECTED and replies_to("victim@innocent.example") == []


@WEBHOOK
def test_the_providers_own_spf_pass_for_the_envelope_sender_is_applied(required, client, game, red):
    raw = on_top(seat_mail(red, red_opening(game)), "X-Mailgun-Spf: Pass")
    row = post(client, raw, sender="bob@example.org")
    assert row.status == S.APPLIED, row.error
    assert applied(game)


@WEBHOOK
def test_a_forged_provider_verdict_below_the_providers_own_is_ignored(required, client, game, red):
    raw = on_top(seat_mail(red, red_opening(game), headers={"X-Mailgun-Spf": "Pass"}), "X-Mailgun-Spf: SoftFail")
    assert post(client, raw).status == S.HELD and not applied(game)


# --- IMAP: the receiving server's authserv-id only ---------------------------------------------


def test_over_imap_our_id_is_not_the_receiving_servers(required, game, red, settings):
    settings.MAIL_IMAP_AUTHSERV_ID = ""
    raw = on_top(
        seat_mail(red, red_opening(game)), f"Authentication-Results: {OURS}; dmarc=pass header.from=example.org"
    )
    [row] = ingest.ingest_many([raw], via="imap")
    assert row.status == S.HELD and not applied(game)


def test_over_imap_the_receiving_servers_verdict_counts(required, game, red, settings):
    settings.MAIL_IMAP_AUTHSERV_ID = "mx.google.com"
    raw = on_top(
        seat_mail(red, red_opening(game)), "Authentication-Results: mx.google.com; dmarc=pass header.from=example.org"
    )
    [row] = ingest.ingest_many([raw], via="imap")
    assert row.status == S.APPLIED, row.error


def test_over_imap_a_forged_copy_of_the_receiving_servers_id_is_ignored(required, game, red, settings):
    settings.MAIL_IMAP_AUTHSERV_ID = "mx.google.com"
    raw = on_top(
        seat_mail(red, red_opening(game)),
        "Authentication-Results: mx.google.com; dmarc=fail header.from=example.org",
        "Authentication-Results: mx.google.com; dmarc=pass header.from=example.org",
    )
    [row] = ingest.ingest_many([raw], via="imap")
    assert row.status == S.HELD and not OutboxMail.objects.filter(kind="mail-reply", body__contains="ACCEPTED").exists()
