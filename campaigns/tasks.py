"""Where Celery's autodiscovery (``app.autodiscover_tasks()``: ``<app>.tasks``) finds the app's
tasks: the turn machinery's and the outbox's. Task names are kept as deployed
("campaigns.tasks.adjudicate_turn", "campaigns.tasks.send_outbox_mail", "campaigns.tasks.sweep");
"campaigns.tasks.send_outbox_mails" (several rows in one task) and "campaigns.tasks.render_map" are new, and so is the hourly
"campaigns.tasks.forget_map_pictures"; "campaigns.tasks.take_over_legacy_queue" empties 0.1.0's queue
(campaigns/legacyqueue.py)."""

from celery import shared_task

from campaigns import legacyqueue, transient
from campaigns.mailout.tasks import forget_map_pictures, render_map, send_outbox_mail, send_outbox_mails
from campaigns.turns.tasks import adjudicate_turn, rescue, sweep


@shared_task(name="campaigns.tasks.take_over_legacy_queue")
def take_over_legacy_queue() -> dict:
    return transient.retrying(lambda: legacyqueue.take_over().counts())


__all__ = [
    "adjudicate_turn",
    "forget_map_pictures",
    "render_map",
    "rescue",
    "send_outbox_mail",
    "send_outbox_mails",
    "sweep",
    "take_over_legacy_queue",
]
