"""A send-many task's rows go out over one SMTP connection (outbox.send_many): each row is still
claimed and recorded on its own, and a row the server refuses mid-batch is recorded as failed
(left to the rescue) while the rows after it are sent on a fresh connection."""

import pytest
from django.db import transaction

from campaigns.mailout import outbox
from campaigns.models import OutboxMail
from tests.services import needs_redis

pytestmark = [needs_redis, pytest.mark.django_db(transaction=True)]


def queued(game, names):
    with transaction.atomic():
        rows = [
            outbox.queue_mail(key=f"batch-{n}", to=f"{n}@example.org", subject=f"Batch {n}", body="x", game=game)
            for n in names
        ]
        outbox.one_wakeup()
    return rows


def statuses(rows):
    return [OutboxMail.objects.get(pk=r.pk).status for r in rows]


def test_a_batch_is_sent_over_one_connection(game, smtp, broker):
    rows = queued(game, ["a", "b", "c", "d", "e"])
    assert outbox.send_many([r.pk for r in rows]) == 5
    assert sorted(m["Subject"] for _, m in smtp.messages) == [f"Batch {n}" for n in "abcde"]
    assert len(set(smtp.sessions)) == 1
    assert statuses(rows) == ["sent"] * 5


def test_a_row_refused_mid_batch_is_recorded_and_the_rest_still_go(game, smtp, broker):
    smtp.refuse_to = {"c@example.org"}
    rows = queued(game, ["a", "b", "c", "d", "e"])
    assert outbox.send_many([r.pk for r in rows]) == 4
    assert sorted(m["Subject"] for _, m in smtp.messages) == [f"Batch {n}" for n in "abde"]
    assert statuses(rows) == ["sent", "sent", "failed", "sent", "sent"]
    refused = OutboxMail.objects.get(pk=rows[2].pk)
    assert refused.attempts == 1 and refused.leased_until is None and refused.next_attempt_at is not None
    # The connection the refusal was met on is dropped: the rows after it go on a fresh one.
    assert len(set(smtp.sessions)) == 2
    assert smtp.sessions[0] == smtp.sessions[1] != smtp.sessions[2] == smtp.sessions[3]


def test_a_row_sent_meanwhile_by_someone_else_is_skipped(game, smtp, broker):
    rows = queued(game, ["a", "b", "c"])
    assert outbox.send(rows[1].pk)  # a duplicate message's sender got there first
    assert outbox.send_many([r.pk for r in rows]) == 2
    assert sorted(m["Subject"] for _, m in smtp.messages) == ["Batch a", "Batch b", "Batch c"]


def test_a_claim_whose_read_failed_in_a_database_restart_is_still_sent(game, smtp, broker, monkeypatch):
    """The claim committed, then the database went away before the row was read: the retry
    (transient.retrying) finds the row SENDING under this attempt's own lease and sends it, instead
    of leaving it for the rescue once the send lease runs out."""
    from django.db import OperationalError

    (row,) = queued(game, ["a"])
    real_claim, failures = outbox.claim, []

    def claim_then_lose_the_connection(row_id, now):
        claimed = real_claim(row_id, now)
        if not failures:
            failures.append(claimed is not None)
            raise OperationalError("server closed the connection unexpectedly")
        return claimed

    monkeypatch.setattr(outbox, "claim", claim_then_lose_the_connection)
    assert outbox.send(row.pk)
    assert failures == [True]
    assert [m["Subject"] for _, m in smtp.messages] == ["Batch a"]
    row.refresh_from_db()
    assert row.status == OutboxMail.Status.SENT and row.attempts == 1
