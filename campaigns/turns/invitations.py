"""Seats by invitation: naming someone in a new game only invites them.

A game created on the web gives every seat it names the status ``invited``. The invited user sees
the invitation on their pages and, if they have a verified mail address, gets it by mail with a
signed accept link. Until they accept, the seat is nothing: no game-start mail, no reports, no
reply address, no view of the game, no orders by any channel. Accepting sets the seat's mail
address to the user's own verified address (``mailaddress.verified_address``); nobody else can
type it. Declining frees the seat (no user) and tells the game's creator and umpire; the creator
or the umpire may then invite someone else to it.

The game starts (turn 1 opens, with its full deadline) when every player seat and the umpire's
seat are active: before that no turn is open, so there is no deadline to run, nothing to remind
and nothing to order. Observers are invited the same way but never hold the game up; one who
accepts later gets the game's first mail then.

An invitation link is ``signing.dumps({"seat", "user", "v"}, salt=SALT)`` read with ``max_age``:
signed, not secret. It works once: every answer (and every new invitation to the seat) bumps
the seat's ``version``, and the link names the version it was sent for. It also needs the
invited user signed in (a mail scanner following it changes nothing: answers are POSTs).

Seating rules (``check_seating``), enforced here for every way a seat is filled: a user holds at
most one seat in a game, except that the umpire may also hold one player seat when the game says
``umpire_plays`` (a setting chosen at creation, public in ``game.created`` and shown on the
invitation and the game page before anyone accepts).
"""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

from django.core import signing
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.models import Game, Seat
from rules import catalog
from rules.core.protocol import PUBLIC

from . import commands, gamelog, signals
from .addresses import revoke
from .mailaddress import verified_address
from .state import GameStatus

SALT = "kb.invite"
MAX_AGE = timedelta(days=7)


class InvitationError(ValueError):
    """An invitation that cannot be made or answered; the message says why."""


# --- the game's public facts -------------------------------------------------


def _created(game: Game) -> dict:
    # Among the game's public events by seq (the (game, audience, seq) index, from the first): the
    # type alone is indexed nowhere, so a plan read the whole log, every private event with it.
    created = game.events.filter(audience=PUBLIC, type="game.created").order_by("seq")
    return created.values_list("payload", flat=True).first() or {}


def umpire_plays(game: Game) -> bool:
    """The game's ``umpire_plays`` setting, from its public ``game.created`` event."""
    return bool(_created(game).get("settings", {}).get("umpire_plays"))


def scenario(game: Game) -> dict:
    """The scenario the game was created with and the options chosen (labelled), from ``game.created``
    (games older than that record have neither)."""
    sc = _created(game).get("scenario") or {}
    labels = {o.name: o.label for o in catalog.get(game.ruleset).game_options}
    return {
        "name": sc.get("name"),
        "title": sc.get("title"),
        "options": [
            labels.get(name, name) if value is True else f"{labels.get(name, name)}: {value}"
            for name, value in sorted((sc.get("options") or {}).items())
        ],
    }


def roster(game: Game) -> dict:
    """Who umpires, plays and observes, as every seat holder (and every invitee) is shown it."""

    def who(seat: Seat) -> dict:
        return {"user": seat.user.get_username() if seat.user_id else None, "status": seat.status}

    seats = game.seats.select_related("user").order_by("role", "side", "pk")
    return {
        "umpire_plays": umpire_plays(game),
        "scenario": scenario(game),
        "umpires": [who(s) for s in seats if s.role == Seat.Role.UMPIRE],
        "players": [{"side": s.side, **who(s)} for s in seats if s.role == Seat.Role.PLAYER],
        "observers": [who(s) for s in seats if s.role == Seat.Role.OBSERVER],
    }


def check_seating(seats: list[tuple[str, object]], umpire_plays: bool) -> None:
    """``seats``: (role, user) of every seat a game would have (users may be None: a free seat).
    Raises InvitationError unless each user holds one seat, or the umpire also one player seat
    in a game where the umpire plays."""
    by_user: dict[object, list[str]] = {}
    for role, user in seats:
        if user is not None:
            by_user.setdefault(user.pk, []).append(role)
    names = {user.pk: user.get_username() for _, user in seats if user is not None}
    for pk, roles in by_user.items():
        if len(roles) == 1:
            continue
        if Counter(roles) == Counter([Seat.Role.UMPIRE, Seat.Role.PLAYER]):
            if umpire_plays:
                continue
            raise InvitationError(
                _(
                    "%(user)s umpires this game and cannot also play a side: the umpire sees every side's "
                    "orders. Choose 'the umpire also plays' when creating the game if that is what everyone agrees to."
                )
                % {"user": names[pk]}
            )
        raise InvitationError(
            _("%(user)s is named for more than one seat (%(seats)s).")
            % {"user": names[pk], "seats": ", ".join(_(r) for r in sorted(roles))}
        )


def _seating_with(seat: Seat, user) -> list[tuple[str, object]]:
    others = [
        (s.role, s.user)
        for s in seat.game.seats.select_related("user").exclude(pk=seat.pk)
        if s.status != Seat.Status.DECLINED
    ]
    return others + [(seat.role, user)]


# --- invitations ---------------------------------------------------------------


def token_for(seat: Seat) -> str:
    return signing.dumps({"seat": seat.pk, "user": seat.user_id, "v": seat.version}, salt=SALT)


def accept_url(seat: Seat) -> str:
    return reverse("invitation", args=[token_for(seat)])


def expires_at(seat: Seat):
    return seat.invited_at + MAX_AGE if seat.invited_at else None


def is_expired(seat: Seat) -> bool:
    return seat.status == Seat.Status.INVITED and expires_at(seat) is not None and expires_at(seat) <= timezone.now()


