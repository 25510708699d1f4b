"""0.1.0's Celery queue, taken over: its messages are read once, logged and removed; the work they
stood for is done by this release's own rescue, once.

0.1.0 (2c3e6be) sent every task to Celery's default queue, ``celery`` (CELERY_TASK_DEFAULT_QUEUE);
this release routes each task to the queue of its kind (kriegsbrief/queues.py) and no worker reads
``celery`` any more. Messages left there at the upgrade - and those an old worker had taken and
not acknowledged, which kombu puts back into ``celery`` once Redis's visibility timeout (an hour)
has passed - would wait for ever. They are not published again, because none carries work the
database does not already show, and this release's rescue (every RESCUE_INTERVAL_SECONDS) takes up
all such work with one owner at a time:

- ``adjudicate_turn(game_id, turn)``: 0.1.0 queued it when it closed a turn. The game row says
  the turn is closed, and migration 0008 gave every game ``adjudication_leased_until = NULL``:
  no one holds it, so ``turns.handoff.rescue`` queues it under a lease; the adjudication itself
  is checked under the game's row lock (``commands.adjudicate``), so a turn is adjudicated once.
- ``send_outbox_mail(row_id)``: 0.1.0 queued it after writing a PENDING row with
  ``next_attempt_at`` a minute ahead, or after a failure with ``next_attempt_at`` at the backoff;
  ``leased_until`` is NULL since migration 0008, so ``outbox.requeue_due`` queues the row once it
  is due, and the send's claim (a conditional UPDATE) lets one sender have it. One case the rescue
  cannot see: a row 0.1.0 had claimed (SENDING) when its worker stopped. 0.1.0 kept that claim's
  lease in ``next_attempt_at`` (ten minutes); this release looks at ``leased_until`` only, so
  ``adopt_old_sends`` copies the old lease there, and the rescue takes the row back when that
  lease is over, as 0.1.0 would have.
- ``sweep``, ``poll_imap``, ``retry_inbound``: beat's periodic tasks; beat sends them again.

A message whose task is none of these (none of 0.1.0's own) stands for work no code of ours knows:
it is kept, untouched, in ``<queue>.legacy-kept`` and logged as an error; /healthz and
``./kb take_over_legacy_queue`` show it until the operator has looked and forgotten it.

Taking is exactly once however many processes run it at once: each message is moved atomically
(RPOPLPUSH) from the old queue to the kept list, read, and removed from the kept list only once its
task is known, so a process that dies in between leaves it kept, not lost. It runs on the
maintenance queue (beat, every LEGACY_QUEUE_INTERVAL_SECONDS) and as
``./kb take_over_legacy_queue``. Once nothing can come back from 0.1.0 (an hour after its workers
stopped) the task finds nothing and costs one round trip; it can go in the release after next.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from datetime import datetime

import redis
from django.conf import settings
from django.db.models import F
from django.db.models.functions import Coalesce
from django.utils import timezone

from campaigns import queued
from campaigns.models import Game, OutboxMail

log = logging.getLogger(__name__)

_TIMEOUT = 2.0  # seconds: a broker that does not answer must not hold the maintenance worker
KEPT_SUFFIX = ".legacy-kept"


@dataclass(frozen=True)
class Message:
    task: str | None  # None: not a Celery message we can read
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)
    id: str = ""

    def label(self) -> str:
        # Ids only: 0.1.0's tasks carried row and game ids, never an address or a text.
        shown = [repr(a) for a in self.args] + [f"{k}={v!r}" for k, v in sorted(self.kwargs.items())]
        return f"{self.task}({', '.join(shown)})"


def parse(raw: bytes) -> Message:
    """A message as kombu's Redis transport keeps it (campaigns.queued.decode)."""
    decoded = queued.decode(raw)
    if decoded is None:
        return Message(None)
    task, args, kwargs, message_id = decoded
    return Message(task, tuple(args), kwargs, message_id)


def _argument(message: Message, index: int, name: str):
    return message.args[index] if len(message.args) > index else message.kwargs.get(name)


