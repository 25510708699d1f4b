"""Batched ingestion (``ingest.ingest_many``, the IMAP poller's path).

The same messages ingested one by one and in batches leave the same world
behind: rows, events, mail queued and sent, absences. A crash mid-batch loses
nothing: every raw message was committed before processing began, and the
sweep processes what the dead batch left behind.
"""

import itertools
import json
import os
import re
import signal
from datetime import date, timedelta

import pytest
from django.core.management import call_command
from django.db import connection, connections, transaction
from django.test import override_settings
from django.utils import timezone

from campaigns.mailin import apply, ingest
from campaigns.mailin.models import Absence, InboundMessage, SeatAddress
from campaigns.mailout import outbox
from campaigns.models import Campaign, Event, Game, OutboxMail, Seat
from campaigns.turns import addresses, creation
from rules.core import dice
from tests.services import postgres_only
from tests.support.games import orders_of
from tests.support.mail import mail

from .test_clients import CORPUS, SAMPLE_TOKEN
from .test_cpython_corpus import MESSAGES as CPYTHON

S = InboundMessage.Status
OUR_AR = "mx.kriegsbrief.localhost"
BOOM = "BOOM-THIS-MESSAGE-FAILS"
TIME = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[+-]\d{2}:?\d{2}|Z)?")


def new_world():
    """Two Civil War games (the second only for its tokens); red's first address revoked."""
    campaign = Campaign.objects.create(name="batch")
    seats = [
        {"role": "umpire", "email": "alice@example.org"},
        {"role": "player", "side": "red", "email": "bob@example.org"},
        {"role": "player", "side": "blue", "email": "carol@example.org"},
    ]
    game = creation.create_game(campaign=campaign, name="Test game", ruleset="civilwar", seats=seats, operator=True)
    other = creation.create_game(campaign=campaign, name="Other game", ruleset="civilwar", seats=seats, operator=True)
    red, blue = game.seats.get(side="red"), game.seats.get(side="blue")
    revoked = addresses.reply_address(red)
    addresses.revoke(red)
    return game, red, blue, other.seats.get(side="red"), revoked


