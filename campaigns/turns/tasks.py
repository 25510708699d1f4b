"""Celery tasks of the turn machinery: ids in, one command called, nothing else.

Every task is idempotent (acks_late + reject_on_worker_lost redeliver a task
whose worker died), because the commands check the log before they act. The
names are the deployed workers' and beat's (kept as they were); the commands
queue them by name (campaigns.turns.commands.ADJUDICATE_TASK).
"""
from celery import shared_task

from . import commands, deadlines


@shared_task(name=commands.ADJUDICATE_TASK)
def adjudicate_turn(game_id: int, turn: int) -> bool:
    return commands.adjudicate(game_id, turn)


@shared_task(name="campaigns.tasks.sweep")
def sweep() -> dict:
    return deadlines.sweep()
