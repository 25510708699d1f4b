"""0.1.0's Celery queue taken over (campaigns/legacyqueue.py), on real Redis and PostgreSQL.

The old release's messages are made as it made them: a Celery app whose default queue is the old
one and which knows no routes, publishing each task by name with the arguments 0.1.0's code gave
``.delay()`` (``adjudicate_turn.delay(game_id, turn)``, ``send_outbox_mail.delay(pk)``, beat's
``sweep``). The database is left as 0.1.0 and the migrations leave it: a closed turn and outbox
rows with no lease, one row claimed (SENDING) by a sender that never finished."""

import json
import threading
import time
from datetime import timedelta
from io import StringIO

import pytest
import redis
from celery import Celery
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from campaigns import legacyqueue
from campaigns.models import Event, Game, OutboxMail
from campaigns.turns import commands
from campaigns.turns.gamelog import verify_game
from tests.services import REDIS_URL, needs_redis
from tests.support.games import legal_op, state_of
from tests.support.workers import PREFIX, Beat, Worker, queue_of, wait_for

pytestmark = [needs_redis]
LEGACY = f"{PREFIX}celery"  # the workers this run starts read CELERY_QUEUE_PREFIX: "<prefix>celery" is theirs
TOKEN = "monitor-token-for-tests"


def old_release_app() -> Celery:
    """A publisher configured as 0.1.0's settings were: every task to the default queue, JSON."""
    app = Celery("kriegsbrief", broker=REDIS_URL, set_as_current=False)
    app.conf.update(task_default_queue=LEGACY, task_serializer="json", accept_content=["json"], task_routes=None)
    return app


def publish_as_0_1_0(*calls: tuple[str, tuple]) -> list[str]:
    """Each (task name, args) sent as 0.1.0's ``task.delay(*args)`` sent it; the message ids."""
    app = old_release_app()
    try:
        return [app.send_task(name, args=args, kwargs={}).id for name, args in calls]
    finally:
        app.close()


@pytest.fixture
def legacy(broker, settings):
    """The old queue named for this run, in this process (the workers find it by their prefix)."""
    settings.LEGACY_CELERY_QUEUES = [LEGACY]
    settings.CELERY_BROKER_URL, settings.CELERY_TASK_ALWAYS_EAGER = REDIS_URL, False
    settings.HEALTHZ_TOKEN = TOKEN
    return redis.Redis.from_url(REDIS_URL)


def healthz_broker(client):
    res = client.get("/healthz", headers={"Authorization": f"Bearer {TOKEN}"})
    return res.json()["checks"]["broker"]


def old_row(key: str, **fields) -> OutboxMail:
    """An outbox row as 0.1.0 wrote it: ``next_attempt_at`` set, no lease (migration 0008's NULL)."""
    return OutboxMail.objects.create(
        key=key,
        kind="notice",
        to=f"{key}@example.org",
        subject=f"[Kriegsbrief] {key}",
        body="A notice 0.1.0 queued.",
        message_id=f"<{key}@kriegsbrief>",
        **fields,
    )


def sent_with_id(smtp, message_id: str) -> int:
    return sum(1 for _rcpt, msg in smtp.messages if msg["Message-ID"] == message_id)


@pytest.mark.django_db(transaction=True)
def test_old_messages_are_taken_over_by_the_workers_and_their_work_done_once(
    game, legacy, smtp, client, monkeypatch, settings, tmp_path
):
    """A closed turn (queued twice by 0.1.0: the close and its sweep's re-queue), a pending mail and
    a mail 0.1.0 had claimed when it stopped: the maintenance worker empties the old queue and the
    rescue does each piece of work; each turn adjudicated once, each mail sent once."""
    commands.submit_orders(game.pk, "red", legal_op(game), source="api", ready=False)
    assert commands.close_turn(game.pk, "deadline passed")
    # 0.1.0's close queued to its own queue, not this release's: what this release queued goes, and
    # the lease is gone as migration 0008 leaves every game.
    legacy.delete(queue_of("adjudication"))
    Game.objects.filter(pk=game.pk).update(adjudication_leased_until=None)
    now = timezone.now()
    pending = old_row("legacy-pending", next_attempt_at=now - timedelta(seconds=30))
    claimed = old_row(
        "legacy-claimed", status=OutboxMail.Status.SENDING, attempts=1, next_attempt_at=now - timedelta(minutes=1)
    )
    publish_as_0_1_0(
        ("campaigns.tasks.adjudicate_turn", (game.pk, 1)),
        ("campaigns.tasks.send_outbox_mail", (pending.pk,)),
        ("campaigns.tasks.sweep", ()),
        ("campaigns.tasks.adjudicate_turn", (game.pk, 1)),
        ("campaigns.tasks.send_outbox_mail", (claimed.pk,)),
    )
    assert legacy.llen(LEGACY) == 5
    broker_check = healthz_broker(client)
    assert broker_check["ok"] is False and broker_check["error"] == "LegacyMessagesWait"
    assert broker_check["legacy_queues"] == {LEGACY: 5}

    monkeypatch.setenv("EMAIL_URL", f"smtp://{settings.EMAIL_HOST}:{settings.EMAIL_PORT}")
    monkeypatch.setenv("LEGACY_QUEUE_INTERVAL_SECONDS", "1")
    worker, beat = Worker(), Beat(tmp_path, rescue_every=1.0)
    try:
        assert wait_for(lambda: legacy.llen(LEGACY) == 0, 60), "the old queue was not taken over"
        assert wait_for(lambda: state_of(game).turn.number == 2, 90), "the closed turn was not adjudicated"
        assert wait_for(lambda: _all_sent(pending, claimed), 90), "the old mail was not sent"
        time.sleep(3)  # time for a second adjudication or send, were one to come
    finally:
        beat.stop()
        worker.stop()
    assert Event.objects.filter(game=game, type="turn.adjudicated", turn=1).count() == 1
    assert sent_with_id(smtp, pending.message_id) == 1 and sent_with_id(smtp, claimed.message_id) == 1
    assert legacy.llen(legacyqueue.kept_list(LEGACY)) == 0
    assert verify_game(game).ok
    broker_check = healthz_broker(client)
    assert broker_check["ok"] is True and broker_check["legacy_queues"] == {LEGACY: 0}
    connection.close()