def messages(game, red, blue, other_red, revoked) -> list[bytes]:
    """The client corpus, the security samples and CPython's corpus as if red sent it, then
    both sides' orders (the turn closes and is adjudicated) and what follows in turn 2."""
    ids = itertools.count()

    def mid():
        return f"<batch-{next(ids)}@client.example>"

    red_to, blue_to = addresses.reply_address(red), addresses.reply_address(blue)
    token = red_to.split("+")[1].split("@")[0].encode()
    opening = f"form {_tokens(game)['red']}"

    def seat(seat_to, frm, body, **kw):
        return mail(to=seat_to, frm=frm, body=body, msgid=mid(), **kw)

    out = [(CORPUS / p.name).read_bytes().replace(SAMPLE_TOKEN, token) for p in sorted(CORPUS.glob("*.eml"))]
    ar_fail = {"Authentication-Results": f"{OUR_AR}; dmarc=fail"}
    replay = seat(red_to, red.email, opening)
    two_from = seat(red_to, red.email, opening).replace(b"From: ", b"From: Mallory <mallory@evil.example>\r\nFrom: ", 1)
    forged_below = seat(red_to, red.email, "pass", headers=ar_fail).replace(
        b"\r\n\r\n", f"\r\nAuthentication-Results: {OUR_AR}; dmarc=pass\r\n\r\n".encode(), 1
    )
    out += [
        seat(red_to, "Mallory <mallory@evil.example>", opening, subject="hello"),
        seat("orders+" + "0" * 32 + "@kriegsbrief.localhost", red.email, opening),
        two_from,
        seat(red_to, f"{red.email}, mallory@evil.example", opening),
        seat(addresses.reply_address(other_red), blue.email, "pass"),
        seat(revoked, red.email, opening),
        seat(red_to, red.email, opening, headers=ar_fail),
        seat(red_to, red.email, opening, headers={"Authentication-Results": "mx.evil.example; dmarc=fail"}),
        forged_below,
        seat(red_to, red.email, opening + "\n" + "x" * 30_000),
        seat(
            red_to,
            red.email,
            "pass",
            attachments=[(f"a{i}.bin", b"\x00" * 10, "application/octet-stream") for i in range(25)],
        ),
        seat(red_to, red.email, opening, subject="=?utf-8?q?hi=0D=0ABcc=3A_victim=40evil=2Eexample?="),
        replay,
        replay,
        *[
            seat(red_to, red.email, opening, headers=h)
            for h in (
                {"Auto-Submitted": "auto-replied"},
                {"Precedence": "bulk"},
                {"List-Id": "<players.example.org>"},
                {"Return-Path": "<>"},
                {"Auto-Submitted": "no"},
            )
        ],
        seat(red_to, "MAILER-DAEMON@mx.example.org", "Delivery failed"),
        seat(red_to, red.email, f"{opening}\n{BOOM}"),  # an internal error: FAILED, rolled back alone
        *[seat("orders+" + "1" * 32 + "@kriegsbrief.localhost", "loop@robot.example", f"hello {i}") for i in range(5)],
    ]
    for i, path in enumerate(CPYTHON):
        raw = re.sub(
            rb"(?mi)^(from|message-id|auto-submitted|precedence|return-path|delivered-to):.*\r?\n",
            b"",
            path.read_bytes(),
        )
        out.append(f"Delivered-To: {red_to}\nFrom: {red.email}\nMessage-ID: <cpython-{i}@test>\n".encode() + raw)
    away = (date.today() + timedelta(days=5)).isoformat()
    out += [
        seat(red_to, red.email, f"{opening}\nREADY\nABSENT UNTIL {away}\nMESSAGE umpire\nback soon\nEND"),
        seat(blue_to, blue.email, "pass\nREADY"),  # both ready: the turn closes and is adjudicated on commit
        seat(blue_to, blue.email, "STATUS\nRESEND"),  # turn 2 and its report, only if turn 1 was adjudicated
        seat(blue_to, blue.email, "HELP"),
        replay,
        seat("orders+" + "1" * 32 + "@kriegsbrief.localhost", "loop@robot.example", "hello again"),
    ]
    return out


def failing_carry_out(real):
    def carry_out(row, seat, msg):
        if BOOM in (msg.body or ""):
            raise RuntimeError("worker lost its database connection")
        return real(row, seat, msg)

    return carry_out


def outcome() -> dict:
    """Everything ingestion leaves behind, with what differs between two runs by design
    (random tokens and game uids, clock readings) written as placeholders."""
    subs = {
        a.token: f"<token {a.seat.game.name}/{a.seat.side or a.seat.role}/{a.revoked_at is None}>"
        for a in SeatAddress.objects.select_related("seat__game")
    }
    subs.update({str(g.uid): f"<uid {g.name}>" for g in Game.objects.all()})
    subs.update({g.uid.hex: f"<uid {g.name}>" for g in Game.objects.all()})
    subs.update(  # each reader's thread root is derived (a keyed hash) from the game's uid
        {
            outbox.thread_root(seat.game, seat, version): f"<root {seat.game.name}/{seat.side or seat.role}/{version}>"
            for seat in Seat.objects.select_related("game")
            for version in range(seat.version + 1)
        }
    )

    def norm(value) -> str:
        text = value if isinstance(value, str) else json.dumps(value, sort_keys=True, default=str)
        for secret, name in subs.items():
            text = text.replace(secret, name)
        return TIME.sub("<time>", text)

    return {
        "inbound": [
            (
                m.pk,
                norm(m.dedupe_key),  # names the seat address it was delivered to
                m.status,
                norm(m.error),
                m.attempts,
                m.seat_id,
                m.from_addr,
                m.subject,
                m.thread_key,
                m.replied_at is None,
                m.processed_at is None,
                norm(m.result),
            )
            for m in InboundMessage.objects.order_by("pk")
        ],
        "events": [
            (e.game_id, e.seq, e.turn, e.type, e.audience, norm(e.payload)) for e in Event.objects.order_by("pk")
        ],
        "outbox": [
            (
                norm(o.key),
                o.kind,
                o.status,
                o.to,
                o.seat_id,
                o.game_id,
                norm(o.reply_to),
                norm(o.subject),
                norm(o.body),
                norm(o.html),
                norm(o.svg),
                norm(o.attachments),
                o.message_id == outbox.message_id_for(o.key),
                norm(o.in_reply_to),
                norm(o.references),
            )
            for o in OutboxMail.objects.order_by("pk")
        ],
        "absences": [(a.seat_id, a.until, a.inbound_id) for a in Absence.objects.order_by("pk")],
        "games": [(g.pk, g.status, g.turn_number, g.turn_status) for g in Game.objects.order_by("pk")],
    }


