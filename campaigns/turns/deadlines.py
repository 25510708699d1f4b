"""The deadline: the umpire moves it, and the sweep acts when it passes.

The sweep (Celery beat, or the embedded server's own thread) closes due turns, grants grace to
the late and gives time back after an outage (lateness.py), and re-queues adjudications no one
holds; the mail part of the sweep is mail-out's (signals.swept). The rescue, much more often,
only queues again the work no one holds (adjudications here, mail by signals.rescue_due).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from campaigns.models import Game
from rules.core.protocol import RuleEvent

from . import commands, failures, gamelog, handoff, lateness, signals
from .errors import TurnError
from .gamelog import Draft
from .state import TurnStatus

DEADLINE_MIN_AHEAD = timedelta(minutes=5)
DEADLINE_MAX_AHEAD = timedelta(days=60)


def moved_deadline(game_id: int, turn_number: int, hours: float) -> datetime:
    """The open turn's present deadline moved by ``hours`` (for "give them two more days")."""
    turn = gamelog.load(game_id).state.turn
    if turn.status != TurnStatus.OPEN or turn.number != turn_number or not turn.deadline:
        raise TurnError(
            _("turn %(number)s is not open: only an open turn's deadline can move") % {"number": turn_number}
        )
    return parse_datetime(turn.deadline) + timedelta(hours=hours)


def set_deadline(game_id: int, turn_number: int, deadline: datetime, note: str = "") -> datetime:
    """Umpire: move the open turn's deadline, later or earlier; every player is told by mail.

    The event is public (a deadline is everyone's); ``note`` goes with it to everyone, so it
    is the umpire's public word, one line. Reminders start afresh for the new deadline.
    """
    if deadline.tzinfo is None:
        raise TurnError(_("give the new deadline with its time zone"))
    note = " ".join(note.split())[:200]
    with transaction.atomic():
        stream = gamelog.load(game_id, lock=True)
        turn = stream.state.turn
        if turn.status != TurnStatus.OPEN or turn.number != turn_number:
            raise TurnError(
                _("turn %(number)s is not open: only an open turn's deadline can move") % {"number": turn_number}
            )
        now = timezone.now()
        if deadline < now + DEADLINE_MIN_AHEAD:
            raise TurnError(
                _(
                    "the new deadline must be at least %(minutes)s minutes ahead (close the turn instead to "
                    "process it now)"
                )
                % {"minutes": int(DEADLINE_MIN_AHEAD.total_seconds() // 60)}
            )
        if deadline > now + DEADLINE_MAX_AHEAD:
            raise TurnError(
                _("the new deadline can be at most %(days)s days ahead") % {"days": DEADLINE_MAX_AHEAD.days}
            )
        stream = gamelog.append(
            stream,
            [
                Draft(
                    turn_number,
                    RuleEvent(
                        "turn.deadline_set",
                        {
                            "turn": turn_number,
                            "deadline": deadline.isoformat(),
                            "previous": turn.deadline,
                            "note": note,
                        },
                    ),
                )
            ],
        )
        signals.deadline_moved.send(sender=__name__, game=stream.game, turn=stream.state.turn, note=note)
    return deadline


# --- the sweep --------------------------------------------------------------


def sweep(now: datetime | None = None) -> dict:
    """Close due turns and re-queue adjudications a lost worker left behind.

    Deadlines live in the database; this runs every SWEEP_INTERVAL_SECONDS
    (Celery beat, or the embedded server's own thread).
    """
    # Only the real clock tells an outage: a sweep asked about another time leaves the heartbeat alone.
    down_since = lateness.beat(timezone.now()) if now is None else None
    now = now or timezone.now()
    closed = given_back = late = 0
    due = Game.objects.filter(status=Game.Status.ACTIVE, turn_status=TurnStatus.OPEN).filter(
        Q(deadline_at__lte=now) | Q(close_due_at__lte=now)
    )
    for game_id, deadline, number in due.values_list("pk", "deadline_at", "turn_number"):
        passed = bool(deadline and deadline <= now)
        with transaction.atomic():
            stream = gamelog.load(game_id, lock=True)
            turn = stream.state.turn
            if turn.status != TurnStatus.OPEN or turn.number != number:
                continue
            if passed and down_since and lateness.give_back(stream, down_since, now):
                given_back += 1
            elif passed and lateness.grant_grace(stream, now):
                late += 1
            else:
                commands.close_turn_locked(stream, "deadline passed" if passed else "all sides ready")
                closed += 1
    # Adjudications no one holds (a failed hand-off, a lost message): queued again, once.
    requeued = handoff.rescue(now)
    # Turns whose adjudication failed under other code than this: adjudicated again (failures.py).
    retried = failures.retry_after_deploy()
    # The mail part (reminders, waiting notices, outbox retries) is mail-out's, told by the signal.
    return {
        "closed": closed,
        "requeued": requeued,
        "retried": retried,
        "given_back": given_back,
        "late": late,
        **signals.merged_counts(signals.swept.send(sender=__name__, now=now)),
    }


def rescue(now: datetime | None = None) -> dict:
    """Queue the adjudications and mail no one holds (every RESCUE_INTERVAL_SECONDS: cheap)."""
    now = now or timezone.now()
    return {
        "adjudications": handoff.rescue(now),
        **signals.merged_counts(signals.rescue_due.send(sender=__name__, now=now)),
    }
