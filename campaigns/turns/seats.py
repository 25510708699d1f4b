"""The umpire hands a side to another player (a standby for one who has gone).

The seat keeps its side and its history; its user and mail address (the newcomer's own verified
address: nobody types it for them) change, its secret reply
address is revoked (the old player's mail is refused with a reply that says so), the new
player gets the game's first mail with the new address and their view, and the old player is
told. A public ``side.replaced`` event records the handover in the log (no names: who plays a
side is not the game's business).
"""

from __future__ import annotations

from django.db import transaction
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


def replace_player(game_id: int, side: str, user) -> Seat:
    with transaction.atomic():
        stream = gamelog.load(game_id, lock=True)
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
                _("%(user)s has not confirmed a mail address yet (on their settings page)")
                % {"user": user.get_username()}
            )
        if stream.game.seats.filter(user=user).exclude(pk=seat.pk).exists():
            raise SeatError(_("%(user)s already holds a seat in this game") % {"user": user.get_username()})
        old_email, old_user = seat.email, seat.user
        if old_user == user and old_email == email:
            raise SeatError(
                _("%(user)s already plays %(side)s") % {"user": user.get_username(), "side": pgettext("side", side)}
            )
        seat.user, seat.email = user, email
        seat.save(update_fields=["user", "email"])
        revoke(seat)
        stream = gamelog.append(
            stream,
            [
                Draft(
                    stream.state.turn.number,
                    RuleEvent("side.replaced", {"side": side, "turn": stream.state.turn.number}),
                )
            ],
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
