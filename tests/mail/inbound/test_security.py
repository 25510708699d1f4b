"""Who may order by mail: the token decides the seat, the From must be the seat's,
our own MTA's DMARC/DKIM verdict holds failures; every refusal says why and
nothing about any game; tokens never reach the logs."""

import logging
import re

import pytest
from django.test import override_settings

from campaigns.mailin import ingest
from campaigns.mailin.models import InboundMessage
from campaigns.models import Event, OutboxMail
from campaigns.turns import addresses
from tests.services import postgres_only
from tests.support.games import orders_of, red_opening
from tests.support.mail import last_reply, mail, replies_to, seat_mail

S = InboundMessage.Status
OUR_AR = "mx.kriegsbrief.localhost"
# What our MTA writes on mail whose From it found genuine: only such strangers get an answer.
GENUINE = {
    "Authentication-Results": f"{OUR_AR}; spf=pass smtp.mailfrom=evil.example; dmarc=pass header.from=evil.example"
}


def events(game):
    return Event.objects.filter(game=game).count()


def assert_reveals_nothing(reply, game):
    text = reply.subject + reply.body + reply.reply_to + " ".join(reply.references)
    for secret in (game.name, str(game.uid), "red", "blue", "turn", "C1", "umpire"):
        assert not re.search(rf"\b{re.escape(secret)}\b", text, re.IGNORECASE), (
            f"{secret!r} leaked to an unknown sender"
        )
    assert reply.game_id is None and reply.seat_id is None


def test_forged_from_is_refused_without_revealing_the_game(game, red):
    before = events(game)
    raw = mail(
        to=addresses.reply_address(red),
        frm="Mallory <mallory@evil.example>",
        body=red_opening(game),
        subject="hello",
        headers=GENUINE,
    )
    row = ingest.ingest(raw, via="test")
    assert row.status == S.REJECTED and events(game) == before
    reply = last_reply("mallory@evil.example")
    assert "not accepted" in reply.body
    assert_reveals_nothing(reply, game)


def test_unknown_token_gets_the_same_words_as_a_wrong_sender(game, red):
    addresses.reply_address(red)
    ours = {"Authentication-Results": f"{OUR_AR}; dmarc=pass header.from=example.org"}
    raw = mail(
        to="orders+" + "0" * 32 + "@kriegsbrief.localhost",
        frm=red.email,
        body=red_opening(game),
        subject="hi",
        headers=ours,
    )
    row = ingest.ingest(raw, via="test")
    assert row.status == S.REJECTED and orders_of(game, "red") is None
    forged = ingest.ingest(
        mail(to=addresses.reply_address(red), frm="x@evil.example", body="pass", subject="hi", headers=GENUINE),
        via="test",
    )
    assert forged.status == S.REJECTED
    assert last_reply(red.email).body == last_reply("x@evil.example").body
    assert_reveals_nothing(last_reply(red.email), game)


@pytest.mark.parametrize(
    "ar",
    [
        None,  # no verdict at all
        "mx.evil.example; dmarc=pass header.from=evil.example",  # someone else's verdict
        f"{OUR_AR}; dmarc=fail header.from=evil.example",
        f"{OUR_AR}; spf=fail smtp.mailfrom=evil.example; dkim=pass header.d=evil.example",
        f"{OUR_AR}; dkim=pass header.d=other.example; spf=pass smtp.mailfrom=other.example",  # not its domain
        f"{OUR_AR}; spf=none; dkim=none; dmarc=none",
    ],
)
def test_a_stranger_our_mta_did_not_find_genuine_gets_no_answer(game, red, ar):
    """No backscatter: the From of a refused message may be forged, so an innocent third party
    would get our answer. It is recorded silently."""
    headers = {"Authentication-Results": ar} if ar else {}
    for to in (addresses.reply_address(red), "orders+" + "0" * 32 + "@kriegsbrief.localhost"):
        row = ingest.ingest(mail(to=to, frm="Victim <victim@evil.example>", body="pass", headers=headers), via="test")
        assert row.status == S.REJECTED and row.error == "unknown reply address or sender"
        assert row.result["replies"][0].startswith("none: the sender is no seat's")
    oversized = mail(to=addresses.reply_address(red), frm="victim@evil.example", body="x" * 2_000_000, headers=headers)
    assert ingest.ingest(oversized, via="test").status == S.REJECTED
    assert not OutboxMail.objects.filter(to__icontains="victim@evil.example").exists()


