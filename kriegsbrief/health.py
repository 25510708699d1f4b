"""GET /healthz: is this installation doing its work? JSON, 200 when every check passes, else 503.

Checks: the database answers (with how many sessions wait on a lock); the broker answers (in-process mode has none to ask); the deadline
sweep ran lately (its heartbeat is younger than three intervals: beat, or the embedded server's
thread, is alive); and work moves (no closed turn waits for adjudication, and no due mail waits,
longer than HEALTH_MAX_WAIT_SECONDS - a worker that stopped consuming still answers a ping, so
the age of the oldest waiting work is what shows it). Queue depths are reported, not judged, but
for 0.1.0's queue (``celery``): no worker of this release reads it, so a message there, or one kept
aside as no task of ours (campaigns/legacyqueue.py), fails the broker check until the maintenance
worker (or ``./kb take_over_legacy_queue``) has taken it over, or the operator has looked at it.

No sign-in: a load balancer asks it. So it says nothing private and nothing secret: no game,
address, host name or URL, and a failure is named by its kind (the exception's class), never by a
message that could carry a connection string. Even counts and ages tell an outsider how busy the
server is (how many games wait, how much mail flows), so the figures are given only to the
operator: a staff user's session, or ``Authorization: Bearer <HEALTHZ_TOKEN>`` for a monitor;
everyone else gets each check's verdict (ok, and the failure's kind) and the status code.
"""

from __future__ import annotations

import hmac
import time
from datetime import timedelta

import redis
from django.conf import settings
from django.db import connection
from django.db.models import Min, OuterRef, Subquery
from django.http import JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from campaigns import legacyqueue
from campaigns.models import Event, Game, Heartbeat, OutboxMail
from campaigns.turns.lateness import SWEEP
from kriegsbrief.celery import app

MAX_WAIT = timedelta(seconds=getattr(settings, "HEALTH_MAX_WAIT_SECONDS", 300))


class Failed(Exception):
    """A check that failed with its figures, which the operator still needs."""

    def __init__(self, figures: dict):
        super().__init__(figures)
        self.figures = figures


def _timed(check) -> dict:
    start = time.monotonic()
    try:
        out = {"ok": True, **(check() or {})}
    except Failed as exc:
        out = {"ok": False, "error": type(exc).__name__, **exc.figures}
    except Exception as exc:  # any failure is this check's verdict; only its kind is shown
        out = {"ok": False, "error": type(exc).__name__}
    out["ms"] = round((time.monotonic() - start) * 1000, 1)
    return out


def check_database() -> dict:
    """The database answers; on PostgreSQL, how many of our sessions wait on a lock now and for how
    long the longest has (reported, not judged: a request gives up after its lock_timeout,
    kriegsbrief/dbtimeouts.py; a long wait points at a session holding a game locked)."""
    with connection.cursor() as cur:
        if connection.vendor != "postgresql":
            cur.execute("SELECT 1")
            cur.fetchone()
            return {}
        cur.execute(
            "SELECT count(*), coalesce(max(extract(epoch FROM clock_timestamp() - query_start)), 0)"
            " FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        waits, longest = cur.fetchone()
    return {"lock_waits": waits, "longest_lock_wait_s": round(float(longest), 1)}


def queue_names() -> list[str]:
    """The default queue and every queue a route names (queues by kind, when settings route them)."""
    names = [settings.CELERY_TASK_DEFAULT_QUEUE]
    for route in (getattr(settings, "CELERY_TASK_ROUTES", None) or {}).values():
        queue = route.get("queue") if isinstance(route, dict) else None
        if queue and queue not in names:
            names.append(queue)
    return names


def check_broker() -> dict:
    url = settings.CELERY_BROKER_URL
    if url.startswith("memory://") or getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False):
        return {"mode": "in-process"}
    if not url.startswith(("redis://", "rediss://")):
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
        return {"mode": "broker"}
    client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)
    try:
        client.ping()
        names = queue_names()
        pipe = client.pipeline()
        for name in names:
            pipe.llen(name)
        pipe.hlen("unacked")  # kombu's redis transport: delivered, not yet acknowledged
        *depths, unacked = pipe.execute()
        legacy = legacyqueue.depths(client)
    finally:
        client.close()
    out = {
        "mode": "broker",
        "queues": dict(zip(names, depths, strict=True)),
        "unacked": unacked,
        "legacy_queues": legacy.waiting,
        "legacy_kept": legacy.kept,
    }
    if legacy.total:
        raise LegacyMessagesWait(out)
    return out


