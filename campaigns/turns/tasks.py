"""Celery tasks of the turn machinery: ids in, one command called, nothing else.

Every task is idempotent (acks_late + reject_on_worker_lost redeliver a task
whose worker died), because the commands check the log before they act. The
names are the deployed workers' and beat's (kept as they were); the commands
queue them by name (campaigns.turns.commands.ADJUDICATE_TASK).
"""

from celery import shared_task

from campaigns import transient

from . import commands, deadlines, handoff


# A database or broker error is retried in-process (transient.py): the task keeps the work it
# was given, so no second owner is made; past that, the lease runs out and the rescue queues it.
# While it runs, the turn's lease is short and renewed (handoff.running): a killed worker's turn is
# free within WORK_LEASE_SECONDS.
@shared_task(name=commands.ADJUDICATE_TASK)
def adjudicate_turn(game_id: int, turn: int) -> bool:
    with handoff.running(game_id, turn):
        return transient.retrying(commands.adjudicate, game_id, turn)


@shared_task(name="campaigns.tasks.sweep")
def sweep() -> dict:
    return transient.retrying(deadlines.sweep)


@shared_task(name="campaigns.tasks.rescue")
def rescue() -> dict:
    return transient.retrying(deadlines.rescue)
