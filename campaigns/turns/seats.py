"""The umpire hands a side to another player (a standby for one who has gone).

Nobody is put into a game without their yes (issue 29): the umpire *offers* the side
(``offer_side``), the standby is mailed a link, and only their acceptance (``accept_side``) hands
the side over. The offer is a signed token naming the seat, the standby and the seat's version: a
handover bumps the version, so an offer is taken once, and any offer made before another handover
is void; it expires after a week.

The seat keeps its side and its history; its user and mail address (the newcomer's own verified
address: nobody types it for them) change, its secret reply
address is revoked (the old player's mail is refused with a reply that says so), the new
player gets the game's first mail with the new address and their view, and the old player is
told. A public ``side.replaced`` event records the handover in the log (no names: who plays a
side is not the game's business).
"""

from __future__ import annotations

from datetime import timedelta

from django.core import signing
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from campaigns.models import Seat
from rules.core.protocol import RuleEvent

from . import gamelog, signals
from .addresses import revoke
from .gamelog import Draft
from .mailaddress import verified_address
from .state import GameStatus


class SeatError(ValueError):
    """A handover that cannot be made; the message says why."""


def seat_label(seat: Seat) -> str:
    if seat.role == Seat.Role.PLAYER and seat.command:  # several players a side (LW-61, KS-9)
        return (_("%(side)s, the commander") if seat.command == "commander" else _("%(side)s, %(command)s command")) % {
            "side": pgettext("side", seat.side),
            "command": seat.command,
        }
    return pgettext("side", seat.side) if seat.role == Seat.Role.PLAYER else _(seat.role)


OFFER_SALT = "kb.handover"
OFFER_MAX_AGE = timedelta(days=7)


def _check_handover(stream, side: str, user) -> tuple[Seat, str]:
    """The seat ``side`` may be handed to ``user`` now: (seat, user's verified address), or SeatError."""
    seat = stream.game.seats.filter(role=Seat.Role.PLAYER, side=side).first()
    if seat is None:
        raise SeatError(_("this game has no player seat for %(side)s") % {"side": repr(side)})
    if stream.state.status == GameStatus.FINISHED:
        raise SeatError(_("the game is over: its seats stay as they were"))
    if seat.status != Seat.Status.ACTIVE:
        raise SeatError(
            _("nobody has accepted %(side)s yet: invite a player to it on the seats page")
            % {"side": pgettext("side", side)}
        )
    email = verified_address(user)
    if not email:
        raise SeatError(
            _("%(user)s has not confirmed a mail address yet (on their settings page)") % {"user": user.get_username()}
        )
    if stream.game.seats.filter(user=user).exclude(pk=seat.pk).exists():
        raise SeatError(_("%(user)s already holds a seat in this game") % {"user": user.get_username()})
    if seat.user == user:
        raise SeatError(
            _("%(user)s already plays %(side)s") % {"user": user.get_username(), "side": pgettext("side", side)}
        )
    return seat, email


def offer_side(game_id: int, side: str, user, *, by) -> Seat:
    """Offer ``side`` to ``user``: nothing changes until they accept the link they are mailed."""
    with transaction.atomic():
        stream = gamelog.load(game_id, lock=True)
        seat, _email = _check_handover(stream, side, user)
        token = signing.dumps({"seat": seat.pk, "user": user.pk, "v": seat.version}, salt=OFFER_SALT)
        signals.side_offered.send(sender=__name__, seat=seat, user=user, by=by, token=token)
    return seat


def read_offer(token: str, user) -> Seat:
    """The seat an offer's link names, if it is still this user's open offer."""
    try:
        data = signing.loads(token, salt=OFFER_SALT, max_age=OFFER_MAX_AGE)
    except signing.SignatureExpired:
        raise SeatError(_("This offer has expired. Ask the umpire to offer you the side again.")) from None
    except signing.BadSignature:
        raise SeatError(_("This is not a valid link.")) from None
    seat = Seat.objects.select_related("game").filter(pk=data.get("seat")).first()
    if seat is None or data.get("user") != user.pk:
        raise SeatError(_("This offer is not for you."))
    if seat.version != data.get("v"):
        raise SeatError(_("This offer has been taken up already, or the side has changed hands since."))
    return seat


def accept_side(token: str, user) -> Seat:
    """The standby's yes: the side is theirs (checked again under the game's lock)."""
    seat = read_offer(token, user)
    with transaction.atomic():
        stream = gamelog.load(seat.game_id, lock=True)
        seat = read_offer(token, user)  # the lock taken: still open?
        return _hand_over(stream, seat.side, user)


def _hand_over(stream, side: str, user) -> Seat:
    seat, email = _check_handover(stream, side, user)
    old_email, old_user = seat.email, seat.user
    seat.user, seat.email, seat.accepted_at = user, email, timezone.now()
    seat.version += 1  # every earlier offer of this seat is void
    seat.save(update_fields=["user", "email", "accepted_at", "version"])
    revoke(seat)
    stream = gamelog.append(
        stream,
        [Draft(stream.state.turn.number, RuleEvent("side.replaced", {"side": side, "turn": stream.state.turn.number}))],
    )
    handover = stream.game.events.filter(type="side.replaced").count()
    signals.side_replaced.send(
        sender=__name__,
        stream=stream,
        seat=seat,
        side=side,
        old_email=old_email,
        old_user=old_user,
        handover=handover,
    )
    signals.seat_joined.send(sender=__name__, stream=stream, seat=seat, key_suffix=f":{handover}")
    return seat
