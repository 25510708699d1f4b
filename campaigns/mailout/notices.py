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
from django.utils.translation import gettext_noop, pgettext

from campaigns.i18n import for_seat, language_of, mail_language, seat_language
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
    # The turn's reports (a seat each) reach the broker as one send-many task: one publish, and
    # one SMTP connection for them all (outbox.send_many), which is what a backlog drains at.
    outbox.one_wakeup()


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


def _adjudication_failed(stream, turn_number, failure, **_kw):
    """The umpire is told at once that a turn's adjudication failed, with the error and the way on."""
    game = stream.game
    umpire = game.seats.active().filter(role=Seat.Role.UMPIRE).first()
    if umpire is None:
        return
    with for_seat(umpire):
        body = "\n".join(
            [
                _("The rules could not adjudicate turn %(number)s: nothing of it was recorded, and the turn is held.")
                % {"number": turn_number},
                f"{failure['error']} ({failure['where']})",
                _(
                    "Adjudicate it again from the umpire's page once the rules are fixed; a deploy that changes "
                    "the rules retries it by itself:"
                ),
                settings.SITE_URL.rstrip("/") + reverse("umpire", args=[game.pk]),
                "",
            ]
        )
        outbox.queue_mail(
            key=f"adjudication-failed:{turn_number}:{failure['code']}",
            to=umpire.email,
            game=game,
            seat=umpire,
            kind="notice",
            subject=outbox.one_line(
                f"[Kriegsbrief] {game.name}: " + _("turn %(number)s could not be adjudicated") % {"number": turn_number}
            ),
            body=body,
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


AUTOMATIC_NOTICE = gettext_noop("Kriegsbrief. This is an automatic notice.")


def _signed(*lines: str) -> str:
    return "\n".join(lines) + "\n\n--\n" + _(AUTOMATIC_NOTICE) + "\n"


def _declined_readers(game) -> dict[str, str]:
    """{address: language} of those told of a declined seat: the game's creator and its umpire."""
    to = {}
    if game.created_by_id and verified_address(game.created_by):
        to[verified_address(game.created_by)] = mail_language(game.created_by)
    for umpire in game.seats.active().filter(role=Seat.Role.UMPIRE).select_related("user"):
        to.setdefault(umpire.email, seat_language(umpire))
    return {a: lang for a, lang in to.items() if a}


def _invitation_declined(seat, user, **_kw):
    game = seat.game
    for address, language in sorted(_declined_readers(game).items()):
        with translation.override(language):
            what = (
                _("the %(side)s player's seat") % {"side": seat_label(seat)}
                if seat.role == Seat.Role.PLAYER
                else _("the %(role)s's seat") % {"role": _(seat.role)}
            )
            body = _signed(
                _("%(user)s declined %(seat)s in %(game)s.")
                % {"user": user.get_username(), "seat": what, "game": game.name},
                _("The seat is free; invite someone else to it: %(url)s")
                % {"url": settings.SITE_URL + reverse("game_seats", args=[game.pk])},
                _("The game starts when every player and the umpire have accepted."),
            )
            outbox.queue_mail(
                key=f"declined:{seat.pk}:{seat.version}:{address}",
                to=address,
                game=game,
                kind="notice",
                reply_to="",
                subject=outbox.one_line(f"[Kriegsbrief] {game.name}: " + _("%(seat)s was declined") % {"seat": what}),
                body=body,
            )


def _side_offered(seat, user, by, token, **_kw):
    """The standby's offer, with the link that takes the side (campaigns/turns/seats.py); in the
    standby's language (else the umpire's, who knows whom they ask)."""
    address = verified_address(user)
    if not address:
        return
    game = seat.game
    with translation.override(language_of(user) or language_of(by) or settings.LANGUAGE_CODE):
        named = pgettext("side", seat.side)
        outbox.queue_mail(
            key=f"side-offered:{seat.pk}:{seat.version}:{user.pk}",
            to=address,
            game=game,
            kind="invite",
            reply_to="",
            subject=outbox.one_line(
                f"[Kriegsbrief] {game.name}: " + _("will you take over %(side)s?") % {"side": named}
            ),
            body=_signed(
                _(
                    "%(by)s, the umpire of %(game)s (%(title)s), asks you to take over %(side)s from a player who has gone."
                )
                % {
                    "by": by.get_username() if by else _("the operator"),
                    "game": game.name,
                    "title": catalog.get(game.ruleset).title,
                    "side": named,
                },
                _("Nothing changes unless you accept. To accept (signed in): %(url)s")
                % {"url": settings.SITE_URL + reverse("side_offer", args=[token])},
                _("The offer is open for a week; if you do not want the side, let it lapse."),
            ),
        )


def _side_replaced(stream, seat, side, old_email, handover, old_user=None, **_kw):
    game = stream.game
    with translation.override(mail_language(old_user)):  # the leaving player's language
        named = pgettext("side", side)
        outbox.queue_mail(
            key=f"seat-left:{seat.pk}:{handover}",
            to=old_email,
            game=game,
            kind="notice",
            reply_to="",
            # In the leaving player's thread: its root is the first mail they got, under the
            # seat's version before this handover bumped it (campaigns/turns/seats.py).
            references=(outbox.thread_root(game, seat, seat.version - 1),),
            subject=outbox.one_line(
                f"[Kriegsbrief] {game.name}: " + _("you no longer play %(side)s") % {"side": named}
            ),
            body=_signed(
                _("The umpire has handed %(side)s in %(game)s to another player.") % {"side": named, "game": game.name},
                _("Thank you for playing. Mail to your old reply address is no longer read."),
            ),
        )


def _address_renewed(seat, address, reason, **_kw):
    """``reason``: a msgid (the web's "replaced by the umpire"), read in the seat's language."""
    with for_seat(seat):
        outbox.queue_mail(
            key=f"address-renewed:{address.pk}",
            to=seat.email,
            game=seat.game,
            seat=seat,
            kind="notice",
            subject=f"[Kriegsbrief] {' '.join(seat.game.name.split())}: " + _("your new reply address"),
            body=_signed(
                _("Your seat's secret reply address in %(game)s has been replaced (%(reason)s).")
                % {"game": seat.game.name, "reason": _(reason)},
                _(
                    "Reply to this message, or to any later one, to send orders and commands. Mail to the old "
                    "address is refused with a reply that says so."
                ),
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
    signals.adjudication_failed: _adjudication_failed,
    signals.absence_ended: _absence_ended,
    signals.seat_invited: _seat_invited,
    signals.invitation_declined: _invitation_declined,
    signals.side_offered: _side_offered,
    signals.side_replaced: _side_replaced,
    signals.address_renewed: _address_renewed,
}


def connect() -> None:
    for signal, receiver in RECEIVERS.items():
        signal.connect(receiver, dispatch_uid=f"mailout.{receiver.__name__}")