def _adjudication(message: Message) -> str:
    game_id, turn = _argument(message, 0, "game_id"), _argument(message, 1, "turn")
    row = Game.objects.filter(pk=game_id).values("turn_number", "turn_status", "status").first()
    if row is None:
        return "no such game"
    if row["turn_number"] == turn and row["turn_status"] == "closed" and row["status"] == Game.Status.ACTIVE:
        return "turn still closed: the rescue adjudicates it"
    return "already adjudicated"


def _mail(message: Message) -> str:
    row_id = _argument(message, 0, "row_id")
    status = OutboxMail.objects.filter(pk=row_id).values_list("status", flat=True).first()
    if status is None:
        return "no such outbox row"
    S = OutboxMail.Status
    return {
        S.SENT: "already sent",
        S.PENDING: "waiting: the rescue sends it when due",
        S.FAILED: "failed before: the rescue sends it again when due",
        S.SENDING: "being sent: the rescue takes it back if that attempt's lease runs out",
        S.DEAD: "given up on (./kb resend_mail queues it again)",
    }.get(status, status)


def _periodic(message: Message) -> str:
    return "periodic: beat sends it again"


# 0.1.0's task names (2c3e6be: campaigns/tasks.py, campaigns/mailin/tasks.py), each still a task of
# this release under the same name, and what stands for a message of it now.
LEGACY_TASKS = {
    "campaigns.tasks.adjudicate_turn": _adjudication,
    "campaigns.tasks.send_outbox_mail": _mail,
    "campaigns.tasks.sweep": _periodic,
    "campaigns.mailin.tasks.poll_imap": _periodic,
    "campaigns.mailin.tasks.retry_inbound": _periodic,
}


def queues() -> list[str]:
    """The old queues to take over: LEGACY_CELERY_QUEUES, less any queue this release reads
    (an installation whose CELERY_TASK_DEFAULT_QUEUE still says ``celery`` uses it)."""
    live = {settings.CELERY_TASK_DEFAULT_QUEUE}
    live |= {route.get("queue") for route in (settings.CELERY_TASK_ROUTES or {}).values() if isinstance(route, dict)}
    return [name for name in settings.LEGACY_CELERY_QUEUES if name not in live]


def kept_list(queue: str) -> str:
    return queue + KEPT_SUFFIX


def client() -> redis.Redis | None:
    """A client of the broker, or None when there is no Redis broker (tasks in-process, or another
    transport: 0.1.0's messages are taken over from Redis only)."""
    return queued.broker_client(_TIMEOUT)


@dataclass
class Depths:
    waiting: dict[str, int]  # old queue -> messages in it
    kept: dict[str, int]  # old queue -> messages kept aside (no task of ours)

    @property
    def total(self) -> int:
        return sum(self.waiting.values()) + sum(self.kept.values())


def depths(conn: redis.Redis) -> Depths:
    """How many messages wait in each old queue, and how many were kept aside, in one round trip."""
    names = queues()
    with conn.pipeline(transaction=False) as pipe:
        for name in names:
            for key in queued.lists(name):
                pipe.llen(key)
            pipe.llen(kept_list(name))
        found = iter(pipe.execute())
    waiting, kept = {}, {}
    for name in names:
        waiting[name] = sum(next(found) for _ in queued.lists(name))
        kept[name] = next(found)
    return Depths(waiting, kept)


def held_back(conn: redis.Redis) -> dict[str, int]:
    """The messages 0.1.0's workers had taken and not acknowledged (kombu's ``unacked`` hash), by the
    old queue kombu puts them back into once the visibility timeout has passed."""
    out = dict.fromkeys(queues(), 0)
    for _tag, value in conn.hscan_iter("unacked", count=1000):
        try:
            _message, _exchange, routing_key = json.loads(value)
        except (ValueError, TypeError):
            continue  # not kombu's [message, exchange, routing key]: not ours to count
        if routing_key in out:
            out[routing_key] += 1
    return out