def run(monkeypatch, deliver) -> dict:
    seeds = itertools.count()
    monkeypatch.setattr(dice, "new_seed", lambda: f"{next(seeds):064x}")  # the same dice in both runs
    world = new_world()
    deliver(messages(*world))
    return outcome()


def _tokens(game):
    from campaigns.turns import gamelog

    tokens = gamelog.load(game.pk).state.rules["tokens"]
    return {
        side: sorted((c for c, face in tokens.items() if face == side), key=lambda c: int(c[1:]))[0]
        for side in ("red", "blue")
    }


def _flush():
    """Empty the database, its sequences reset: both runs number their rows from 1."""
    sqlite = connection.vendor == "sqlite"
    if sqlite:  # its append-only triggers refuse the DELETE a flush is there
        from campaigns.log import sqlite_triggers

        with connection.cursor() as cur:
            for sql in sqlite_triggers.drop_sql():
                cur.execute(sql)
    call_command("flush", interactive=False, verbosity=0)
    if sqlite:
        with connection.cursor() as cur:
            for sql in sqlite_triggers.create_sql():
                cur.execute(sql)


@pytest.mark.django_db(transaction=True)
@override_settings(MAIL_MAX_BYTES=20_000, MAIL_MAX_PARTS=20)
def test_batches_leave_exactly_what_one_by_one_leaves(monkeypatch):
    monkeypatch.setattr(apply, "carry_out", failing_carry_out(apply.carry_out))
    _flush()
    single = run(monkeypatch, lambda raws: [ingest.ingest(raw, via="imap") for raw in raws])
    _flush()
    batched = run(
        monkeypatch, lambda raws: [ingest.ingest_many(raws[i : i + 7], via="imap") for i in range(0, len(raws), 7)]
    )
    for part in single:
        assert len(batched[part]) == len(single[part]), part
        for one, many in zip(single[part], batched[part], strict=True):
            assert many == one, part
    # ... and the run did what the samples are there for.
    statuses = {row[2] for row in single["inbound"]}
    assert statuses == {S.APPLIED, S.REJECTED, S.HELD, S.IGNORED, S.FAILED}
    assert single["games"][0][2] >= 3  # turns adjudicated between two messages of a batch
    assert any("suppressed" in row[-1] for row in single["inbound"])  # the rate limit reached
    assert any(o[1] == "resend" for o in single["outbox"])
    assert single["absences"]


@pytest.mark.django_db(transaction=True)
def test_a_batch_returns_one_row_per_message_and_repeats_are_one_row(game, red):
    first = mail(to=addresses.reply_address(red), frm=red.email, body="STATUS", msgid="<one@x>")
    before = ingest.ingest(first, via="test")
    second = mail(to=addresses.reply_address(red), frm=red.email, body="HELP", msgid="<two@x>")
    rows = ingest.ingest_many([first, second, second], via="imap")
    assert [r.pk for r in rows] == [before.pk, rows[1].pk, rows[1].pk] and rows[1].pk != before.pk
    assert [r.status for r in rows] == [S.APPLIED] * 3
    assert InboundMessage.objects.count() == 2
    assert OutboxMail.objects.filter(kind="mail-reply").count() == 2
    assert ingest.ingest_many([], via="imap") == []


