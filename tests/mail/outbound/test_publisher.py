"""With a broker, the after-commit publish of a send task runs on the outbox's publisher
thread: the task reaches Redis, a rolled-back row publishes nothing, and a publish that
fails leaves the row PENDING for the sweep. ``outbox.one_wakeup`` (mail-in's batches) hands
a transaction's rows to the broker in one publish, a send-many task."""

import base64
import json
import os
import subprocess
import sys
import textwrap

import pytest
import redis
from django.db import transaction
from django.utils import timezone

from campaigns.mailout import outbox
from campaigns.models import OutboxMail
from tests.services import REDIS_URL, needs_redis
from tests.support.workers import PREFIX, QUEUE, ROOT, queue_of, wait_for  # noqa: F401

pytestmark = [needs_redis, pytest.mark.django_db(transaction=True)]


def publishes() -> list[tuple[str, list[int]]]:
    """The send tasks waiting on the test's queue (Celery protocol 2, JSON): (task, row ids) each."""
    out = []
    for raw in reversed(redis.Redis.from_url(REDIS_URL).lrange(queue_of("mail"), 0, -1)):  # oldest first
        message = json.loads(raw)
        task, arg = message["headers"]["task"], json.loads(base64.b64decode(message["body"]))[0][0]
        assert task in ("campaigns.tasks.send_outbox_mail", "campaigns.tasks.send_outbox_mails")
        out.append((task, [arg] if task.endswith("_mail") else arg))
    return out


def tasks_on_broker() -> list[int]:
    """The row ids of the send tasks waiting on the test's queue."""
    return sorted(pk for _, ids in publishes() for pk in ids)


def queue(game, key):
    return outbox.queue_mail(key=key, to="bob@example.org", subject="Hello", body="x", game=game)


def test_committed_rows_reach_the_broker_and_a_rolled_back_one_does_not(game, broker):
    with transaction.atomic():
        first = queue(game, "pub-1")
        second = queue(game, "pub-2")
    with pytest.raises(RuntimeError), transaction.atomic():
        queue(game, "pub-3")
        raise RuntimeError("the command failed")
    outbox.flush_publisher()
    assert tasks_on_broker() == sorted([first.pk, second.pk])
    assert set(OutboxMail.objects.exclude(kind="start").values_list("status", flat=True)) == {"pending"}  # no worker


def test_a_failed_publish_leaves_the_row_for_the_sweep(game, broker, monkeypatch, caplog):
    from campaigns.tasks import send_outbox_mail

    def down(*args, **kwargs):
        raise ConnectionRefusedError("broker down")

    monkeypatch.setattr(send_outbox_mail, "delay", down)
    row = queue(game, "pub-down")
    outbox.flush_publisher()
    assert "queueing failed (ConnectionRefusedError); the sweep retries" in caplog.text
    monkeypatch.undo()
    assert tasks_on_broker() == []
    row.refresh_from_db()
    assert row.status == "pending" and row.leased_until is None  # the failed hand-off released it
    assert outbox.requeue_due(timezone.now()) == 1  # so the rescue queues it at once
    assert outbox.requeue_due(timezone.now()) == 0  # and once
    outbox.flush_publisher()
    assert tasks_on_broker() == [row.pk]


def test_a_process_that_exits_right_after_committing_still_publishes(game, broker):
    """The MTA pipe's case: the command exits as soon as the message is processed."""
    from tests.services import database_url

    script = textwrap.dedent(f"""
        import django, os
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kriegsbrief.settings")
        django.setup()
        from campaigns.mailout import outbox
        from campaigns.models import Game
        outbox.queue_mail(key="pub-exit", to="bob@example.org", subject="Hi", body="x", game=Game.objects.get(pk={game.pk}))
    """)
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "CELERY_BROKER_URL": REDIS_URL,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "CELERY_QUEUE_PREFIX": PREFIX,
    }
    proc = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, timeout=120)
    assert proc.returncode == 0, proc.stderr.decode()
    assert tasks_on_broker() == [OutboxMail.objects.get(key="pub-exit").pk]


def test_one_wakeup_publishes_a_transactions_rows_once_and_not_a_rolled_back_savepoints(game, broker):
    with transaction.atomic():
        first = queue(game, "many-1")
        with pytest.raises(RuntimeError), transaction.atomic():
            queue(game, "many-2")
            raise RuntimeError("this message failed")
        third = queue(game, "many-3")
        with transaction.atomic():
            fourth = queue(game, "many-4")
        outbox.one_wakeup()
    outbox.flush_publisher()
    assert publishes() == [("campaigns.tasks.send_outbox_mails", [first.pk, third.pk, fourth.pk])]
    assert not OutboxMail.objects.filter(key="many-2").exists()


