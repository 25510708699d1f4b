"""Absences (ABSENT UNTIL by mail) that push deadlines back, within a per-game allowance.

A game's ``absence_days`` setting is the number of days, in all, that each side's absences
may push the deadlines of its turns back (0, the default: absences only stop reminders, and
the umpire moves deadlines by hand). It is the limit that stops a losing player from
pausing the game for ever.

When a turn expects a side that has sent no orders and whose seat has declared itself away,
the turn's deadline moves to GRACE after the absence ends (the end of its last day, in the
seat's own time zone), as far as that side's allowance goes. This is looked at when the
absence is declared (for the turn open then) and whenever a turn opens. The move is a public
``turn.deadline_set`` event with the note "a player is away" and the hours drawn from the
side's allowance, which the game's state adds up (``absence_used``).
"""

from __future__ import annotations

import zoneinfo
from datetime import datetime, time, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from campaigns.models import Absence, Seat
from rules.core.protocol import RuleEvent

from . import gamelog, signals
from .gamelog import Draft, Stream
from .localtime import local_time, seat_timezone
from .state import LifecycleState, Turn, TurnStatus

GRACE = timedelta(hours=24)
MAX_DAYS = 30  # the most a game may set as absence_days


def allowance_left(state: LifecycleState, side: str) -> timedelta:
    days = state.settings.get("absence_days", 0)
    used = state.absence_used.get(side, 0.0)
    return max(timedelta(0), timedelta(days=days) - timedelta(hours=used))


def absence_end(seat: Seat, now: datetime) -> datetime | None:
    """When the seat's declared absence in force now ends: the next midnight after its last day, in
    its own time zone; None when it is not away."""
    zone = zoneinfo.ZoneInfo(seat_timezone(seat))
    today = now.astimezone(zone).date()
    last = max(Absence.objects.filter(seat=seat, until__gte=today).values_list("until", flat=True), default=None)
    if last is None:
        return None
    return datetime.combine(last + timedelta(days=1), time(0), tzinfo=zone)


def deadline_drafts(stream: Stream, now: datetime | None = None) -> list[Draft]:
    """The deadline move the open turn's absent sides are owed, if any (a list of 0 or 1 draft)."""
    state = stream.state
    turn = state.turn
    if not state.settings.get("absence_days") or turn.status != TurnStatus.OPEN or not turn.deadline:
        return []
    now = now or timezone.now()
    deadline = parse_datetime(turn.deadline)
    waiting = [s for s in turn.sides if s not in turn.orders]
    best, owed_by = deadline, None
    seats = stream.game.seats.active().select_related("user__profile").filter(role=Seat.Role.PLAYER, side__in=waiting)
    for seat in seats.order_by("side"):
        end = absence_end(seat, now)
        if end is None:
            continue
        want = min(end + GRACE, deadline + allowance_left(state, seat.side))
        if want > best:
            best, owed_by = want, seat.side
    if owed_by is None:
        return []
    hours = round((best - deadline).total_seconds() / 3600, 4)
    return [
        Draft(
            turn.number,
            RuleEvent(
                "turn.deadline_set",
                {
                    "turn": turn.number,
                    "deadline": best.isoformat(),
                    "previous": turn.deadline,
                    "note": "a player is away",
                    "absence": {"side": owed_by, "hours": hours},
                },
            ),
        )
    ]


def absent_sides(stream: Stream) -> Stream:
    """The stream with the deadline move its absent sides are owed appended, if any."""
    drafts = deadline_drafts(stream)
    return gamelog.append(stream, drafts) if drafts else stream


def absence_declared(game_id: int) -> Turn | None:
    """A seat has declared an absence: move the open turn's deadline if the game's allowance says so,
    and tell every player. The turn as it is now, if its deadline moved; else None."""
    with transaction.atomic():
        stream = gamelog.load(game_id, lock=True)
        moved = absent_sides(stream)
        if moved is stream:
            return None
        signals.deadline_moved.send(sender=__name__, game=moved.game, turn=moved.state.turn, note="a player is away")
    return moved.state.turn


# -- declaring and ending an absence (mail's ABSENT UNTIL / BACK and the game page share these) --------
MAX_AHEAD_DAYS = 30


class AbsenceError(ValueError):
    """An absence that cannot be recorded; the message says why."""


def seat_today(seat: Seat):
    return timezone.now().astimezone(zoneinfo.ZoneInfo(seat_timezone(seat))).date()


def declare(seat: Seat, until, inbound=None) -> Turn | None:
    """Record that the seat is away through ``until`` (its own date), tell the umpire, and move the
    open turn's deadline if the game's allowance says so. Returns that turn if its deadline moved."""
    today = seat_today(seat)
    if until <= today:
        raise AbsenceError(_("%(date)s is not in the future") % {"date": until.isoformat()})
    if until > today + timedelta(days=MAX_AHEAD_DAYS):
        raise AbsenceError(_("at most %(days)s days ahead; ask the umpire for longer") % {"days": MAX_AHEAD_DAYS})
    row = Absence.objects.create(seat=seat, until=until, inbound=inbound)
    moved = absence_declared(seat.game.pk)
    signals.absence_declared.send(sender=__name__, seat=seat, absence=row, until=until, moved=moved)
    return moved


def end(seat: Seat) -> bool:
    """The seat is back early: its absence ends today. False if it had none in force."""
    today = seat_today(seat)
    # Absences are bookkeeping beside the game's log, not events: the last day moves to yesterday.
    ended = Absence.objects.filter(seat=seat, until__gte=today).update(until=today - timedelta(days=1))
    if ended:
        signals.absence_ended.send(sender=__name__, seat=seat, today=today)
    return bool(ended)


def deadline_words(seat: Seat, moved: Turn | None) -> str:
    """What an absence did to the deadlines, in the seat's terms."""
    state = gamelog.load(seat.game.pk).state
    days = state.settings.get("absence_days", 0)
    left = _days(allowance_left(state, seat.side))
    if moved:
        return _(
            "The deadline of turn %(number)s is now %(deadline)s; your side's allowance for absences has %(left)s left."
        ) % {"number": moved.number, "left": left, "deadline": local_time(moved.deadline, seat_timezone(seat))}
    if days:
        return _(
            "Deadlines move for absences by up to %(days)s days in all in this game; your side has %(left)s left "
            "(a turn that expects your orders while you are away waits for you, as far as that goes)."
        ) % {"days": days, "left": left}
    return _("In this game deadlines move only if the umpire extends them.")


def _days(left: timedelta) -> str:
    hours = left.total_seconds() / 3600
    return _("%(days).1f days") % {"days": hours / 24} if hours >= 24 else _("%(hours).0f hours") % {"hours": hours}
