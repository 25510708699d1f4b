"""Celery tasks: ids in, one command called, nothing else.

Every task is idempotent (acks_late + reject_on_worker_lost redeliver a task
whose worker died), because the commands check the log before they act.
"""
from celery import shared_task

from . import reports, turns


@shared_task(name="campaigns.tasks.adjudicate_turn")
def adjudicate_turn(game_id: int, turn: int) -> bool:
    return turns.adjudicate(game_id, turn)


@shared_task(name="campaigns.tasks.send_outbox_mail", bind=True, max_retries=reports.MAX_ATTEMPTS,
             autoretry_for=(Exception,), retry_backoff=30, retry_backoff_max=3600)
def send_outbox_mail(self, row_id: int) -> bool:
    return reports.send(row_id)


@shared_task(name="campaigns.tasks.sweep")
def sweep() -> dict:
    return turns.sweep()
