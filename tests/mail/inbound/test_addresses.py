"""Seat reply addresses: 128-bit tokens, both separators, revocation."""

import pytest
from django.test import override_settings

from campaigns.turns import addresses


@pytest.fixture
def red(game):
    return game.seats.get(side="red")


def test_reply_address_is_stable_and_128_bits(red):
    addr = addresses.reply_address(red)
    assert addr == addresses.reply_address(red)
    local, domain = addr.split("@")
    assert domain == "kriegsbrief.localhost"
    prefix, token = local.split("+")
    assert prefix == "orders" and len(token) == 32 and int(token, 16) >= 0


def test_both_separators_any_case_and_display_name(red):
    addr = addresses.reply_address(red)
    token = addr.split("+")[1].split("@")[0]
    assert addresses.seat_for_address(addr) == red
    assert addresses.seat_for_address(f"orders.{token}@kriegsbrief.localhost") == red
    assert addresses.seat_for_address(f'"Red HQ" <ORDERS+{token.upper()}@Kriegsbrief.Localhost>') == red


def test_each_seat_has_its_own_token(game):
    tokens = {addresses.reply_address(s) for s in game.seats.all()}
    assert len(tokens) == game.seats.count()


@pytest.mark.parametrize(
    "addr",
    [
        "",
        "orders@kriegsbrief.localhost",
        "orders+00112233445566778899aabbccddeeff@kriegsbrief.localhost",
        "orders+zz@kriegsbrief.localhost",
        "a@b.c, d@e.f",
    ],
)
def test_unknown_addresses_name_no_seat(game, addr):
    addresses.reply_address(game.seats.get(side="red"))
    assert addresses.seat_for_address(addr) is None


def test_wrong_domain_names_no_seat(red):
    token = addresses.reply_address(red).split("+")[1].split("@")[0]
    assert addresses.seat_for_address(f"orders+{token}@evil.example") is None


def test_revoke_kills_the_old_token_and_issues_a_new_one(red):
    old = addresses.reply_address(red)
    assert addresses.revoke(red) == 1
    assert addresses.seat_for_address(old) is None
    assert addresses.lookup(old).revoked_at is not None
    new = addresses.reply_address(red)
    assert new != old and addresses.seat_for_address(new) == red


@override_settings(INBOUND_DOMAIN="mail.example.net")
def test_domain_comes_from_settings(red):
    assert addresses.reply_address(red).endswith("@mail.example.net")


def test_str_never_shows_the_token(red):
    addresses.reply_address(red)
    row = addresses.SeatAddress.objects.get(seat=red)
    assert row.token not in str(row)


def test_the_umpire_replaces_a_leaked_address_and_the_seat_is_told_from_the_new_one(game, people):
    from django.test import Client

    from campaigns.mailin import ingest
    from campaigns.models import OutboxMail
    from tests.support.mail import last_reply, mail

    red = game.seats.get(side="red")
    old = addresses.reply_address(red)
    page = f"/games/{game.pk}/umpire/"
    player = Client()
    player.force_login(people["bob"])
    assert player.post(page, {"action": "address", "address-seat": str(red.pk)}).status_code in (403, 404)
    assert addresses.reply_address(red) == old
    web = Client()
    web.force_login(people["alice"])
    r = web.post(page, {"action": "address", "address-seat": str(red.pk)}, follow=True)
    assert "red has a new reply address" in r.content.decode()
    new = addresses.reply_address(red)
    assert new != old
    notice = OutboxMail.objects.get(kind="notice", to=red.email, subject__endswith="your new reply address")
    assert notice.reply_to == new and old not in notice.body and new not in notice.body
    # the old address now gets a refusal that names the reason, and nothing is applied
    row = ingest.ingest(mail(to=old, frm=f"Player <{red.email}>", body="hold"), via="test")
    assert row.status != "applied"
    assert "revoked" in last_reply(red.email).body
