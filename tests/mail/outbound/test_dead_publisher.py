"""A process killed after committing outbox rows but before publishing their send (its publisher
thread never ran) leaves the rows PENDING under a long queued lease. The rescue sees that their
owner is dead (campaigns/liveness.py) and queues them at once: a real worker sends each once,
although the queued lease (an hour here) has not run out."""

import os
import signal
import subprocess
import sys
import time

import pytest

from campaigns import liveness
from campaigns.models import LiveProcess, OutboxMail
from tests.services import needs_redis
from tests.support.workers import ROOT, Beat, Worker, _process_env, wait_for

pytestmark = [needs_redis, pytest.mark.django_db(transaction=True)]

# Commits two rows (queue_mail, as any command does), then dies by SIGKILL where its publisher
# would have been handed the send: the rows are committed, no message was ever published.
COMMIT_THEN_DIE = """
import os, signal, django
django.setup()
from django.db import transaction
from campaigns.mailout import outbox
outbox._Publisher.put = lambda self, ids, render=(): os.kill(os.getpid(), signal.SIGKILL)
with transaction.atomic():
    for n in ("one", "two"):
        outbox.queue_mail(key=f"orphan-{n}", to=f"{n}@example.org", subject=f"Orphan {n}", body="x")
"""


def test_rows_of_a_publisher_killed_before_its_publish_are_sent_at_once(smtp, broker, settings, monkeypatch, tmp_path):
    monkeypatch.setenv("EMAIL_URL", f"smtp://{settings.EMAIL_HOST}:{settings.EMAIL_PORT}")
    env = _process_env(QUEUED_LEASE_SECONDS="3600", DJANGO_SETTINGS_MODULE="kriegsbrief.settings")
    died = subprocess.run([sys.executable, "-c", COMMIT_THEN_DIE], cwd=ROOT, env=env, capture_output=True, timeout=120)
    assert died.returncode == -signal.SIGKILL, died.stderr.decode()[-2000:]
    rows = list(OutboxMail.objects.filter(key__startswith="orphan-"))
    assert [r.status for r in rows] == ["pending", "pending"]
    owner = LiveProcess.objects.get(pk=rows[0].held_by)
    assert {r.held_by for r in rows} == {owner.pk} and liveness.start_time(owner.pid) is None
    worker, beat = Worker(env={"QUEUED_LEASE_SECONDS": "3600"}), Beat(tmp_path, rescue_every=1.0)
    try:
        assert wait_for(lambda: len(smtp.messages) >= 2, 90), "the dead publisher's rows were not sent"
        time.sleep(1)  # a second copy, if one were queued, would have had its time
    finally:
        beat.stop()
        worker.stop()
    assert sorted(m["Subject"] for _, m in smtp.messages) == ["Orphan one", "Orphan two"]
    assert set(OutboxMail.objects.filter(key__startswith="orphan-").values_list("status", flat=True)) == {"sent"}
    assert not LiveProcess.objects.filter(pk=owner.pk).exists()  # forgotten once nothing waits in its name


# Queues three rows while the broker is not used (nothing publishes them), then sends them as one
# send-many task in a process that dies by SIGKILL in the middle of the second row's conversation.
SEND_MANY_THEN_DIE = """
import os, signal, sys, django
django.setup()
from django.db import transaction
from campaigns.mailout import outbox
ids = [int(a) for a in sys.argv[1:]]
deliver = outbox._deliver
def deliver_or_die(row, smtp):
    if row.pk == ids[1]:
        os.kill(os.getpid(), signal.SIGKILL)
    return deliver(row, smtp)
outbox._deliver = deliver_or_die
outbox.send_many(ids)
"""