def adopt_old_sends(now: datetime | None = None) -> int:
    """Give the rows 0.1.0 left SENDING their old claim's lease, so the rescue can take them back.

    0.1.0 claimed a row by setting it SENDING with ``next_attempt_at`` ten minutes ahead (its send
    lease); this release's claim always writes ``leased_until``, so a SENDING row without one is
    0.1.0's, and its lease is its ``next_attempt_at``."""
    now = now or timezone.now()
    return OutboxMail.objects.filter(status=OutboxMail.Status.SENDING, leased_until__isnull=True).update(
        leased_until=Coalesce(F("next_attempt_at"), now)
    )


@dataclass
class Outcome:
    taken: list[tuple[str, Message, str]] = field(default_factory=list)  # (queue, message, what stands for it)
    kept: list[tuple[str, Message]] = field(default_factory=list)
    adopted_sends: int = 0

    def counts(self) -> dict:
        return {"taken": len(self.taken), "kept": len(self.kept), "adopted_sends": self.adopted_sends}


def take_over(conn: redis.Redis | None = None, limit: int = 10_000) -> Outcome:
    """Take every message out of the old queues (at most ``limit`` a run: the next run goes on)."""
    outcome = Outcome(adopted_sends=adopt_old_sends())
    if outcome.adopted_sends:
        log.warning("%s outbox rows left SENDING by 0.1.0 given their lease back", outcome.adopted_sends)
    own = conn is None
    conn = conn or client()
    if conn is None:
        return outcome
    try:
        for queue in queues():
            # A known message left in the kept list by a run that died between its two steps.
            for raw in conn.lrange(kept_list(queue), 0, -1):
                if parse(raw).task in LEGACY_TASKS:
                    _taken(conn, queue, raw, outcome)
            for key in queued.lists(queue):
                while len(outcome.taken) + len(outcome.kept) < limit:
                    raw = conn.rpoplpush(key, kept_list(queue))  # the oldest, atomically this run's
                    if raw is None:
                        break
                    if parse(raw).task in LEGACY_TASKS:
                        _taken(conn, queue, raw, outcome)
                    else:
                        _kept(queue, parse(raw), outcome)
    finally:
        if own:
            conn.close()
    return outcome


def _taken(conn: redis.Redis, queue: str, raw: bytes, outcome: Outcome) -> None:
    # Whoever removes it from the kept list has taken it: one run logs it, however many look.
    if not conn.lrem(kept_list(queue), 1, raw):
        return
    message = parse(raw)
    try:
        what = LEGACY_TASKS[str(message.task)](message)
    except Exception as exc:  # only the log line is poorer (a database error, an argument that is no id)
        what = f"not looked up ({type(exc).__name__}): left to the rescue"
    outcome.taken.append((queue, message, what))
    log.info("0.1.0's queue %s: %s (message %s): %s", queue, message.label(), message.id, what)


def _kept(queue: str, message: Message, outcome: Outcome) -> None:
    outcome.kept.append((queue, message))
    log.error(
        "0.1.0's queue %s held a message of task %s, which no code of this release stands for: "
        "kept in %s (./kb take_over_legacy_queue --list)",
        queue,
        message.task or "(unreadable)",
        kept_list(queue),
    )


def kept_messages(conn: redis.Redis) -> dict[str, list[Message]]:
    """The messages kept aside, oldest first, by old queue."""
    return {queue: [parse(raw) for raw in reversed(conn.lrange(kept_list(queue), 0, -1))] for queue in queues()}


def waiting_messages(conn: redis.Redis, limit: int = 1000) -> dict[str, list[Message]]:
    """The messages waiting in the old queues (read, not taken), oldest first, at most ``limit`` a list."""
    return {
        queue: [parse(raw) for key in queued.lists(queue) for raw in reversed(conn.lrange(key, -limit, -1))]
        for queue in queues()
    }


def forget_kept(conn: redis.Redis) -> int:
    """Delete the kept messages (after the operator has read them); how many there were."""
    names = [kept_list(queue) for queue in queues()]
    with conn.pipeline() as pipe:
        for name in names:
            pipe.llen(name)
        pipe.delete(*names)
        *counts, _deleted = pipe.execute()
    return sum(counts)
