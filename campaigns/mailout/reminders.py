"""Reminders before a deadline, and a notice when the game waits for someone.

Run by the periodic sweep (Celery beat, or the embedded server's sweeper
thread), never as long ETA tasks: deadlines live in the database and the
sweep reads them as they are now.

Lead times scale with the turn's length L (from turn.opened to its deadline):

    leads = L / 3 and L / 36

so a 3-day turn is reminded 24 h and 2 h before its deadline and a 24-hour
decision turn 8 h and 40 min before. A lead under MIN_LEAD is dropped: too
short to act on. Each reminder's idempotency key names game, turn, seat and
lead (and the deadline's version, once the umpire has moved it), so each is
mailed exactly once per seat per turn per lead and deadline; a sweep that
runs late past both points sends only the nearer one.

A seat is reminded only while its side must order and has sent nothing, and
not while it is away: a seat that sent ABSENT UNTIL a date (mail-in) gets no
reminder up to and including that date, counted in the seat's time zone. A seat whose player
asked for less mail (``Seat.Mail.LESS``: the one-click unsubscribe, unsubscribe.py) gets neither
reminders nor waiting notices. The
waiting notice goes to each side that is not ready while every other side of
the turn is, and to the umpire while results wait for approval: once per seat
per turn.
"""

from __future__ import annotations

import zoneinfo
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext, gettext_noop

from campaigns.i18n import for_seat
from campaigns.models import Absence, Game, Seat
from campaigns.turns import gamelog
from campaigns.turns.localtime import local_time, seat_timezone
from campaigns.turns.state import Turn, TurnStatus

from . import outbox, unsubscribe

LEAD_FRACTIONS = (3, 36)  # lead = turn length / fraction
MIN_LEAD = timedelta(minutes=5)


def leads(length: timedelta) -> list[timedelta]:
    """Lead times for a turn of this length, longest first."""
    return [length / f for f in LEAD_FRACTIONS if length / f >= MIN_LEAD]


def due_lead(opened: datetime, deadline: datetime, now: datetime) -> int | None:
    """Index into ``leads`` of the reminder due at ``now``, or None before the first or after the deadline."""
    if now >= deadline:
        return None
    due = [i for i, lead in enumerate(leads(deadline - opened)) if now >= deadline - lead]
    return due[-1] if due else None