def test_rows_of_a_sender_killed_mid_batch_are_sent_again_at_once(game, smtp, broker, settings, monkeypatch):
    """A mail worker killed whole in a send-many task: the row it was sending and the rows it had not
    reached are held in its name, so the rescue takes them at once, not when their leases run out."""
    from django.db import transaction
    from django.utils import timezone

    from campaigns.mailout import outbox

    monkeypatch.setenv("EMAIL_URL", f"smtp://{settings.EMAIL_HOST}:{settings.EMAIL_PORT}")
    monkeypatch.setattr(outbox, "enqueue", lambda ids, render=(): None)  # the dying process sends them
    with transaction.atomic():
        rows = [outbox.queue_mail(key=f"held-{n}", to=f"{n}@example.org", subject=f"Held {n}", body="x") for n in "abc"]
    env = _process_env(SEND_LEASE_SECONDS="3600", DJANGO_SETTINGS_MODULE="kriegsbrief.settings")
    died = subprocess.run(
        [sys.executable, "-c", SEND_MANY_THEN_DIE, *[str(r.pk) for r in rows]],
        cwd=ROOT,
        env=env,
        capture_output=True,
        timeout=120,
    )
    assert died.returncode == -signal.SIGKILL, died.stderr.decode()[-2000:]
    assert [m["Subject"] for _, m in smtp.messages] == ["Held a"]
    states = {r.key: r for r in OutboxMail.objects.filter(key__startswith="held-")}
    assert [states[f"held-{n}"].status for n in "abc"] == ["sent", "sending", "pending"]
    sender = LiveProcess.objects.get(pk=states["held-b"].held_by)
    assert states["held-c"].held_by == sender.pk and liveness.start_time(sender.pid) is None
    monkeypatch.undo()  # the rescue's own hand-off publishes again
    monkeypatch.setenv("EMAIL_URL", f"smtp://{settings.EMAIL_HOST}:{settings.EMAIL_PORT}")
    # Both leases (an hour here) still hold: only the sender's death frees the rows.
    assert outbox.requeue_due(timezone.now()) == 2
    assert outbox.requeue_due(timezone.now()) == 0  # and once
    worker = Worker(env={"SEND_LEASE_SECONDS": "3600"})
    try:
        assert wait_for(lambda: len(smtp.messages) >= 3, 90), "the dead sender's rows were not sent"
        time.sleep(1)
    finally:
        worker.stop()
    assert sorted(m["Subject"] for _, m in smtp.messages) == ["Held a", "Held b", "Held c"]
    assert set(OutboxMail.objects.filter(key__startswith="held-").values_list("status", flat=True)) == {"sent"}


def test_a_live_process_is_alive_and_a_reused_pid_is_not(db):
    me = LiveProcess(hostname=os.uname().nodename, pid=os.getpid(), started=liveness.start_time(os.getpid()))
    from django.utils import timezone

    now = timezone.now()
    me.beat_at = now
    assert liveness.is_alive(me, now, host=me.hostname)
    me.started += 1  # the same pid, started at another time: another process
    assert not liveness.is_alive(me, now, host=me.hostname)


@pytest.mark.django_db(transaction=True)
def test_a_stopped_heartbeat_ends_its_thread_and_its_session(settings):
    """The test runner stops its heartbeat after each test (tests/conftest.py): once stopped, the
    thread has ended and closed its connection, and the next caller registers anew."""
    from tests.support import dbleaks

    settings.PROCESS_BEAT_SECONDS = 0.05  # beats (each a session of its own) all through the test
    first = liveness.me()
    thread = liveness._current.thread
    assert first is not None and LiveProcess.objects.filter(pk=first).exists()
    time.sleep(0.3)
    liveness.stop()
    assert not thread.is_alive() and liveness._current is None
    assert dbleaks.leaked(grace=1.0) == []
    second = liveness.me()
    assert second is not None and second != first
    liveness.stop()


@pytest.mark.django_db(transaction=True)
def test_a_silent_sender_elsewhere_keeps_its_conversation_until_its_lease(monkeypatch):
    """A process on another host is taken for dead by its silence alone: the rows it had queued or
    not yet reached are queued again at once (their claim keeps them from going twice), but a row
    it was sending waits for its send lease, since the sender may be alive and still talking."""
    from datetime import timedelta

    from django.utils import timezone

    from campaigns.mailout import outbox

    an_hour_ago = timezone.now() - timedelta(hours=1)
    silent = LiveProcess.objects.create(hostname="elsewhere.example", pid=4242, started=99, beat_at=an_hour_ago)
    monkeypatch.setattr(outbox, "enqueue", lambda ids, render=(): None)  # counted, not sent
    rows = [outbox.queue_mail(key=f"silent-{n}", to=f"{n}@example.org", subject=n, body="x") for n in "ab"]
    now = timezone.now()
    lease = now + outbox.send_lease()
    OutboxMail.objects.filter(pk=rows[0].pk).update(status="sending", attempts=1, leased_until=lease, held_by=silent.pk)
    OutboxMail.objects.filter(pk=rows[1].pk).update(leased_until=lease, held_by=silent.pk)
    assert liveness.dead(now) == [silent.pk] and liveness.dead(now, certain=True) == []
    assert outbox.requeue_due(now) == 1  # the row not yet reached
    assert OutboxMail.objects.get(pk=rows[0].pk).status == "sending"
    assert outbox.requeue_due(lease + timedelta(seconds=1)) == 1  # the conversation's lease ran out
    assert OutboxMail.objects.get(pk=rows[0].pk).status == "failed"