def test_one_wakeup_inside_a_savepoint_merges_only_its_sends_and_its_rollback_drops_them(game, broker):
    with transaction.atomic():
        kept = queue(game, "level-0")
        with pytest.raises(RuntimeError), transaction.atomic():
            queue(game, "level-1a")
            queue(game, "level-1b")
            outbox.one_wakeup()
            assert len(transaction.get_connection().run_on_commit) == 2  # the outer send, and the merged one
            raise RuntimeError("the block failed")
    outbox.flush_publisher()
    assert publishes() == [("campaigns.tasks.send_outbox_mail", [kept.pk])]


def test_one_wakeup_keeps_other_after_commit_work_in_its_place(game, broker):
    ran = []
    with transaction.atomic():
        transaction.on_commit(lambda: ran.append("before"))
        first = queue(game, "order-1")
        transaction.on_commit(lambda: ran.append("after"))
        second = queue(game, "order-2")
        outbox.one_wakeup()
        assert [f.__name__ for _, f, _ in transaction.get_connection().run_on_commit] == [
            "<lambda>",
            "send_after_commit",
            "<lambda>",
        ]
    outbox.flush_publisher()
    assert ran == ["before", "after"]
    assert publishes() == [("campaigns.tasks.send_outbox_mails", [first.pk, second.pk])]


def test_a_failed_publish_of_many_releases_every_row_for_the_rescue(game, broker, monkeypatch, caplog):
    from campaigns.tasks import send_outbox_mails

    def down(*args, **kwargs):
        raise ConnectionRefusedError("broker down")

    monkeypatch.setattr(send_outbox_mails, "delay", down)
    with transaction.atomic():
        rows = [queue(game, f"many-down-{i}") for i in range(3)]
        outbox.one_wakeup()
    outbox.flush_publisher()
    assert "queueing failed (ConnectionRefusedError); the sweep retries" in caplog.text
    monkeypatch.undo()
    assert tasks_on_broker() == []
    assert set(OutboxMail.objects.filter(key__startswith="many-down-").values_list("leased_until", flat=True)) == {None}
    assert outbox.requeue_due(timezone.now()) == 3  # the rescue queues them at once: one task for the three
    outbox.flush_publisher()
    assert publishes() == [("campaigns.tasks.send_outbox_mails", [r.pk for r in rows])]


def test_an_inbound_batch_hands_its_acknowledgements_to_the_broker_in_one_publish(game, broker):
    from campaigns.mailin import ingest
    from campaigns.turns import addresses
    from tests.support.mail import mail

    to = addresses.reply_address(game.seats.get(side="red"))
    auth = {"Authentication-Results": "mx.kriegsbrief.localhost; dmarc=pass"}
    raws = [mail(to=to, frm="bob@example.org", body="STATUS", headers=auth) for _ in range(3)]
    raws.append(mail(to=to, frm="mallory@evil.example", body="STATUS"))  # refused, and not answered: a stranger
    rows = ingest.ingest_many(raws, via="test")
    outbox.flush_publisher()
    assert [r.status for r in rows] == ["applied", "applied", "applied", "rejected"]
    acks = [OutboxMail.objects.get(key=f"mailin:{r.pk}:ack").pk for r in rows[:3]]
    assert publishes() == [("campaigns.tasks.send_outbox_mails", acks)]


def test_one_wakeup_keeps_the_maps_to_draw_ahead(game, broker):
    """The merged send still asks the render queue for each row's map (a head start for the
    senders; without it each sender would draw its map itself)."""
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>'
    with transaction.atomic():
        rows = [
            outbox.queue_mail(key=f"drawn-{i}", to="bob@example.org", subject="Hi", body="x", game=game, map_svg=svg)
            for i in range(2)
        ]
        outbox.one_wakeup()
    outbox.flush_publisher()
    assert publishes() == [("campaigns.tasks.send_outbox_mails", [r.pk for r in rows])]
    renders = [json.loads(raw) for raw in redis.Redis.from_url(REDIS_URL).lrange(queue_of("render"), 0, -1)]
    drawn = sorted(json.loads(base64.b64decode(m["body"]))[0][0] for m in renders)
    assert [m["headers"]["task"] for m in renders] == ["campaigns.tasks.render_map"] * 2
    assert drawn == sorted(r.pk for r in rows)


