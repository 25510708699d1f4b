"""A real Celery worker on Redis sends reports after adjudicating, and retries a refused send with backoff."""

import time

import pytest

from campaigns.mailout import outbox
from campaigns.models import OutboxMail
from tests.services import needs_redis

pytestmark = [needs_redis, pytest.mark.django_db(transaction=True)]


def test_a_refused_message_is_retried_by_the_worker_and_sent_once(game, smtp, mail_worker):
    smtp.refuse = 2
    row = outbox.queue_mail(key="celery-retry", to="bob@example.org", subject="Retry me", body="x", game=game)
    deadline = time.time() + 60
    while time.time() < deadline and not smtp.messages:
        time.sleep(0.2)
    row.refresh_from_db()
    assert [m["Subject"] for _, m in smtp.messages] == ["Retry me"]
    assert row.status == OutboxMail.Status.SENT and row.attempts == 3


def test_a_turn_adjudicated_by_the_worker_mails_every_seat_its_report(game, smtp, mail_worker):
    from campaigns.turns import commands
    from rules.civilwar import legal_operations
    from tests.support.games import state_of

    text = legal_operations(state_of(game).rules, "red")[0]
    assert commands.submit_orders(game.pk, "red", text, source="mail").accepted  # closes the turn: adjudication queued
    deadline = time.time() + 60
    while time.time() < deadline and len(smtp.messages) < 3:
        time.sleep(0.2)
    assert sorted(r[0] for r, _ in smtp.messages) == ["alice@example.org", "bob@example.org", "carol@example.org"]
    assert all(m["Subject"] == "[Kriegsbrief] Test game: turn 1 results" for _, m in smtp.messages)

    # The worker marks a row sent just after the SMTP server has accepted it: wait for that too.
    def statuses():
        return set(OutboxMail.objects.filter(game=game).values_list("status", flat=True))

    while time.time() < deadline and statuses() != {"sent"}:
        time.sleep(0.2)
    assert statuses() == {"sent"}


def test_a_send_many_task_sends_every_row_once_past_a_refused_one(game, smtp, mail_worker):
    """One publish for several rows (an inbound batch's acknowledgements): the worker sends them
    in turn; the one the SMTP server refuses is left to the rescue and the rest still go."""
    from django.db import transaction

    smtp.refuse = 1  # the first attempt of the first row
    with transaction.atomic():
        rows = [
            outbox.queue_mail(key=f"many-{i}", to="bob@example.org", subject=f"Many {i}", body="x", game=game)
            for i in range(3)
        ]
        outbox.one_wakeup()
    deadline = time.time() + 60

    def statuses():
        return [OutboxMail.objects.get(pk=r.pk).status for r in rows]

    while time.time() < deadline and statuses() != ["sent"] * 3:
        time.sleep(0.2)
    assert statuses() == ["sent"] * 3
    assert sorted(m["Subject"] for _, m in smtp.messages) == ["Many 0", "Many 1", "Many 2"]
    assert [OutboxMail.objects.get(pk=r.pk).attempts for r in rows] == [2, 1, 1]