class LegacyMessagesWait(Failed):
    """0.1.0's queue holds messages no worker reads, or some were kept aside as no task of ours."""


def check_sweep() -> dict:
    at = Heartbeat.objects.filter(name=SWEEP).values_list("at", flat=True).first()
    if at is None:
        raise SweepStale("never ran")
    age = (timezone.now() - at).total_seconds()
    if age > 3 * settings.SWEEP_INTERVAL_SECONDS:
        raise SweepStale("late")
    return {"age_s": round(age, 1), "interval_s": settings.SWEEP_INTERVAL_SECONDS}


class SweepStale(Exception):
    pass


class WorkWaits(Exception):
    pass


def check_work() -> dict:
    """The oldest closed turn not yet adjudicated and the oldest mail due, by age."""
    now = timezone.now()
    closed = Game.objects.filter(status=Game.Status.ACTIVE, turn_status="closed")
    # The age of a closed turn is the age of its game's last event (the close, or a result after
    # it), found by the (game, seq) index: a long log costs no more.
    last = Event.objects.filter(game=OuterRef("pk")).order_by("-seq").values("created_at")[:1]
    oldest_turn = min(closed.annotate(last=Subquery(last)).values_list("last", flat=True), default=None)
    due = OutboxMail.objects.filter(
        status__in=[OutboxMail.Status.PENDING, OutboxMail.Status.FAILED, OutboxMail.Status.SENDING]
    )
    oldest_mail = due.filter(status=OutboxMail.Status.PENDING).aggregate(oldest=Min("created_at"))["oldest"]
    overdue = due.exclude(status=OutboxMail.Status.PENDING).filter(next_attempt_at__lte=now - MAX_WAIT).count()
    out = {
        "turns_closed": closed.count(),
        "oldest_closed_turn_s": round((now - oldest_turn).total_seconds(), 1) if oldest_turn else 0,
        "mail_waiting": due.count(),
        "oldest_pending_mail_s": round((now - oldest_mail).total_seconds(), 1) if oldest_mail else 0,
        "mail_overdue_retries": overdue,
        "dead_mail": OutboxMail.objects.filter(status=OutboxMail.Status.DEAD).count(),
        # held for the umpire after the rule set raised (campaigns/turns/failures.py): counted, not
        # judged - the umpire has been told, and the rest of the server plays on
        "adjudications_failed": Game.objects.filter(
            status=Game.Status.ACTIVE, turn_status="adjudication_failed"
        ).count(),
        "max_wait_s": MAX_WAIT.total_seconds(),
    }
    late = [
        name
        for name, age in (("turns", out["oldest_closed_turn_s"]), ("mail", out["oldest_pending_mail_s"]))
        if age > MAX_WAIT.total_seconds()
    ]
    if late or overdue:
        raise WorkWaits(out)
    return out


def _work() -> dict:
    """check_work, keeping its figures when it fails (they are what the operator needs)."""
    start = time.monotonic()
    try:
        out = {"ok": True, **check_work()}
    except WorkWaits as exc:
        out = {"ok": False, "error": "WorkWaits", **exc.args[0]}
    except Exception as exc:
        out = {"ok": False, "error": type(exc).__name__}
    out["ms"] = round((time.monotonic() - start) * 1000, 1)
    return out


def may_see_figures(request) -> bool:
    """The operator: a staff session, or the monitor's bearer token (compared in constant time)."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated and user.is_staff:
        return True
    token = settings.HEALTHZ_TOKEN
    scheme, _, given = request.headers.get("Authorization", "").partition(" ")
    return bool(token) and scheme.lower() == "bearer" and hmac.compare_digest(given.encode(), token.encode())


def verdict_only(check: dict) -> dict:
    return {key: check[key] for key in ("ok", "error") if key in check}


@never_cache
@require_GET
def healthz(request):
    checks = {"database": _timed(check_database), "broker": _timed(check_broker)}
    # Without the database the rest cannot be asked.
    if checks["database"]["ok"]:
        checks["sweep"] = _timed(check_sweep)
        checks["work"] = _work()
    ok = all(c["ok"] for c in checks.values()) and len(checks) == 4
    if not may_see_figures(request):
        checks = {name: verdict_only(check) for name, check in checks.items()}
    return JsonResponse({"ok": ok, "checks": checks}, status=200 if ok else 503)