def _remaining(delta: timedelta) -> str:
    minutes = max(int(delta.total_seconds() // 60), 0)
    hours, minutes = divmod(minutes, 60)
    return (
        gettext("%(hours)d h %(minutes)02d min") % {"hours": hours, "minutes": minutes}
        if hours
        else gettext("%(minutes)d min") % {"minutes": minutes}
    )


def _player_seats(game: Game, sides) -> list[Seat]:
    return list(game.seats.active().select_related("user__profile").filter(role=Seat.Role.PLAYER, side__in=sides))


def _wants_reminders(seat: Seat) -> bool:
    """Not a seat whose player asked for less mail (unsubscribe.py): reports and notices only."""
    return seat.mail != Seat.Mail.LESS


def _has_sent(turn: Turn, seat: Seat) -> bool:
    """Has this seat's side (or, where a side has several seats, this seat's command) sent orders?"""
    if seat.command:
        return seat.command in turn.commands.get(seat.side, {})
    return seat.side in turn.orders


def absent_seat_ids(seats: list[Seat], now: datetime) -> set[int]:
    """The seats among ``seats`` whose declared absence covers ``now`` (their own local date)."""
    by_pk = {seat.pk: seat for seat in seats}
    away = Absence.objects.filter(seat_id__in=by_pk, until__gte=(now - timedelta(days=1)).date())
    return {
        seat_id
        for seat_id, until in away.values_list("seat_id", "until")
        if now.astimezone(zoneinfo.ZoneInfo(seat_timezone(by_pk[seat_id]))).date() <= until
    }


def _queue(game: Game, seat: Seat, key: str, subject: str, template: str, ctx: dict, kind: str) -> bool:
    """``subject``: a msgid (marked with gettext_noop) with %(number)s and %(remaining)s; everything is
    written in the seat's own language."""
    with for_seat(seat):
        ctx = {**ctx, "game": game, "seat": seat, "deadline": local_time(ctx["turn"].deadline, seat_timezone(seat))}
        if kind == "reminder":
            ctx["less_mail_url"] = unsubscribe.url(seat)
        if "left" in ctx:
            ctx["remaining"] = _remaining(ctx["left"])
        subject = gettext(subject) % {"number": ctx["turn"].number, "remaining": ctx.get("remaining", "")}
        return (
            outbox.queue_mail(
                key=key,
                game=game,
                seat=seat,
                to=seat.email,
                kind=kind,
                subject=f"[Kriegsbrief] {outbox.one_line(game.name)}: {subject}",
                body=render_to_string(f"mail/{template}.txt", ctx),
            )
            is not None
        )


def remind(game: Game, turn: Turn, now: datetime) -> int:
    """Queue the reminder due now to each side of the open turn that has sent no orders,
    unless its seat has declared itself absent for today."""
    deadline = parse_datetime(turn.deadline)
    lead = due_lead(parse_datetime(turn.opened_at), deadline, now)
    if lead is None:
        return 0
    ctx = {"turn": turn, "left": deadline - now}
    seats = [s for s in _player_seats(game, turn.sides) if not _has_sent(turn, s) and _wants_reminders(s)]
    away = absent_seat_ids(seats, now)
    version = turn.deadline_version  # a moved deadline is reminded afresh
    return sum(
        _queue(
            game,
            seat,
            f"reminder:{game.uid}:{turn.number}:{seat.pk}:{lead}" + (f":v{version}" if version else ""),
            gettext_noop("orders for turn %(number)s due in %(remaining)s"),
            "reminder",
            ctx,
            "reminder",
        )
        for seat in seats
        if seat.pk not in away
    )


def notify_waiting(game: Game, turn: Turn, now: datetime | None = None) -> int:
    """Tell the sides not yet ready that every other side is and the game waits for them. A seat
    away (ABSENT UNTIL) is told on a sweep after it is back, if the turn still waits for it."""
    waiting = [s for s in turn.sides if s not in turn.ready]
    if len(turn.sides) < 2 or len(waiting) != 1:
        return 0
    ctx = {"turn": turn, "ready": sorted(turn.ready)}
    seats = [seat for seat in _player_seats(game, waiting) if _wants_reminders(seat)]
    away = absent_seat_ids(seats, now or timezone.now())
    return sum(
        _queue(
            game,
            seat,
            f"waiting:{game.uid}:{turn.number}:{seat.pk}",
            gettext_noop("turn %(number)s waits for you"),
            "waiting",
            ctx,
            "waiting",
        )
        for seat in seats
        if seat.pk not in away
    )


def notify_deadline(game: Game, turn: Turn, note: str) -> int:
    """Tell every player the umpire moved the open turn's deadline (each in its own time zone)."""
    version = turn.deadline_version
    ctx = {"turn": turn, "note": note, "to_order": turn.sides}
    return sum(
        _queue(
            game,
            seat,
            f"deadline:{game.uid}:{turn.number}:{version}:{seat.pk}",
            gettext_noop("turn %(number)s deadline moved"),
            "deadline",
            ctx,
            "notice",
        )
        for seat in game.seats.active().select_related("user__profile").filter(role=Seat.Role.PLAYER)
    )


def notify_late(game: Game, turn: Turn, missing: list[str]) -> int:
    """The deadline passed without these sides' orders: tell each late seat and the umpire, once."""
    ctx = {"turn": turn, "missing": missing, "until": turn.late_until}
    seats = list(
        game.seats.active().select_related("user__profile").filter(role=Seat.Role.PLAYER, side__in=missing)
    ) + list(game.seats.active().select_related("user__profile").filter(role=Seat.Role.UMPIRE))
    return sum(
        _queue(
            game,
            seat,
            f"late:{game.uid}:{turn.number}:{seat.pk}",
            gettext_noop("turn %(number)s: orders late"),
            "late",
            {**ctx, "until_local": local_time(turn.late_until, seat_timezone(seat))},
            "notice",
        )
        for seat in seats
    )


def notify_approval() -> int:
    """Tell the umpire once per turn that adjudicated results wait for approval."""
    queued = 0
    held = Game.objects.filter(status=Game.Status.ACTIVE, turn_status=TurnStatus.ADJUDICATED)
    for game in held.prefetch_related("seats"):
        # the Game row's projection is enough here: the mail names the turn, not its deadline
        ctx = {"turn": Turn(game.turn_number, status=TurnStatus.ADJUDICATED), "site_url": settings.SITE_URL}
        for seat in game.seats.all():  # prefetched
            if seat.role == Seat.Role.UMPIRE and seat.status == Seat.Status.ACTIVE:
                queued += _queue(
                    game,
                    seat,
                    f"approval:{game.uid}:{game.turn_number}:{seat.pk}",
                    gettext_noop("turn %(number)s results await your approval"),
                    "approval",
                    ctx,
                    "approval",
                )
    return queued


def _may_need_mail(turn: Turn, now: datetime) -> bool:
    """A cheap test on unlocked state: is a reminder or waiting notice possibly due?"""
    if turn.status != TurnStatus.OPEN:
        return False
    reminder = due_lead(parse_datetime(turn.opened_at), parse_datetime(turn.deadline), now) is not None
    missing = any(s not in turn.orders for s in turn.sides)
    waiting = len(turn.sides) >= 2 and len(turn.ready) == len(turn.sides) - 1
    return (reminder and missing) or waiting


def sweep(now: datetime) -> dict:
    """Reminders and waiting notices for every open turn whose deadline is ahead,
    and approval notices for every turn held for the umpire."""
    reminded = waiting = 0
    games = Game.objects.filter(status=Game.Status.ACTIVE, turn_status=TurnStatus.OPEN, deadline_at__gt=now)
    for game_id in games.values_list("pk", flat=True):
        if not _may_need_mail(gamelog.load(game_id).state.turn, now):
            continue  # most games most of the time: no lock taken
        with transaction.atomic():
            # Locked like a command, so a reminder never races the orders it asks for.
            stream = gamelog.load(game_id, lock=True)
            turn = stream.state.turn
            if turn.status != TurnStatus.OPEN:
                continue
            reminded += remind(stream.game, turn, now)
            waiting += notify_waiting(stream.game, turn, now)
    return {"reminders": reminded, "waiting_notices": waiting, "approval_notices": notify_approval()}


def mail_sweep(now: datetime) -> dict:
    """The mail part of the periodic sweep: reminders, waiting notices, outbox retries."""
    return {**sweep(now), "mail_requeued": outbox.requeue_due(now)}
