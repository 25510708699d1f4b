"""Celery tasks: ids in, one command called, nothing else.

Every task is idempotent (acks_late + reject_on_worker_lost redeliver a task
whose worker died), because the commands check the log before they act.
"""
from celery import shared_task

from . import outbox, turns

# Celery's own countdown covers the short backoffs; longer ones are left to
# the periodic sweep (outbox.requeue_due), because a countdown longer than the
# broker's visibility timeout would be redelivered early.
MAX_COUNTDOWN = 600


@shared_task(name="campaigns.tasks.adjudicate_turn")
def adjudicate_turn(game_id: int, turn: int) -> bool:
    return turns.adjudicate(game_id, turn)


@shared_task(name="campaigns.tasks.send_outbox_mail", bind=True, max_retries=outbox.MAX_ATTEMPTS)
def send_outbox_mail(self, row_id: int) -> bool:
    try:
        return outbox.send(row_id)
    except outbox.SendFailed as exc:
        delay = outbox.backoff(exc.attempts).total_seconds()
        if self.request.is_eager or delay > MAX_COUNTDOWN or self.request.retries >= self.max_retries:
            # In-process (embedded) mode must not block a request retrying SMTP;
            # the row is recorded FAILED with its next attempt time: the sweep retries.
            return False
        raise self.retry(exc=exc, countdown=delay)


@shared_task(name="campaigns.tasks.sweep")
def sweep() -> dict:
    return turns.sweep()
