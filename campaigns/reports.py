"""Turn reports by mail: one per seat, built only from that seat's view.

Rows go into the durable outbox in the publishing transaction; a Celery task
sends each after commit. A row is claimed with a conditional update, so two
workers never send the same row at once.
"""
from __future__ import annotations

import hashlib
import logging
import zoneinfo
from datetime import timedelta

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import F
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from rules.core import registry

from . import viewing
from .models import OutboxMail, Seat

log = logging.getLogger(__name__)
MAX_ATTEMPTS = 8


def thread_id(game) -> str:
    """One Message-ID per game that every report refers to: one thread per game."""
    return f"<game-{game.uid}@kriegsbrief>"


def local_time(iso: str | None, tz_name: str) -> str:
    if not iso:
        return "none"
    try:
        tz = zoneinfo.ZoneInfo(tz_name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        tz = zoneinfo.ZoneInfo("UTC")
    return parse_datetime(iso).astimezone(tz).strftime(f"%Y-%m-%d %H:%M ({tz.key})")


def seat_timezone(seat: Seat) -> str:
    profile = getattr(seat.user, "profile", None) if seat.user_id else None
    return profile.timezone if profile else "UTC"


def queue_turn_reports(stream, turn_number: int) -> None:
    game, state = stream.game, stream.state
    rs = registry.get(game.ruleset)
    ids = []
    for seat in game.seats.select_related("user").all():
        viewer = viewing.viewer_of_seat(seat)
        view = viewing.game_view(game, state, viewer)
        events = viewing.visible_events(game, state, viewer).filter(turn__gte=turn_number)
        body = render_to_string("mail/turn_report.txt", {
            "game": game, "seat": seat, "turn_number": turn_number, "view": view,
            "lines": [viewing.describe(game, e) for e in events if e.type not in ("seed.sealed",)],
            "deadline": local_time(view["turn"]["deadline"], seat_timezone(seat)),
            "orders_help": rs.orders_help, "site_url": settings.SITE_URL,
            "result": viewing.describe_result(view["turn"]["result"]) if view["turn"]["result"] else "",
        })
        key = f"report:{game.uid}:{turn_number}:{seat.pk}"
        row, created = OutboxMail.objects.get_or_create(key=key, defaults={
            "game": game, "seat": seat, "to": seat.email,
            "subject": f"[Kriegsbrief] {game.name}: turn {turn_number} results",
            "body": body, "svg": rs.render_svg(view["board"]),
            "message_id": f"<{hashlib.sha256(key.encode()).hexdigest()[:32]}@kriegsbrief>",
        })
        if created:
            ids.append(row.pk)
    # robust: a mail failure must never undo or fail the command that published.
    transaction.on_commit(lambda: _enqueue(ids), robust=True)


def _enqueue(ids) -> None:
    from .tasks import send_outbox_mail

    for pk in ids:
        send_outbox_mail.delay(pk)


def svg_to_png(svg: str) -> bytes | None:
    """PNG for mail clients; None where the cairo library is not installed."""
    try:
        import cairosvg
    except (ImportError, OSError):  # cairocffi raises OSError without libcairo
        return None
    return cairosvg.svg2png(bytestring=svg.encode())


def build_message(row: OutboxMail) -> EmailMultiAlternatives:
    root = thread_id(row.game)
    msg = EmailMultiAlternatives(
        subject=row.subject, body=row.body, to=[row.to],
        headers={"Message-ID": row.message_id, "In-Reply-To": root, "References": root,
                 "Auto-Submitted": "auto-generated", "X-Kriegsbrief-Game": str(row.game.uid)},
    )
    if row.svg:
        png = svg_to_png(row.svg)
        if png is not None:
            msg.attach("map.png", png, "image/png")
        else:
            msg.attach("map.svg", row.svg, "image/svg+xml")
    return msg


def send(row_id: int) -> bool:
    """Send one outbox row; True once sent. Raises on failure so Celery retries."""
    claimed = OutboxMail.objects.filter(
        pk=row_id, status__in=[OutboxMail.Status.PENDING, OutboxMail.Status.FAILED]
    ).update(status=OutboxMail.Status.SENDING, attempts=F("attempts") + 1)
    if not claimed:
        return False
    row = OutboxMail.objects.select_related("game").get(pk=row_id)
    try:
        build_message(row).send()
    except Exception as exc:
        OutboxMail.objects.filter(pk=row_id).update(status=OutboxMail.Status.FAILED, last_error=f"{type(exc).__name__}: {exc}")
        log.warning("outbox mail %s failed (attempt %s): %s", row_id, row.attempts, type(exc).__name__)
        raise
    OutboxMail.objects.filter(pk=row_id).update(status=OutboxMail.Status.SENT, sent_at=timezone.now(), last_error="")
    return True


def requeue_unsent(now) -> int:
    """Rows a lost worker left pending, sending or failed: queue them again."""
    stale = now - timedelta(minutes=5)
    rows = OutboxMail.objects.filter(attempts__lt=MAX_ATTEMPTS, created_at__lte=stale).exclude(status=OutboxMail.Status.SENT)
    ids = list(rows.values_list("pk", flat=True))
    OutboxMail.objects.filter(pk__in=ids, status=OutboxMail.Status.SENDING).update(status=OutboxMail.Status.FAILED)
    _enqueue(ids)
    return len(ids)
