"""The mail the turn machinery's news sends: receivers of campaigns.turns.signals.

Connected once, by campaigns.apps.CampaignsConfig.ready (``connect``). Each receiver runs inside
the command's transaction, as the command's own mail did before (outbox rows commit with it);
idempotency keys are those the commands used.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from campaigns.i18n import for_seat, language_of
from campaigns.models import Seat
from campaigns.turns import invitations, signals
from campaigns.turns.mailaddress import verified_address
from campaigns.turns.seats import seat_label
from rules import catalog

from . import outbox, reminders, reports


def _game_started(stream, **_):
    reports.queue_game_start(stream)


def _seat_joined(stream, seat, key_suffix, **_):
    reports.queue_game_start(stream, seats=[seat], key_suffix=key_suffix)


def _turn_published(stream, turn_number, **_):
    reports.queue_turn_reports(stream, turn_number)


def _deadline_moved(game, turn, note, **_):
    reminders.notify_deadline(game, turn, note)


def _turn_late(game, turn, missing, **_):
    reminders.notify_late(game, turn, missing)


def _swept(now, **_) -> dict:
    return reminders.mail_sweep(now)


def _rescue_due(now, **_) -> dict:
    return {"mail": outbox.requeue_due(now)}


def _tell_umpire(seat: Seat, key: str, what: str, body: Callable[[], str]) -> None:
    """``what``: a msgid with %(seat)s; ``body()`` writes the mail: both in the umpire's language."""
    umpire = seat.game.seats.active().filter(role=Seat.Role.UMPIRE).first()
    if umpire is None or umpire.pk == seat.pk:
        return
    with for_seat(umpire):
        outbox.queue_mail(
            key=key,
            to=umpire.email,
            game=seat.game,
            seat=umpire,
            kind="mail-forward",
            subject=outbox.one_line(f"[Kriegsbrief] {seat.game.name}: " + _(what) % {"seat": seat_label(seat)}),
            body=body(),
        )


def _absence_declared(seat, absence, until, moved, **_kw):
    def body() -> str:
        away = _("%(seat)s says they are away until %(date)s.") % {"seat": seat_label(seat), "date": until.isoformat()}
        deadline = (
            _("The game's absence allowance moved the deadline of turn %(number)s to %(deadline)s.")
            % {"number": moved.number, "deadline": moved.deadline}
            if moved
            else _("Deadlines are yours to extend.")
        )
        return f"{away}\n{deadline}\n"

    _tell_umpire(seat, f"absence:{absence.pk}", gettext_noop("%(seat)s absent"), body)


def _absence_ended(seat, today, **_kw):
    _tell_umpire(
        seat,
        f"back:{seat.pk}:{today.isoformat()}",
        gettext_noop("%(seat)s is back"),
        lambda: (
            _("%(seat)s says they are back (%(date)s), before the date they gave.")
            % {"seat": seat_label(seat), "date": today.isoformat()}
            + "\n"
        ),
    )


def _seat_invited(seat, by, **_kw):
    address = verified_address(seat.user)
    if not address:
        return
    # In the invitee's language; one who chose none gets the inviter's (who knows whom they invite).
    with translation.override(language_of(seat.user) or language_of(by) or settings.LANGUAGE_CODE):
        ctx = {
            "seat": seat,
            "game": seat.game,
            "by": by.get_username() if by else _("the operator"),
            "title": catalog.get(seat.game.ruleset).title,
            "roster": invitations.roster(seat.game),
            "link": settings.SITE_URL + invitations.accept_url(seat),
            "expires": invitations.expires_at(seat),
            "site_url": settings.SITE_URL,
        }
        outbox.queue_mail(
            key=f"invite:{seat.pk}:{seat.version}",
            to=address,
            kind="invite",
            reply_to="",
            subject=outbox.one_line("[Kriegsbrief] " + _("You are invited to %(game)s") % {"game": seat.game.name}),
            body=render_to_string("mail/invitation.txt", ctx),
        )


def _invitation_declined(seat, user, **_):
    game = seat.game
    to = {verified_address(game.created_by)} if game.created_by_id else set()
    to |= set(game.seats.active().filter(role=Seat.Role.UMPIRE).values_list("email", flat=True))
    what = f"the {seat.side} player's seat" if seat.role == Seat.Role.PLAYER else f"the {seat.role}'s seat"
    body = (
        f"{user.get_username()} declined {what} in {game.name}.\n"
        f"The seat is free; invite someone else to it: {settings.SITE_URL}{reverse('game_seats', args=[game.pk])}\n"
        "The game starts when every player and the umpire have accepted.\n\n"
        "--\nKriegsbrief. This is an automatic notice.\n"
    )
    for address in sorted(a for a in to if a):
        outbox.queue_mail(
            key=f"declined:{seat.pk}:{seat.version}:{address}",
            to=address,
            game=game,
            kind="notice",
            reply_to="",
            subject=outbox.one_line(f"[Kriegsbrief] {game.name}: {what} was declined"),
            body=body,
        )


def _side_replaced(stream, seat, side, old_email, handover, **_):
    outbox.queue_mail(
        key=f"seat-left:{seat.pk}:{handover}",
        to=old_email,
        game=stream.game,
        kind="notice",
        reply_to="",
        subject=outbox.one_line(f"[Kriegsbrief] {stream.game.name}: you no longer play {side}"),
        body=f"The umpire has handed {side} in {stream.game.name} to another player.\n"
        f"Thank you for playing. Mail to your old reply address is no longer read.\n\n"
        f"--\nKriegsbrief. This is an automatic notice.\n",
    )


def _address_renewed(seat, address, reason, **_):
    outbox.queue_mail(
        key=f"address-renewed:{address.pk}",
        to=seat.email,
        game=seat.game,
        seat=seat,
        kind="notice",
        subject=f"[Kriegsbrief] {' '.join(seat.game.name.split())}: your new reply address",
        body=(
            f"Your seat's secret reply address in {seat.game.name} has been replaced ({reason}).\n"
            "Reply to this message, or to any later one, to send orders and commands. Mail to the old\n"
            "address is refused with a reply that says so.\n\n--\nKriegsbrief. This is an automatic notice.\n"
        ),
    )


RECEIVERS = {
    signals.game_started: _game_started,
    signals.seat_joined: _seat_joined,
    signals.turn_published: _turn_published,
    signals.deadline_moved: _deadline_moved,
    signals.turn_late: _turn_late,
    signals.swept: _swept,
    signals.rescue_due: _rescue_due,
    signals.absence_declared: _absence_declared,
    signals.absence_ended: _absence_ended,
    signals.seat_invited: _seat_invited,
    signals.invitation_declined: _invitation_declined,
    signals.side_replaced: _side_replaced,
    signals.address_renewed: _address_renewed,
}


def connect() -> None:
    for signal, receiver in RECEIVERS.items():
        signal.connect(receiver, dispatch_uid=f"mailout.{receiver.__name__}")