@pytest.mark.parametrize(
    "ar",
    [
        f"{OUR_AR}; dmarc=pass header.from=evil.example",
        f"{OUR_AR}; dkim=pass header.d=evil.example",
        f"{OUR_AR}; spf=pass smtp.mailfrom=bounce@mail.evil.example",
    ],
)
def test_a_stranger_our_mta_found_genuine_is_told(game, red, ar):
    row = ingest.ingest(
        mail(
            to=addresses.reply_address(red),
            frm="someone@evil.example",
            body="pass",
            headers={"Authentication-Results": ar},
        ),
        via="test",
    )
    assert row.status == S.REJECTED
    assert "not accepted" in last_reply("someone@evil.example").body


@override_settings(MAIL_REQUIRE_AUTHENTICATION=True)
@pytest.mark.parametrize("ar", [None, "mx.evil.example; dmarc=pass", f"garbage; {OUR_AR}"])
def test_without_our_mtas_verdict_a_seats_message_is_held_when_required(game, red, umpire, ar):
    headers = {"Authentication-Results": ar} if ar else {}
    row = ingest.ingest(seat_mail(red, red_opening(game), headers=headers), via="test")
    assert row.status == S.HELD and "no Authentication-Results from our mail server" in row.error
    assert orders_of(game, "red") is None
    assert OutboxMail.objects.filter(to=umpire.email, kind="mail-forward").exists()
    passed = ingest.ingest(
        seat_mail(red, red_opening(game), headers={"Authentication-Results": f"{OUR_AR}; dmarc=pass"}), via="test"
    )
    assert passed.status == S.APPLIED and orders_of(game, "red")["text"] == red_opening(game)


def test_two_from_headers_are_refused(game, red):
    raw = seat_mail(red, red_opening(game))
    raw = raw.replace(b"From: ", b"From: Mallory <mallory@evil.example>\r\nFrom: ", 1)
    row = ingest.ingest(raw, via="test")
    assert row.status == S.REJECTED and "exactly one From" in row.error
    assert orders_of(game, "red") is None


def test_from_with_two_addresses_is_refused(game, red):
    raw = mail(to=addresses.reply_address(red), frm=f"{red.email}, mallory@evil.example", body=red_opening(game))
    assert ingest.ingest(raw, via="test").status == S.REJECTED
    assert orders_of(game, "red") is None


def test_other_games_token_does_not_order_in_this_game(people, game, red):
    from tests.conftest import new_civilwar_game

    other = new_civilwar_game(people)
    other_red = other.seats.get(side="red")
    raw = seat_mail(other_red, red_opening(game))
    ingest.ingest(raw, via="test")
    assert orders_of(game, "red") is None  # only the other game's seat can be affected


def test_revoked_token_is_refused_and_the_reply_gives_the_new_address(game, red):
    old = addresses.reply_address(red)
    addresses.revoke(red)
    row = ingest.ingest(mail(to=old, frm=red.email, body=red_opening(game)), via="test")
    assert row.status == S.REJECTED and "revoked" in row.error
    assert orders_of(game, "red") is None
    reply = last_reply(red.email)
    assert reply.reply_to == addresses.reply_address(red) != old


@pytest.mark.parametrize(
    "ar, held",
    [
        (f"{OUR_AR}; dmarc=fail (p=reject) header.from=example.org", True),
        (f"{OUR_AR}; dkim=fail header.d=example.org; spf=pass", True),
        (f"{OUR_AR}; dkim=pass header.d=example.org; dmarc=pass", False),
        # Forged: another server's id, or ours below a header from someone else.
        ("mx.evil.example; dmarc=fail", False),
    ],
)
def test_authentication_results_only_ours_count(game, red, ar, held):
    row = ingest.ingest(seat_mail(red, red_opening(game), headers={"Authentication-Results": ar}), via="test")
    assert (row.status == S.HELD) is held
    assert (orders_of(game, "red") is None) is held


def test_forged_pass_below_our_fail_does_not_unhold(game, red):
    raw = seat_mail(red, red_opening(game), headers={"Authentication-Results": f"{OUR_AR}; dmarc=fail"})
    # A forged header the sender wrote sits below the one our MTA put on top.
    raw = raw.replace(b"\r\n\r\n", f"\r\nAuthentication-Results: {OUR_AR}; dmarc=pass\r\n\r\n".encode(), 1)
    assert ingest.ingest(raw, via="test").status == S.HELD