def _all_sent(*rows) -> bool:
    return all(
        s == OutboxMail.Status.SENT
        for s in OutboxMail.objects.filter(pk__in=[r.pk for r in rows]).values_list("status", flat=True)
    )


@pytest.mark.django_db
def test_what_stands_for_each_old_message_is_said_and_the_old_claim_gets_its_lease(game, legacy):
    now = timezone.now()
    pending = old_row("pending", next_attempt_at=now + timedelta(minutes=1))
    sent = old_row("sent", status=OutboxMail.Status.SENT, sent_at=now)
    claimed = old_row(
        "claimed", status=OutboxMail.Status.SENDING, attempts=1, next_attempt_at=now + timedelta(minutes=7)
    )
    ours = old_row("ours", status=OutboxMail.Status.SENDING, attempts=1, leased_until=now + timedelta(seconds=20))
    publish_as_0_1_0(
        ("campaigns.tasks.adjudicate_turn", (game.pk, 1)),  # turn 1 is open: adjudicated long ago
        ("campaigns.tasks.send_outbox_mail", (pending.pk,)),
        ("campaigns.tasks.send_outbox_mail", (sent.pk,)),
        ("campaigns.tasks.send_outbox_mail", (claimed.pk,)),
        ("campaigns.mailin.tasks.poll_imap", ()),
        ("campaigns.tasks.adjudicate_turn", (999999, 3)),
        ("campaigns.tasks.send_outbox_mail", ("not-an-id",)),
    )
    outcome = legacyqueue.take_over()
    said = [(m.label(), what) for _q, m, what in outcome.taken]
    assert said == [
        (f"campaigns.tasks.adjudicate_turn({game.pk}, 1)", "already adjudicated"),
        (f"campaigns.tasks.send_outbox_mail({pending.pk})", "waiting: the rescue sends it when due"),
        (f"campaigns.tasks.send_outbox_mail({sent.pk})", "already sent"),
        (
            f"campaigns.tasks.send_outbox_mail({claimed.pk})",
            "being sent: the rescue takes it back if that attempt's lease runs out",
        ),
        ("campaigns.mailin.tasks.poll_imap()", "periodic: beat sends it again"),
        ("campaigns.tasks.adjudicate_turn(999999, 3)", "no such game"),
        ("campaigns.tasks.send_outbox_mail('not-an-id')", "not looked up (ValueError): left to the rescue"),
    ]
    assert outcome.kept == [] and outcome.adopted_sends == 1 and legacy.llen(LEGACY) == 0
    claimed.refresh_from_db()
    ours.refresh_from_db()
    assert claimed.leased_until == claimed.next_attempt_at  # 0.1.0's send lease, where this release reads it
    assert ours.leased_until == now + timedelta(seconds=20)  # this release's own claim: untouched
    assert legacyqueue.take_over().counts() == {"taken": 0, "kept": 0, "adopted_sends": 0}


