"""Celery tasks of the outbox: send one row (queued by name: outbox.SEND_TASK), or several rows in
turn (outbox.SEND_MANY_TASK: the acknowledgements of an inbound batch, published once per commit),
and draw a row's map and flatten its message ahead of its send (pictures.RENDER_TASK, on the render
queue; composing.py).

Idempotent (acks_late + reject_on_worker_lost redeliver a task whose worker died),
because ``outbox.send`` claims the row before it sends.

One owner per retry: a failed attempt is recorded (FAILED, due at the end of the attempt plus
the backoff, lease released) and the task ends; the rescue queues the row again when it is due.
There is no Celery retry: a countdown would be a second owner beside the rescue, and a countdown
longer than the broker's visibility timeout is redelivered early. Database errors around the
send are retried in-process (outbox.send, transient.py).
"""

from celery import shared_task

from campaigns import transient

from . import composing, outbox, pictures


@shared_task(name=pictures.RENDER_TASK)
def render_map(row_id: int) -> bool:
    """Flatten a queued row's whole message ahead of its send (composing.py), which draws its map
    (pictures.py); where no flattened message can be kept (a backend that sends fields), only draw
    the map. The send does either itself if this is lost or late."""
    return transient.retrying(composing.compose, row_id) or transient.retrying(pictures.prerender, row_id)


@shared_task(name=pictures.FORGET_TASK)
def forget_map_pictures() -> int:
    """Delete the kept maps no unsent mail needs and unused for MAP_PICTURE_KEEP_HOURS (beat, hourly)."""
    return transient.retrying(pictures.forget_unused)


@shared_task(name=outbox.SEND_TASK)
def send_outbox_mail(row_id: int) -> bool:
    try:
        return outbox.send(row_id)
    except outbox.SendFailed:
        return False


@shared_task(name=outbox.SEND_MANY_TASK)
def send_outbox_mails(row_ids: list[int]) -> int:
    return outbox.send_many(row_ids)