def test_held_message_is_released_or_rejected_by_the_umpire(game, red, umpire):
    ar = {"Authentication-Results": f"{OUR_AR}; dmarc=fail"}
    row = ingest.ingest(seat_mail(red, red_opening(game), headers=ar), via="test")
    assert row.status == S.HELD and "held" in last_reply(red.email).body
    assert OutboxMail.objects.filter(to=umpire.email, kind="mail-forward").exists()
    ingest.release(row)
    assert orders_of(game, "red")["text"] == red_opening(game)
    other = ingest.ingest(seat_mail(red, "pass", headers=ar), via="test")
    ingest.reject_held(other)
    other.refresh_from_db()
    assert other.status == S.REJECTED and orders_of(game, "red")["text"] == red_opening(game)
    with pytest.raises(ValueError, match="not held"):
        ingest.release(other)


def test_replay_of_the_same_message_is_one_event(game, red):
    raw = seat_mail(red, red_opening(game))
    for _ in range(5):
        ingest.ingest(raw, via="test")
    assert Event.objects.filter(game=game, type="orders.submitted").count() == 1
    assert len(replies_to(red.email)) == 1


@override_settings(MAIL_MAX_BYTES=20_000)
def test_oversized_message_is_refused_kept_whole_and_answered_under_its_subject(game, red):
    raw = seat_mail(red, red_opening(game) + "\n" + "x" * 50_000, subject="Re: [Kriegsbrief] my big orders")
    row = ingest.ingest(raw, via="test")
    assert row.status == S.REJECTED and "too large" in row.error and "kept whole" in row.error
    row.refresh_from_db()
    assert row.size == len(raw) and bytes(row.raw) == raw  # every raw message is kept
    reply = last_reply(red.email)
    assert "too large" in reply.body and "kept whole" in reply.body
    assert reply.subject == "Re: [Kriegsbrief] my big orders"


@override_settings(MAIL_MAX_BYTES=20_000, MAIL_KEEP_MAX_BYTES=30_000)
def test_a_message_past_the_hard_cap_keeps_its_first_bytes_and_says_so(game, red):
    raw = seat_mail(red, red_opening(game) + "\n" + "x" * 50_000, subject="huge")
    row = ingest.ingest(raw, via="test")
    row.refresh_from_db()
    assert bytes(row.raw) == raw[:30_000] and row.size == len(raw) and row.result["kept_bytes"] == 30_000
    assert "only its first 30000 bytes are kept" in row.error
    reply = last_reply(red.email)
    assert "only its first 30000 bytes are kept" in reply.body and reply.subject == "Re: huge"


@override_settings(MAIL_MAX_PARTS=10)
def test_many_parts_are_refused(game, red):
    atts = [(f"a{i}.bin", b"\x00" * 10, "application/octet-stream") for i in range(20)]
    row = ingest.ingest(seat_mail(red, "pass", attachments=atts), via="test")
    assert row.status == S.REJECTED and "MIME parts" in row.error


def test_nested_archive_is_never_opened(game, red):
    import io
    import zipfile

    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("orders.txt", "0" * 5_000_000)  # a small bomb: 5 MB of zeros
    outer = io.BytesIO()
    with zipfile.ZipFile(outer, "w") as z:
        z.writestr("inner.zip", inner.getvalue())
    raw = seat_mail(red, red_opening(game), attachments=[("orders.zip", outer.getvalue(), "application/zip")])
    row = ingest.ingest(raw, via="test")
    assert row.status == S.APPLIED
    assert orders_of(game, "red")["text"] == red_opening(game)
    assert "orders.zip" in last_reply(red.email).body and "ignored" in last_reply(red.email).body


def test_header_injection_in_an_echoed_subject(game, red):
    evil = "=?utf-8?q?hi=0D=0ABcc=3A_victim=40evil=2Eexample?="
    raw = seat_mail(red, red_opening(game))
    raw = raw.replace(b"Subject: Re: turn report", f"Subject: {evil}".encode(), 1)
    ingest.ingest(raw, via="test")
    reply = last_reply(red.email)
    assert "\n" not in reply.subject and "\r" not in reply.subject
    from campaigns.mailout.composing import build_message

    sent = build_message(reply).message()
    assert sent.get_all("Bcc") is None
    assert "victim@evil.example" not in (sent.get("To") or "")


def test_header_injection_in_message_id_is_not_echoed(game, red):
    raw = seat_mail(red, red_opening(game), msgid="<a@b>")
    raw = raw.replace(b"Message-ID: <a@b>", b"Message-ID: <a@b>\r\n Bcc: victim@evil.example", 1)
    ingest.ingest(raw, via="test")
    reply = last_reply(red.email)
    assert "victim" not in reply.in_reply_to and all("victim" not in r for r in reply.references)


