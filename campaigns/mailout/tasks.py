"""Celery task of the outbox: send one row (queued by name: outbox.SEND_TASK).

Idempotent (acks_late + reject_on_worker_lost redeliver a task whose worker died),
because ``outbox.send`` claims the row before it sends.
"""
from celery import shared_task

from . import outbox

# Celery's own countdown covers the short backoffs; longer ones are left to
# the periodic sweep (outbox.requeue_due), because a countdown longer than the
# broker's visibility timeout would be redelivered early.
MAX_COUNTDOWN = 600


@shared_task(name=outbox.SEND_TASK, bind=True, max_retries=outbox.MAX_ATTEMPTS)
def send_outbox_mail(self, row_id: int) -> bool:
    try:
        return outbox.send(row_id)
    except outbox.SendFailed as exc:
        delay = outbox.backoff(exc.attempts).total_seconds()
        if self.request.is_eager or delay > MAX_COUNTDOWN or self.request.retries >= self.max_retries:
            # In-process (embedded) mode must not block a request retrying SMTP;
            # the row is recorded FAILED with its next attempt time: the sweep retries.
            return False
        raise self.retry(exc=exc, countdown=delay) from exc