def test_a_batch_is_never_inside_a_callers_transaction(db, game, red):
    raw = mail(to=addresses.reply_address(red), frm=red.email, body="STATUS")
    with pytest.raises(RuntimeError, match="durable"), transaction.atomic():
        ingest.ingest_many([raw], via="imap")


def test_a_failing_message_rolls_back_only_itself(db, game, red, monkeypatch):
    monkeypatch.setattr(apply, "carry_out", failing_carry_out(apply.carry_out))
    opening = f"form {_tokens(game)['red']}"
    raws = [
        mail(to=addresses.reply_address(red), frm=red.email, body=f"{opening}\nWAIT"),
        mail(to=addresses.reply_address(red), frm=red.email, body=f"{opening}\n{BOOM}"),
        mail(to=addresses.reply_address(red), frm=red.email, body="STATUS"),
    ]
    good, bad, status = ingest.ingest_many(raws, via="imap")
    assert bad.status == S.FAILED and "RuntimeError: worker lost" in bad.error and bad.attempts == 1
    assert good.status == status.status == S.APPLIED
    orders = Event.objects.filter(game=game, type="orders.submitted")
    assert orders.count() == 1 and orders_of(game, "red")["text"] == opening
    assert "ready: nobody" in OutboxMail.objects.get(key=f"mailin:{status.pk}:ack").body
    assert not OutboxMail.objects.filter(key__startswith=f"mailin:{bad.pk}:").exists()
    monkeypatch.undo()
    assert ingest.retry_pending(timezone.now()) == 1
    bad.refresh_from_db()
    assert bad.status == S.APPLIED and bad.attempts == 2
    # Processed now, though a later message was applied meanwhile (not taken for a replay); the line is prose.
    assert BOOM in OutboxMail.objects.get(key=f"mailin:{bad.pk}:ack").body


@pytest.mark.django_db(transaction=True)
def test_a_failure_after_good_messages_leaves_them_applied_once(game, red, blue, monkeypatch):
    """A batch runs without a savepoint per message until one raises; then it is rolled back and
    run again isolated: what the first run did to the good ones is gone, and each is applied,
    counted as attempted and acknowledged once."""
    monkeypatch.setattr(apply, "carry_out", failing_carry_out(apply.carry_out))
    tokens = _tokens(game)
    raws = [
        mail(to=addresses.reply_address(red), frm=red.email, body=f"form {tokens['red']}\nWAIT"),
        mail(to=addresses.reply_address(blue), frm=blue.email, body="STATUS"),
        mail(to=addresses.reply_address(red), frm=red.email, body=f"STATUS\n{BOOM}"),
        mail(to=addresses.reply_address(red), frm=red.email, body=f"form {tokens['red']}\nWAIT"),  # sent again
    ]
    rows = ingest.ingest_many(raws, via="imap")
    assert [(r.status, r.attempts) for r in rows] == [(S.APPLIED, 1), (S.APPLIED, 1), (S.FAILED, 1), (S.APPLIED, 1)]
    assert Event.objects.filter(game=game, type="orders.submitted").count() == 2
    for r in rows:
        stored = InboundMessage.objects.get(pk=r.pk)
        assert (stored.status, stored.attempts) == (r.status, r.attempts)
        assert OutboxMail.objects.filter(key__startswith=f"mailin:{r.pk}:").count() == (r.status == S.APPLIED)


def _die_at(raws, nth):
    """In a child process: ingest a batch and be killed while processing its ``nth`` message."""
    calls = itertools.count(1)
    real = apply.carry_out

    def carry_out(row, seat, msg):
        if next(calls) == nth:
            os.kill(os.getpid(), signal.SIGKILL)
        return real(row, seat, msg)

    apply.carry_out = carry_out
    ingest.ingest_many(raws, via="imap")