@pytest.mark.django_db
def test_a_message_of_no_task_of_ours_is_kept_shown_and_forgotten_only_when_asked(legacy, client, capsys):
    publish_as_0_1_0(("campaigns.tasks.recount_everything", (1, 2)), ("campaigns.tasks.sweep", ()))
    legacy.lpush(LEGACY, b"not a celery message")
    outcome = legacyqueue.take_over()
    assert [m.task for _q, m in outcome.kept] == ["campaigns.tasks.recount_everything", None]
    assert [m.task for _q, m, _w in outcome.taken] == ["campaigns.tasks.sweep"]
    kept = legacyqueue.kept_list(LEGACY)
    assert legacy.llen(LEGACY) == 0 and legacy.llen(kept) == 2
    # Kept, it still fails the health check: someone must look at it.
    broker_check = healthz_broker(client)
    assert broker_check["ok"] is False and broker_check["legacy_kept"] == {LEGACY: 2}
    assert client.get("/healthz").json()["checks"]["broker"] == {"ok": False, "error": "LegacyMessagesWait"}
    call_command("take_over_legacy_queue", "--list")
    listed = capsys.readouterr().out
    assert "campaigns.tasks.recount_everything(1, 2)" in listed and "(unreadable)" in listed
    assert legacy.llen(kept) == 2  # --list takes nothing
    call_command("take_over_legacy_queue", "--forget-kept")
    assert "forgot 2 kept message(s)" in capsys.readouterr().out
    assert legacy.llen(kept) == 0 and healthz_broker(client)["ok"] is True


@pytest.mark.django_db
def test_the_command_takes_over_and_says_what_became_of_each_message(game, legacy, capsys):
    publish_as_0_1_0(("campaigns.tasks.adjudicate_turn", (game.pk, 1)), ("campaigns.mailin.tasks.retry_inbound", ()))
    call_command("take_over_legacy_queue")
    out = capsys.readouterr().out
    assert f"{LEGACY}: campaigns.tasks.adjudicate_turn({game.pk}, 1): already adjudicated" in out
    assert f"{LEGACY}: campaigns.mailin.tasks.retry_inbound(): periodic: beat sends it again" in out
    assert "taken over 2, kept aside 0; waiting now 0, kept in all 0" in out


@pytest.mark.django_db(transaction=True)
def test_concurrent_takers_take_each_message_exactly_once(legacy):
    ids = publish_as_0_1_0(*[("campaigns.tasks.sweep", ())] * 150, *[("campaigns.tasks.gone", ())] * 20)
    outcomes, errors = [], []

    def take():
        try:
            outcomes.append(legacyqueue.take_over())
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=take) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors
    taken = [m.id for o in outcomes for _q, m, _w in o.taken]
    kept = [m.id for o in outcomes for _q, m in o.kept]
    assert len(taken) == len(set(taken)) == 150 and len(kept) == len(set(kept)) == 20
    assert set(taken) | set(kept) == set(ids)
    assert legacy.llen(LEGACY) == 0 and legacy.llen(legacyqueue.kept_list(LEGACY)) == 20


@pytest.mark.django_db
def test_a_taker_that_died_between_its_two_steps_leaves_the_message_kept_and_the_next_takes_it(legacy):
    publish_as_0_1_0(("campaigns.tasks.sweep", ()))
    kept = legacyqueue.kept_list(LEGACY)
    assert legacy.rpoplpush(LEGACY, kept) is not None  # the first step, and then nothing
    assert legacyqueue.depths(legacy).kept == {LEGACY: 1}
    outcome = legacyqueue.take_over()
    assert [m.task for _q, m, _w in outcome.taken] == ["campaigns.tasks.sweep"]
    assert legacyqueue.depths(legacy).total == 0


@pytest.mark.django_db
def test_a_queue_this_release_reads_is_never_taken_over(legacy, settings):
    settings.CELERY_TASK_DEFAULT_QUEUE = LEGACY  # an installation that kept CELERY_TASK_DEFAULT_QUEUE=celery
    publish_as_0_1_0(("campaigns.tasks.sweep", ()))
    assert legacyqueue.queues() == []
    assert legacyqueue.take_over().counts()["taken"] == 0 and legacy.llen(LEGACY) == 1


@pytest.mark.django_db
def test_upgrade_check_counts_the_old_queue_and_what_old_workers_still_hold(legacy):
    """Before migrate: what waits in the old queue, and what 0.1.0's workers took and never
    acknowledged (kombu's ``unacked`` hash: [message, exchange, routing key]), which Redis puts back
    into the old queue after the visibility timeout."""
    publish_as_0_1_0(*[("campaigns.tasks.sweep", ())] * 3)
    taken = legacy.rpop(LEGACY)
    legacy.hset("unacked", "delivery-tag-1", json.dumps([json.loads(taken), LEGACY, LEGACY]))
    out = StringIO()
    call_command("upgrade_check", stdout=out)
    assert f"  {LEGACY}: 2 waiting, 1 held by 0.1.0's workers" in out.getvalue()
    assert "2 message(s) in 0.1.0's queue, 1 held back, 0 kept aside" in out.getvalue()
    assert legacy.llen(LEGACY) == 2 and legacy.hlen("unacked") == 1  # it only looked