def test_tokens_never_appear_in_logs(game, red, caplog):
    caplog.set_level(logging.DEBUG)
    token = addresses.reply_address(red).split("+")[1].split("@")[0]
    ingest.ingest(seat_mail(red, red_opening(game)), via="test")
    ingest.ingest(mail(to=addresses.reply_address(red), frm="m@evil.example", body="pass"), via="test")
    ingest.ingest(seat_mail(red, "pass", headers={"Authentication-Results": f"{OUR_AR}; dmarc=fail"}), via="test")
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert caplog.records and token not in text


@pytest.mark.parametrize(
    "headers",
    [
        {"Auto-Submitted": "auto-replied"},
        {"Precedence": "bulk"},
        {"Precedence": "list"},
        {"Precedence": "junk"},
        {"List-Id": "<players.example.org>"},
        {"Return-Path": "<>"},
    ],
)
def test_automatic_mail_is_recorded_and_never_answered(game, red, headers):
    row = ingest.ingest(seat_mail(red, red_opening(game), headers=headers), via="test")
    assert row.status == S.IGNORED and "automatic" in row.error
    assert orders_of(game, "red") is None
    assert not OutboxMail.objects.exclude(kind="start").exists()  # the game-start mail only


def test_mailer_daemon_bounce_is_not_answered(game, red):
    raw = mail(to=addresses.reply_address(red), frm="MAILER-DAEMON@mx.example.org", body="Delivery failed")
    assert ingest.ingest(raw, via="test").status == S.IGNORED
    assert not OutboxMail.objects.exclude(kind="start").exists()  # the game-start mail only


def test_auto_submitted_no_is_a_person(game, red):
    row = ingest.ingest(seat_mail(red, red_opening(game), headers={"Auto-Submitted": "no"}), via="test")
    assert row.status == S.APPLIED


@override_settings(MAIL_REPLIES_PER_THREAD_HOUR=3)
def test_replies_per_thread_are_rate_limited(game):
    ar = {"Authentication-Results": f"{OUR_AR}; dkim=pass header.d=robot.example"}
    rows = [
        ingest.ingest(
            mail(
                to="orders+" + "1" * 32 + "@kriegsbrief.localhost",
                frm="loop@robot.example",
                body=f"hello {i}",
                headers=ar,
            ),
            via="test",
        )
        for i in range(6)
    ]
    assert all(r.status == S.REJECTED for r in rows)
    assert len(replies_to("loop@robot.example")) == 3
    assert "suppressed" in rows[-1].result["replies"][0]


def test_another_games_token_with_this_games_address_is_refused(people, game, blue):
    from tests.conftest import new_civilwar_game

    other_red = new_civilwar_game(people).seats.get(side="red")
    # carol (blue here) writes to the red seat's address of the other game
    raw = mail(to=addresses.reply_address(other_red), frm=blue.email, body="pass")
    row = ingest.ingest(raw, via="test")
    assert row.status == S.REJECTED
    assert not Event.objects.filter(type="orders.submitted").exists()


@postgres_only  # SQLite serialises writers, so there is no race to lose there
@pytest.mark.django_db(transaction=True)
def test_the_same_message_five_times_in_parallel_is_one_submission(game, red):
    import threading

    from django.db import connection

    raw = seat_mail(red, red_opening(game) + "\nWAIT")
    barrier, statuses = threading.Barrier(5), []

    def deliver():
        try:
            barrier.wait()
            statuses.append(ingest.ingest(raw, via="race").status)
        finally:
            connection.close()

    threads = [threading.Thread(target=deliver) for _ in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(statuses) == 5
    assert InboundMessage.objects.count() == 1
    assert Event.objects.filter(game=game, type="orders.submitted").count() == 1
    assert len(replies_to(red.email)) == 1


def test_mime_nested_thousands_deep_is_refused_with_a_reason(game, red):
    head = f"From: {red.email}\r\nTo: {addresses.reply_address(red)}\r\nMessage-ID: <deep@example.org>\r\n"
    nested = "".join(f"Content-Type: multipart/mixed; boundary=B{i}\r\n\r\n--B{i}\r\n" for i in range(3000))
    row = ingest.ingest((head + nested + "\r\npass\r\n").encode(), via="test")
    assert row.status == S.REJECTED and "nested too deeply" in row.error
    assert "nested too deeply" in last_reply(red.email).body
