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

from django.utils import timezone
from django.utils.dateparse import parse_datetime

from rules.core.protocol import RuleEvent

from .eventstore import Draft, Stream
from .models import Seat
from .reports import seat_timezone

GRACE = timedelta(hours=24)
MAX_DAYS = 30


def allowance_left(state: dict, side: str) -> timedelta:
    days = state["settings"].get("absence_days", 0)
    used = state.get("absence_used", {}).get(side, 0.0)
    return max(timedelta(0), timedelta(days=days) - timedelta(hours=used))


def absence_end(seat: Seat, now: datetime) -> datetime | None:
    """When the seat's declared absence in force now ends: the next midnight after its last day, in
    its own time zone; None when it is not away."""
    from .mailin.models import Absence

    zone = zoneinfo.ZoneInfo(seat_timezone(seat))
    today = now.astimezone(zone).date()
    last = max(Absence.objects.filter(seat=seat, until__gte=today).values_list("until", flat=True), default=None)
    if last is None:
        return None
    return datetime.combine(last + timedelta(days=1), time(0), tzinfo=zone)


def deadline_drafts(stream: Stream, now: datetime | None = None) -> list[Draft]:
    """The deadline move the open turn's absent sides are owed, if any (a list of 0 or 1 draft)."""
    state = stream.state
    turn = state["turn"]
    if not state["settings"].get("absence_days") or turn["status"] != "open" or not turn["deadline"]:
        return []
    now = now or timezone.now()
    deadline = parse_datetime(turn["deadline"])
    waiting = [s for s in turn["sides"] if s not in turn["orders"]]
    best, owed_by = deadline, None
    seats = stream.game.seats.select_related("user__profile").filter(role=Seat.Role.PLAYER, side__in=waiting)
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
    return [Draft(turn["number"], RuleEvent("turn.deadline_set", {
        "turn": turn["number"], "deadline": best.isoformat(), "previous": turn["deadline"],
        "note": "a player is away", "absence": {"side": owed_by, "hours": hours}}))]
