"""Deadlines across games ("my turns", issue 28 point 5): every game where a user holds a seat, with
what waits on them now and the open turn's deadline, nearest deadline first; and the same as a
personal iCalendar feed.

Built on the list of my games (``listing.rows``: one query for the rows, each game's turn read from
its latest snapshot, nothing folded) and seen through each row's own viewer: a player's waits come
from their own turn view (``lifecycle_view``: their own side's orders only, and who is ready, which
the turn panel shows every seat), the umpire's from theirs. The battles waiting on an umpire come
from the battles layer above this one, handed in by the channel (``battles_of``:
``campaigns.battles.summary.battles_of``), so this module imports nothing above the turn machinery.

The calendar carries only deadlines and names (the game, its campaign, the turn, the user's own
side): never whether any side, the user's own included, has ordered or is ready.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext, pgettext
from icalendar import Calendar, Event

from campaigns.models import CalendarFeed, Campaign, Game
from rules import catalog
from rules.core.protocol import Strategic, Viewer

from . import listing
from .state import GameStatus, TurnStatus

TOKEN_BYTES = 24  # 192 bits, URL-safe base64: 32 characters


class Kind:
    """What waits on the user in one game (the API's ``kind``)."""

    ORDERS = "orders"  # their side orders in the open turn and has not
    NOT_READY = "not_ready"  # orders in, not marked ready
    READY = "ready"  # orders in (or none needed) and marked ready: nothing to do before the deadline
    APPROVE = "approve"  # the umpire: results await approval
    FAILED = "failed"  # the umpire: the turn's adjudication failed and is held
    BATTLE_CHOICE = "battle_choice"  # the umpire: a battle awaits the choice of how it is fought
    BATTLE_REVIEW = "battle_review"  # the umpire: a fought battle's result awaits review


KINDS = (
    Kind.ORDERS,
    Kind.NOT_READY,
    Kind.READY,
    Kind.APPROVE,
    Kind.FAILED,
    Kind.BATTLE_CHOICE,
    Kind.BATTLE_REVIEW,
)


@dataclass(frozen=True)
class Wait:
    kind: str
    side: str | None = None  # the user's own side it concerns (orders, not_ready, ready)
    battle: str | None = None  # the battle's id in the strategic game (battle_choice, battle_review)
    place: str | None = None  # the battle's place, by name

    @property
    def to_do(self) -> bool:
        """Whether the user has something to do (a ready side may still change its orders, but need not)."""
        return self.kind != Kind.READY

    @property
    def text(self) -> str:
        """In the reader's language (the active one)."""
        if self.kind == Kind.ORDERS:
            return gettext("your orders are awaited")
        if self.kind == Kind.NOT_READY:
            return gettext("orders sent; not marked ready")
        if self.kind == Kind.READY:
            return gettext("orders in and marked ready")
        if self.kind == Kind.APPROVE:
            return gettext("results await your approval")
        if self.kind == Kind.FAILED:
            return gettext("the adjudication failed: look into it")
        names = {"battle": self.battle or "", "place": self.place or "?"}
        if self.kind == Kind.BATTLE_CHOICE:
            return gettext("battle %(battle)s (%(place)s) awaits your choice") % names
        return gettext("battle %(battle)s (%(place)s): its result awaits your review") % names


@dataclass
class Item:
    """One game of the user's, with what waits on them in it now."""

    row: listing.Row
    waits: list[Wait] = field(default_factory=list)

    @property
    def game(self) -> Game:
        return self.row.game

    @property
    def campaign(self) -> Campaign:
        return self.row.game.campaign

    @property
    def viewer(self) -> Viewer:
        return self.row.viewer

    @property
    def turn(self) -> dict:
        return self.row.turn

    @property
    def is_open(self) -> bool:
        return self.turn["status"] == TurnStatus.OPEN and self.turn["game_status"] == GameStatus.ACTIVE

    @property
    def deadline(self) -> datetime | None:
        """The open turn's deadline (aware, UTC); None when no turn is open or it has none."""
        return _moment(self.turn["deadline"]) if self.is_open else None

    @property
    def late_until(self) -> datetime | None:
        """The end of the grace after the deadline for late sides, while one runs."""
        return _moment(self.turn.get("late_until")) if self.is_open else None

    @property
    def to_do(self) -> bool:
        return any(w.to_do for w in self.waits)

    @property
    def mine_to_order(self) -> list[str]:
        """The user's own sides that order in the open turn (whatever they have sent)."""
        if not self.is_open:
            return []
        return [side for side in self.row.played if side in self.turn["sides"]]

    @property
    def others_to_order(self) -> list[str]:
        """The sides that order in the open turn when none of them is the user's (public: the turn panel)."""
        if not self.is_open or self.mine_to_order:
            return []
        return list(self.turn["sides"])

    @property
    def waiting_text(self) -> str:
        """When nothing waits on the user in an open turn: whom the turn waits for, in the reader's language."""
        others = self.others_to_order
        if self.waits or not others:
            return ""
        return gettext("waiting for the orders of %(sides)s") % {
            "sides": ", ".join(pgettext("side", s) for s in others)
        }

    def sort_key(self) -> tuple:
        deadline = self.deadline
        return (
            deadline is None,
            deadline or datetime.max.replace(tzinfo=UTC),
            not self.to_do,
            self.campaign.name.casefold(),
            self.game.name.casefold(),
            self.game.pk,
        )


def _moment(iso: str | None) -> datetime | None:
    if not iso:
        return None
    moment = parse_datetime(iso)
    return moment.astimezone(UTC) if moment is not None else None


BattlesOf = Callable[[Game], list[dict[str, Any]]]


def items(user, battles_of: BattlesOf | None = None) -> list[Item]:
    """Every game where ``user`` holds an active seat, nearest deadline first (games without an open
    turn or without a deadline last). ``battles_of``: a strategic game's battles as
    ``campaigns.battles.summary.battles_of`` lists them, for what waits on its umpire."""
    games = list(listing.games_of(user).order_by("pk"))
    out = [Item(row=row, waits=waits_of(row, battles_of)) for row in listing.rows(user, games)]
    return sorted(out, key=Item.sort_key)


def by_campaign(listed: Iterable[Item]) -> list[tuple[Campaign, list[Item]]]:
    """The items grouped by campaign, each group where its first item falls (sorted items: the
    campaign with the nearest deadline first), the items' order kept within a group."""
    groups: dict[int, tuple[Campaign, list[Item]]] = {}
    for item in listed:
        groups.setdefault(item.campaign.pk, (item.campaign, []))[1].append(item)
    return list(groups.values())


def waits_of(row: listing.Row, battles_of: BattlesOf | None = None) -> list[Wait]:
    """What waits on the row's user in its game now, from their own turn view only."""
    turn, viewer = row.turn, row.viewer
    if turn["game_status"] != GameStatus.ACTIVE:
        return []
    out: list[Wait] = []
    if viewer.is_umpire:
        if turn["status"] == TurnStatus.ADJUDICATED:
            out.append(Wait(Kind.APPROVE))
        elif turn["status"] == TurnStatus.FAILED:
            out.append(Wait(Kind.FAILED))
    if turn["status"] == TurnStatus.OPEN:
        for side in row.played:
            if side in turn["sides"]:
                out.append(Wait(_side_state(turn, viewer, side), side=side))
    if viewer.is_umpire and battles_of is not None and isinstance(catalog.get(row.game.ruleset), Strategic):
        for b in battles_of(row.game):
            if not b.get("waiting_for_umpire"):
                continue
            kind = Kind.BATTLE_REVIEW if b["status"] == "finished" else Kind.BATTLE_CHOICE
            out.append(Wait(kind, battle=b["id"], place=(b.get("place") or {}).get("name")))
    return out


def _side_state(turn: dict, viewer: Viewer, side: str) -> str:
    """orders / not_ready / ready for one of the viewer's own sides in an open turn. A player of one
    command of a side: their own command's orders, and ready when their command (or the side) is."""
    if side in turn["ready"] or (viewer.command and viewer.command in turn.get("ready_commands", [])):
        return Kind.READY
    return Kind.NOT_READY if side in (turn.get("orders") or {}) else Kind.ORDERS


# --- the personal calendar ----------------------------------------------------------------------


def feed_of(user) -> CalendarFeed | None:
    return CalendarFeed.objects.filter(user=user).first()


def renew_feed(user) -> CalendarFeed:
    """Give ``user`` a calendar address, or a new one in place of theirs: the old one opens nothing from now on."""
    for _attempt in range(3):
        token = secrets.token_urlsafe(TOKEN_BYTES)
        try:
            with transaction.atomic():
                feed, created = CalendarFeed.objects.select_for_update().get_or_create(
                    user=user, defaults={"token": token}
                )
                if not created:
                    feed.token = token
                    feed.created_at = timezone.now()
                    feed.save(update_fields=["token", "created_at"])
                return feed
        except IntegrityError:  # the same token drawn twice (never in practice), or a race: draw again
            continue
    raise RuntimeError("no calendar token could be drawn")


def stop_feed(user) -> None:
    """No calendar address for ``user`` any more: the last one opens nothing."""
    CalendarFeed.objects.filter(user=user).delete()


def feed_user(token: str):
    """The active user whose calendar ``token`` names, or None."""
    if not token or len(token) > 64:
        return None
    feed = CalendarFeed.objects.filter(token=token).select_related("user").first()
    if feed is None or not secrets.compare_digest(feed.token, token) or not feed.user.is_active:
        return None
    return feed.user


def calendar_events(listed: Iterable[Item]) -> list[Item]:
    """The items the calendar holds: an open turn with a deadline where the user's own side orders, and
    every open turn with a deadline of a game they umpire."""
    return [i for i in listed if i.deadline is not None and (i.viewer.is_umpire or i.mine_to_order)]


def event_uid(game: Game, turn: int, domain: str) -> str:
    """Stable per game and turn (a calendar client updates the event when the deadline moves); made
    from the game's uid, which it does not show."""
    digest = hashlib.sha256(f"kriegsbrief-deadline:{game.uid}:{turn}".encode()).hexdigest()[:32]
    return f"{digest}@{domain}"


def calendar(listed: Iterable[Item], *, game_url: Callable[[Game], str], domain: str, now: datetime) -> bytes:
    """The iCalendar (RFC 5545) text of the user's deadlines, in the active language: one VEVENT per
    open turn of ``calendar_events``, at its deadline in UTC."""
    cal = Calendar()
    cal.add("prodid", "-//Kriegsbrief//deadlines//EN")
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("method", "PUBLISH")
    cal.add("x-wr-calname", gettext("Kriegsbrief: my deadlines"))
    for item in calendar_events(listed):
        number = item.turn["number"]
        url = game_url(item.game)
        if item.mine_to_order:
            summary = gettext("%(game)s: orders for turn %(turn)s due") % {"game": item.game.name, "turn": number}
            seat = gettext("Your side: %(side)s") % {"side": ", ".join(pgettext("side", s) for s in item.mine_to_order)}
        else:
            summary = gettext("%(game)s: deadline of turn %(turn)s") % {"game": item.game.name, "turn": number}
            seat = gettext("You umpire this game.")
        description = "\n".join(
            [
                gettext("Campaign: %(campaign)s") % {"campaign": item.campaign.name},
                f"{item.row.title} · {summary}",
                seat,
                url,
            ]
        )
        event = Event()
        event.add("uid", event_uid(item.game, number, domain))
        event.add("dtstamp", now.astimezone(UTC))
        event.add("dtstart", item.deadline)
        event.add("summary", summary)
        event.add("description", description)
        event.add("url", url)
        event.add("transp", "TRANSPARENT")
        cal.add_component(event)
    return cal.to_ical()