def test_the_publisher_thread_leaves_no_connection_open(game, smtp):
    """A send the publisher thread ran in-process (the app was eager when it published: a test's
    broker put away meanwhile) used a connection of that thread's own; the thread, which lives on,
    closes it once the item is done, so no session stays on the database (tests/support/dbleaks.py)."""
    from tests.support import dbleaks

    row = OutboxMail.objects.create(
        key="pub-eager", to="bob@example.org", subject="Hello", body="x", message_id="<pub-eager@kb>", game=game
    )
    outbox._Publisher.get().put([row.pk])
    try:
        assert wait_for(lambda: OutboxMail.objects.get(pk=row.pk).status == "sent")
        assert dbleaks.leaked() == []
    finally:
        outbox.flush_publisher()


def test_a_published_turns_reports_reach_the_broker_in_one_publish(game, broker):
    """An adjudication mails every seat its report: one send-many task for them all (sent over one
    SMTP connection), not a publish each."""
    from campaigns.turns import commands
    from rules.civilwar import legal_operations
    from tests.support.games import state_of

    text = legal_operations(state_of(game).rules, "red")[0]
    assert commands.submit_orders(game.pk, "red", text, source="mail").accepted  # closes turn 1
    redis.Redis.from_url(REDIS_URL).delete(queue_of("mail"))  # the order's acknowledgement: not this test's
    assert commands.adjudicate(game.pk, 1)
    outbox.flush_publisher()
    reports = sorted(OutboxMail.objects.filter(kind="report").values_list("pk", flat=True))
    assert len(reports) == 3
    assert publishes() == [("campaigns.tasks.send_outbox_mails", reports)]


# --- rows written later (outbox.writing_later: mail-in's batches) ------------------------------


def later(game, key):
    return outbox.queue_mail(key=key, to="bob@example.org", subject="Hello", body="x", game=game, later=True)


def keys() -> list[str]:
    return list(OutboxMail.objects.exclude(kind="start").order_by("pk").values_list("key", flat=True))


def empty_broker():
    outbox.flush_publisher()  # the game's start mail
    redis.Redis.from_url(REDIS_URL).delete(queue_of("mail"))


def test_rows_written_later_keep_their_order_and_their_sends(game, broker):
    queue(game, "taken")  # a key queued before: held again, it is not written and sends nothing
    empty_broker()
    with transaction.atomic(), outbox.writing_later() as held:
        first = later(game, "later-1")
        assert first.pk is None  # held, not written yet
        between = queue(game, "direct")  # a row queued directly writes the held ones first
        assert first.pk is not None and first.pk < between.pk
        taken, last = later(game, "taken"), later(game, "later-2")
        outbox.one_wakeup()  # merged before the held rows are written: their ids are read at the send
        held.finish()
    outbox.flush_publisher()
    assert publishes() == [("campaigns.tasks.send_outbox_mails", [first.pk, between.pk, last.pk])]
    assert between.pk < last.pk and taken.pk is None
    assert keys() == ["taken", "later-1", "direct", "later-2"]


def test_a_held_row_written_in_a_savepoint_rolled_back_is_written_again(game, broker):
    """Held outside the savepoint, as queue_mail would have written it there: its rollback (caught,
    the transaction goes on) must not lose it; the row queued inside it is gone with it."""
    empty_broker()
    with transaction.atomic(), outbox.writing_later() as held:
        kept = later(game, "held-outside")
        with pytest.raises(RuntimeError), transaction.atomic():
            queue(game, "inside")  # writes the held row first, inside the savepoint
            assert later(game, "not-held") is not None  # inside a savepoint: written at once
            raise RuntimeError("undone, and caught")
        held.finish()
    outbox.flush_publisher()
    assert keys() == ["held-outside"]
    assert tasks_on_broker() == [kept.pk]


def test_held_rows_are_dropped_with_a_rolled_back_transaction(game, broker):
    with pytest.raises(RuntimeError), transaction.atomic(), outbox.writing_later():
        later(game, "rolled-back")
        raise RuntimeError("the batch failed")
    later(game, "after")  # outside the block: written at once, nothing held is left to write
    outbox.flush_publisher()
    assert keys() == ["after"]
