"""What the deadline sweep does when a deadline passes: grace for the late, and time given back
after the service was down.

Grace (the game's ``grace_hours``, 0 by default): when a turn's deadline passes and a side it
expects has sent no orders, the turn is not closed at once. A public ``turn.late`` event names
the late sides and the end of the grace; each late seat and the umpire are told once by mail;
orders sent in the grace count as any others. When the grace ends, the turn closes and the
late sides get their default orders (a missed turn), as without grace.

Downtime: the sweep leaves a heartbeat each time it runs. When it finds the last one older than
DOWNTIME_AFTER, the service (or its scheduler) was down, and players could not reach it. A
deadline that passed in that gap is not processed at once: it moves to now plus the time that
was left before it when the service went down (at least GIVEN_BACK_MIN, at most
GIVEN_BACK_MAX), as a public ``turn.deadline_set`` noting the outage, and every player is told.
Only the real clock counts here: a sweep asked about another time (tests, replays) leaves the
heartbeat alone.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils.dateparse import parse_datetime

from campaigns.models import Heartbeat
from rules.core.protocol import RuleEvent

from . import gamelog, signals
from .gamelog import Draft, Stream

SWEEP = "deadline-sweep"
GIVEN_BACK_MIN = timedelta(hours=1)
GIVEN_BACK_MAX = timedelta(hours=24)


def downtime_after() -> timedelta:
    """A gap between sweeps longer than this means the service was down (five missed sweeps, 10 min at least)."""
    return max(timedelta(minutes=10), timedelta(seconds=5 * settings.SWEEP_INTERVAL_SECONDS))


def beat(now: datetime) -> datetime | None:
    """Record this sweep; the previous one's time if the gap since it means an outage, else None."""
    with transaction.atomic():
        hb = Heartbeat.objects.select_for_update().filter(name=SWEEP).first()
        if hb is None:
            Heartbeat.objects.create(name=SWEEP, at=now)
            return None
        last, hb.at = hb.at, now
        hb.save(update_fields=["at"])
    return last if now - last > downtime_after() else None


def give_back(stream: Stream, down_since: datetime, now: datetime) -> bool:
    """Move the open turn's deadline if it passed while the service was down; True if it moved.
    ``stream``: the game, locked by the caller (the sweep, about to close the turn otherwise)."""
    turn = stream.state.turn
    due = turn.late_until or turn.deadline  # in a grace, its end is what passed
    deadline = parse_datetime(due) if due else None
    if deadline is None or not down_since < deadline <= now:
        return False
    new = now + min(max(deadline - down_since, GIVEN_BACK_MIN), GIVEN_BACK_MAX)
    note = (
        f"the service was down from {down_since:%Y-%m-%d %H:%M} to {now:%Y-%m-%d %H:%M} UTC; "
        f"the time that was left is given back"
    )
    stream = gamelog.append(
        stream,
        [
            Draft(
                turn.number,
                RuleEvent(
                    "turn.deadline_set",
                    {"turn": turn.number, "deadline": new.isoformat(), "previous": due, "note": note},
                ),
            )
        ],
    )
    signals.deadline_moved.send(sender=__name__, game=stream.game, turn=stream.state.turn, note=note)
    return True


def grant_grace(stream: Stream, now: datetime) -> bool:
    """At a passed deadline with sides missing and grace in the game's settings: open the grace and
    tell the late; True if the turn now waits (so it is not closed yet). ``stream``: locked by the caller."""
    state = stream.state
    turn = state.turn
    hours = float(state.settings.get("grace_hours") or 0)
    missing = [s for s in turn.sides if s not in turn.orders]
    if not hours or not missing or turn.late_until or parse_datetime(turn.deadline) > now:
        return False
    until = now + timedelta(hours=hours)
    stream = gamelog.append(
        stream,
        [
            Draft(
                turn.number,
                RuleEvent("turn.late", {"turn": turn.number, "missing": missing, "until": until.isoformat()}),
            )
        ],
    )
    signals.turn_late.send(sender=__name__, game=stream.game, turn=stream.state.turn, missing=missing)
    return True
