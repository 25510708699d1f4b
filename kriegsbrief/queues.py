"""Celery queues by kind of work, so that one kind cannot hold up another: a hung SMTP server or
a mail backlog fills only the mail queue, and turns are still adjudicated by the adjudication
workers; the periodic sweep and rescue run on their own queue, so they still run when both are
busy. Maps are drawn as PNG on a queue of their own (CPU work, campaigns/mailout/pictures.py),
ahead of their mail: while SMTP is down the waiting mail's maps are drawn, and the mail workers,
which mostly wait on SMTP, can run as threads. deploy/Procfile and deploy/compose.yaml start
workers per queue.

``prefix`` puts a run's queues apart on a shared Redis (the tests give each run its own).
"""

KINDS = ("adjudication", "mail", "render", "maintenance")

TASK_KIND = {
    "campaigns.tasks.adjudicate_turn": "adjudication",
    "campaigns.tasks.send_outbox_mail": "mail",
    "campaigns.tasks.send_outbox_mails": "mail",
    "campaigns.tasks.render_map": "render",
    "campaigns.tasks.sweep": "maintenance",
    "campaigns.tasks.rescue": "maintenance",
    "campaigns.tasks.forget_map_pictures": "maintenance",
    "campaigns.tasks.take_over_legacy_queue": "maintenance",
    "campaigns.mailin.tasks.poll_imap": "maintenance",
    "campaigns.mailin.tasks.retry_inbound": "maintenance",
}


def name(kind: str, prefix: str = "") -> str:
    return prefix + kind


def routes(prefix: str = "") -> dict:
    """CELERY_TASK_ROUTES: every task of the project to the queue of its kind."""
    return {task: {"queue": name(kind, prefix)} for task, kind in TASK_KIND.items()}


def queues(prefix: str = "", default: str = "") -> dict:
    """CELERY_TASK_QUEUES: what a worker started without -Q consumes (every kind, and the default
    queue if it is another)."""
    names = [name(kind, prefix) for kind in KINDS]
    if default and default not in names:
        names.append(default)
    return {n: {} for n in names}