@postgres_only  # the child process needs a database the parent's connection does not own
@pytest.mark.django_db(transaction=True)
def test_a_batch_killed_mid_processing_loses_nothing(game, red):
    import multiprocessing

    raws = [
        mail(to=addresses.reply_address(red), frm=red.email, body=f"form {_tokens(game)['red']}\nWAIT")
        for _ in range(6)
    ]
    connections.close_all()  # the child must not share this process's socket
    child = multiprocessing.get_context("fork").Process(target=_die_at, args=(raws, 4))
    child.start()
    child.join(60)
    assert child.exitcode == -signal.SIGKILL
    # Every message was stored before processing began; none of the dead batch's work stayed.
    assert InboundMessage.objects.count() == 6
    assert set(InboundMessage.objects.values_list("status", flat=True)) == {S.RECEIVED}
    assert (
        not Event.objects.filter(type="orders.submitted").exists()
        and not OutboxMail.objects.exclude(kind="start").exists()
    )
    assert ingest.retry_pending(timezone.now()) == 0  # too fresh: the batch may still be running
    assert ingest.retry_pending(timezone.now() + timedelta(minutes=2)) == 6
    assert set(InboundMessage.objects.values_list("status", flat=True)) == {S.APPLIED}
    assert Event.objects.filter(type="orders.submitted").count() == 6
    assert OutboxMail.objects.filter(kind="mail-reply").count() == 6
    assert orders_of(game, "red")["source"] == "mail"


def test_a_batch_reads_each_replay_check_once_and_only_while_it_is_fresh(game, red, blue, monkeypatch):
    """batch.py: the replay checks of a batch's messages are read at its start; a message uses
    its own while no message before it in the batch touched its seat or threads, and reads the
    table otherwise - holding an old copy of red's applied mail either way."""
    from campaigns.mailin import batch

    used = []
    real_fresh = batch.Batch.fresh
    monkeypatch.setattr(batch.Batch, "fresh", lambda self, *a: used.append(real_fresh(self, *a)) or used[-1])
    red_to, blue_to = addresses.reply_address(red), addresses.reply_address(blue)
    opening = f"form {_tokens(game)['red']}"
    older = mail(to=red_to, frm=red.email, body=f"{opening}\nWAIT")  # Dates rise: this one is the older
    newer = mail(to=red_to, frm=red.email, body=f"{opening}\nWAIT")
    assert ingest.ingest(newer, via="imap").status == S.APPLIED
    again = mail(to=red_to, frm=red.email, body="STATUS")
    rows = ingest.ingest_many([older, mail(to=blue_to, frm=blue.email, body="STATUS"), again], via="imap")
    assert [r.status for r in rows] == [S.HELD, S.APPLIED, S.APPLIED]
    assert "older than the newest message" in rows[0].error
    # red's first and blue's read at the start; red's second after red's first touched the seat
    assert [u is not None for u in used] == [True, True, False]


def test_a_batch_check_is_stale_once_its_seat_or_thread_is_touched():
    from campaigns.mailin import batch

    held = batch.Batch(fields=[])
    held.checks = {1: (10, ("a", "b"), ("", "", 0, 0)), 2: (11, ("c",), (None, None, 3))}
    assert held.fresh(1, 10, ("a", "b")) == ("", "", 0, 0)
    assert held.fresh(1, 11, ("a", "b")) is None and held.fresh(1, 10, ("a",)) is None  # asked for another
    assert held.fresh(3, 10, ("a", "b")) is None  # never read
    held.processed(InboundMessage(seat_id=None, thread_key="b"))
    assert held.fresh(1, 10, ("a", "b")) is None and held.fresh(2, 11, ("c",)) == (None, None, 3)
    held.processed(InboundMessage(seat_id=11, thread_key=""))
    assert held.fresh(2, 11, ("c",)) is None