def invite(seat: Seat, user, *, by) -> Seat:
    """Offer ``seat`` to ``user`` (the seat's row must be locked): the seat is invited, has no
    address, and the user is told by mail at their verified address, if they have one."""
    offer(seat, user)
    mail_invitation(seat, by=by)
    return seat


def offer(seat: Seat, user) -> Seat:
    """The seat becomes ``user``'s open invitation (saved; a new seat is created)."""
    seat.user, seat.status, seat.email = user, Seat.Status.INVITED, ""
    seat.version += 1
    seat.invited_at, seat.accepted_at = timezone.now(), None
    if seat.pk is None:
        seat.save()
    else:
        seat.save(update_fields=["user", "status", "email", "version", "invited_at", "accepted_at"])
        revoke(seat)
    return seat


def mail_invitation(seat: Seat, *, by) -> None:
    """Tell the invitee (mail-out mails it to their verified address, if they have one)."""
    signals.seat_invited.send(sender=__name__, seat=seat, by=by)


def pending_for(user) -> list[Seat]:
    """The user's invitations not yet answered, newest first (expired ones included, marked)."""
    seats = list(
        Seat.objects.filter(user=user, status=Seat.Status.INVITED)
        .select_related("game", "game__campaign")
        .order_by("-invited_at", "-pk")
    )
    for seat in seats:
        seat.expired = is_expired(seat)
        seat.token = token_for(seat)
        seat.roster = roster(seat.game)
    return seats


def read(token: str, user, *, lock: bool = False) -> Seat:
    """The invited seat a link names, if it is still this user's open invitation."""
    try:
        data = signing.loads(token, salt=SALT, max_age=MAX_AGE)
    except signing.SignatureExpired:
        raise InvitationError(
            _("This invitation link has expired. Ask the game's creator to invite you again.")
        ) from None
    except signing.BadSignature:
        raise InvitationError(_("This is not a valid invitation link.")) from None
    seats = Seat.objects.select_for_update() if lock else Seat.objects
    seat = seats.select_related("game").filter(pk=data.get("seat")).first()
    if seat is None or data.get("user") != user.pk or seat.user_id != user.pk:
        raise InvitationError(_("This invitation is not for you."))
    if seat.version != data.get("v") or seat.status != Seat.Status.INVITED:
        raise InvitationError(_("This invitation has already been answered, or was withdrawn."))
    if is_expired(seat):
        raise InvitationError(_("This invitation has expired. Ask the game's creator to invite you again."))
    return seat


def _lock_game(token: str, user):
    """Lock the game first, as every command does, then the seat (no lock-order deadlocks)."""
    return gamelog.load(read(token, user).game_id, lock=True)


def accept(token: str, user) -> Seat:
    """Take the seat with the user's own verified address; start the game if it was the last one."""
    with transaction.atomic():
        stream = _lock_game(token, user)
        seat = read(token, user, lock=True)
        address = verified_address(user)
        if not address:
            raise InvitationError(
                _("Confirm your mail address on your settings page first: your seat's mail goes to it.")
            )
        seat.status, seat.email, seat.accepted_at = Seat.Status.ACTIVE, address, timezone.now()
        seat.version += 1
        seat.save(update_fields=["status", "email", "accepted_at", "version"])
        start_if_ready(stream, newly_seated=seat)
    return seat


def decline(token: str, user) -> Seat:
    """Free the seat and tell the game's creator and umpire."""
    with transaction.atomic():
        _lock_game(token, user)
        seat = read(token, user, lock=True)
        seat.status, seat.user, seat.email = Seat.Status.DECLINED, None, ""
        seat.version += 1
        seat.save(update_fields=["status", "user", "email", "version"])
        signals.invitation_declined.send(sender=__name__, seat=seat, user=user)
    return seat


def may_manage(game: Game, user) -> bool:
    """The game's creator and its (active) umpire may invite to free seats."""
    return user.is_authenticated and (
        game.created_by_id == user.pk or game.seats.active().filter(role=Seat.Role.UMPIRE, user=user).exists()
    )


def reinvite(game_id: int, seat_id: int, user, *, by) -> Seat:
    """Invite ``user`` to a declined (or expired) seat of the game."""
    with transaction.atomic():
        stream = gamelog.load(game_id, lock=True)
        if not may_manage(stream.game, by):
            raise InvitationError(_("Only the game's creator or its umpire may invite players."))
        if stream.state.status == GameStatus.FINISHED:
            raise InvitationError(_("The game is over."))
        seat = Seat.objects.select_for_update().filter(pk=seat_id, game=stream.game).first()
        if seat is None:
            raise InvitationError(_("This game has no such seat."))
        if seat.status == Seat.Status.ACTIVE or (seat.status == Seat.Status.INVITED and not is_expired(seat)):
            raise InvitationError(_("That seat is taken or its invitation is still open."))
        check_seating(_seating_with(seat, user), umpire_plays(stream.game))
        return invite(seat, user, by=by)


# --- the start of a game -------------------------------------------------------


def ready_to_start(game: Game) -> bool:
    """Every player seat and the umpire's seat accepted (observers never hold a game up)."""
    return not game.seats.exclude(role=Seat.Role.OBSERVER).exclude(status=Seat.Status.ACTIVE).exists()


def start_if_ready(stream, newly_seated: Seat | None = None):
    """Open turn 1 once every needed seat is active (the stream is locked); an observer seated
    after the start gets the game's first mail on its own."""
    if not commands.started(stream.state):
        return commands.start_game(stream) if ready_to_start(stream.game) else stream
    if newly_seated is not None:
        signals.seat_joined.send(
            sender=__name__, stream=stream, seat=newly_seated, key_suffix=f":v{newly_seated.version}"
        )
    return stream
