"""What still waits on the broker: the arguments of a task's messages in its queue (Redis).

The rescue uses it to tell a message waiting its turn in a queue from one a consumer took and never
ran. A Celery worker killed whole (SIGKILL, the OOM killer, a lost host) leaves the messages it had
taken but not started unacknowledged in Redis until the visibility timeout (an hour); the work they
carry looks owned (its queued lease still runs) though no one will do it. A message taken by a
live worker is started at once (acks_late, prefetch multiplier 1), and a started one has cut its
lease to the short work lease: so a queued lease that is a few seconds old, whose message is no
longer in the queue, belongs to a dead consumer, and the rescue may queue the work again. A
message still in the queue is only waiting (a backlog): queuing it again would only make a copy.

Only the queue's list is read (LRANGE; kombu's Redis transport keeps one list a queue and priority
step): what a consumer holds is in kombu's ``unacked`` hash, which says nothing of whether its
consumer lives. None when the broker cannot be read (not Redis, or down): the caller then falls
back on the leases alone.
"""

from __future__ import annotations

import base64
import json
import logging
from collections.abc import Iterable, Sequence

import redis
from celery import current_app
from kombu.transport.redis import PRIORITY_STEPS, Channel

log = logging.getLogger(__name__)

_TIMEOUT = 1.0  # seconds: the rescue must not hang on a broker that is down


def queue_of(task_name: str) -> str:
    app = current_app
    route = (app.conf.task_routes or {}).get(task_name) or {}
    return str(route.get("queue") or app.conf.task_default_queue)


def lists(queue: str) -> list[str]:
    """The queue's lists, one a priority step, as kombu names them (Channel._q_for_pri: step 0 is the queue's own)."""
    return [queue] + [f"{queue}{Channel.sep}{step}" for step in PRIORITY_STEPS if step]


def broker_client(timeout: float = _TIMEOUT) -> redis.Redis | None:
    """A client of the Redis broker, or None when tasks run in-process or the broker is not Redis."""
    url = str(current_app.conf.broker_url or "")
    if current_app.conf.task_always_eager or not url.startswith(("redis://", "rediss://", "unix://")):
        return None
    return redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)


def decode(raw: bytes) -> tuple[str, list, dict, str] | None:
    """A message as kombu's Redis transport keeps it (a JSON envelope, the body Celery's protocol 2
    ``[args, kwargs, embed]``, base64 where the envelope says so): (task, args, kwargs, id), or None
    for anything else."""
    try:
        message = json.loads(raw)
        headers = message.get("headers") or {}
        body = message["body"]
        if message.get("properties", {}).get("body_encoding") == "base64":
            body = base64.b64decode(body)
        args, kwargs = json.loads(body)[:2]
    except (ValueError, KeyError, TypeError, IndexError, AttributeError):
        return None
    task = headers.get("task")
    if not isinstance(task, str) or not isinstance(args, list) or not isinstance(kwargs, dict):
        return None
    return task, args, kwargs, str(headers.get("id", ""))


def _frozen(value):
    # A list argument (a send-many task's row ids) as a tuple, so that the arguments can be kept in a set.
    return tuple(_frozen(v) for v in value) if isinstance(value, list) else value


def _task_args(raw: bytes) -> tuple[str, tuple] | None:
    """A message's task name and argument tuple, parsed once whatever task is asked about (None: not
    a message of ours, it waits for no work the rescue knows)."""
    decoded = decode(raw)
    return None if decoded is None else (decoded[0], _frozen(decoded[1]))


def waiting(task_name: str) -> set[tuple] | None:
    """The argument tuples of ``task_name``'s messages waiting in its queue (a list argument as a
    tuple), or None if unknown: no Redis broker, or none in use (tasks run in-process)."""
    found = waiting_all([task_name])
    return None if found is None else found[task_name]


def waiting_all(task_names: Sequence[str]) -> dict[str, set[tuple]] | None:
    """``waiting`` for several tasks at once, each of their queues read once (the send and the
    send-many task share the mail queue): {task name: argument tuples}, or None if unknown."""
    client = broker_client()
    if client is None:
        return None
    names = [name for queue in dict.fromkeys(queue_of(t) for t in task_names) for name in lists(queue)]
    try:
        try:
            with client.pipeline(transaction=False) as pipe:
                for name in names:
                    pipe.lrange(name, 0, -1)
                found: Iterable[list[bytes]] = pipe.execute()
        finally:
            client.close()
    except (redis.RedisError, OSError) as exc:
        log.warning("the broker's queue could not be read (%s): the leases alone decide", type(exc).__name__)
        return None
    out: dict[str, set[tuple]] = {t: set() for t in task_names}
    for items in found:
        for raw in items:
            parsed = _task_args(raw)
            if parsed is not None and parsed[0] in out:
                out[parsed[0]].add(parsed[1])
    return out
