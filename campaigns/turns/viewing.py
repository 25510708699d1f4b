"""What one viewer may see of a game: the only road from the log to any output.

Pages, API responses and mail are all built from ``game_view`` and
``visible_events``; neither ever hands out the full state. Events are shown
with the viewer's own numbering (``numbered``), never with the log's seq.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterator
from datetime import UTC
from functools import cache
from typing import NamedTuple

from django.db import DEFAULT_DB_ALIAS
from django.db.models import Model, Q, QuerySet
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop, ngettext, pgettext

from campaigns import prepared
from campaigns.i18n import render
from campaigns.models import Campaign, Event, Game, Seat
from rules import catalog
from rules.core.protocol import PUBLIC, UMPIRE, Viewer, side_audience

from . import lifecycle
from .state import LifecycleState

log = logging.getLogger(__name__)


def viewer_for(game: Game, user) -> tuple[Viewer, Seat] | None:
    """The viewer a user is in this game, or None if they hold no active seat."""
    if not user.is_authenticated:
        return None
    return _first_role(game.seats.active().filter(user=user))  # an invitation is not a seat until accepted


class Seated(NamedTuple):
    """A user's seat in a game, as ``seated_in`` finds it.

    ``heads``: the heads ("seq hash", None for an empty or unread part) of the parts of the log
    this viewer's view is folded from, so that a cache keyed by them (the API's conditional GET)
    holds until one of them moves. The umpire's: the whole log's. A player's: the public events',
    their own side's and the umpire's; an observer's: the public and the umpire's. Never another
    side's private events: a viewer's key does not move when only the other side acts in secret
    (nor is the work of answering them any greater). The umpire's events are in it, although they
    are hidden from players, because some change what a player is shown (a failed adjudication
    holds the turn, which every seat sees); the key is never shown to anyone, and what a view shows
    is in the view itself: the key only says when to look again. The hashes chain the log, so a
    key is not met again by another log that has the same seqs (a game rolled back and made again)."""

    game: Game
    viewer: Viewer
    seat: Seat
    heads: tuple[str | None, ...]


def seated_in(game_id: int, user, *, light: bool = False) -> Seated | None:
    """The game with the viewer a user is in it and the heads of what that viewer's view is made
    from, from one query (the API's every request: the game row and campaign come joined to the
    seats); None if they hold no active seat.

    ``light``: only the columns that name the seat and the game (``LIGHT``; the others are deferred,
    read on use), for a conditional GET that is mostly answered 304 from them (api/views.py):
    reading the other columns (their datetimes most of all) was half the statement's CPU."""
    if not user.is_authenticated or not 0 < game_id < 2**63:  # outside a bigint: no such game
        return None
    seats = _seats_in(game_id, user, light)
    found = _first_role(seat for seat, _ in seats)
    if found is None:
        return None
    viewer, seat = found
    return Seated(seat.game, viewer, seat, next(heads for s, heads in seats if s is seat))


# The columns a light ``seated_in`` reads of each model (attnames); the others are deferred.
LIGHT: dict[type[Model], tuple[str, ...]] = {
    Seat: ("id", "game_id", "user_id", "role", "side", "command", "status"),
    Game: ("id", "campaign_id", "name", "ruleset"),
    Campaign: ("id", "name"),
}


def _literal(value: str) -> str:
    """One of the code's own words (a role, an audience) as an SQL literal: the statement's
    parameters are only the user's and the game's ids (psycopg dumps each parameter, every run)."""
    if not re.fullmatch(r"[a-z_:]*", value):
        raise ValueError(f"not a word of the code's: {value!r}")
    return f"'{value}'"


def _head(audience: str | None) -> str:
    """The (seq, hash) of the last event of the game, or of one audience of it, found by an index
    from the end: one row read, whatever else the log holds. An audience's is bounded by a range
    (not ``=``) and ordered by audience first, an order only the (game, audience, seq) index gives:
    so no plan takes the (game, seq) index back from the head, dropping the rows of the audiences
    it passes (the other side's private ones) by a filter, as a plan may when the audience is
    named by ``=`` (the planner then drops audience from the order, and both indexes give it)."""
    if audience is None:
        return (
            "(SELECT CAST(e.seq AS TEXT) || ' ' || e.hash FROM campaigns_event e"
            " WHERE e.game_id = s.game_id ORDER BY e.seq DESC LIMIT 1)"
        )
    return (
        "(SELECT CAST(e.seq AS TEXT) || ' ' || e.hash FROM campaigns_event e"
        f" WHERE e.game_id = s.game_id AND e.audience >= {audience} AND e.audience <= {audience}"
        " ORDER BY e.audience DESC, e.seq DESC LIMIT 1)"
    )


@cache
def _seats_sql(light: bool) -> str:
    # Seated.heads, per seat row (a CASE runs only the subquery of the branch it takes, so a
    # player's row never reads the other side's audience, nor the head of the whole log).
    umpire, player = _literal(Seat.Role.UMPIRE.value), _literal(Seat.Role.PLAYER.value)
    side = f"({_literal(side_audience(''))} || s.side)"
    heads = (
        f"CASE WHEN s.role = {umpire} THEN {_head(None)} END,"
        f" CASE WHEN s.role <> {umpire} THEN {_head(_literal(PUBLIC))} END,"
        f" CASE WHEN s.role = {player} AND s.side <> '' THEN {_head(side)} END,"
        f" CASE WHEN s.role <> {umpire} THEN {_head(_literal(UMPIRE))} END"
    )
    if light:
        columns = ", ".join(
            f"{alias}.{prepared.q(model._meta.get_field(name).column)}"
            for model, alias in ((Seat, "s"), (Game, "g"), (Campaign, "c"))
            for name in _light_names(model)
        )
    else:
        columns = f"{prepared.columns(Seat, 's')}, {prepared.columns(Game, 'g')}, {prepared.columns(Campaign, 'c')}"
    return (
        f"SELECT {columns}, {heads}"
        " FROM campaigns_seat s JOIN campaigns_game g ON g.id = s.game_id JOIN campaigns_campaign c ON c.id = g.campaign_id"
        f" WHERE s.user_id = %s AND s.game_id = %s AND s.status = {_literal(Seat.Status.ACTIVE.value)}"
    )


@cache
def _light_names(model: type[Model]) -> tuple[str, ...]:
    """The ``LIGHT`` attnames of ``model``, in the order of its columns."""
    return tuple(f.attname for f in model._meta.concrete_fields if f.attname in LIGHT[model])


def _light(row, *models: type[Model]) -> list[Model]:
    """``prepared.instances`` for a light row: the ``LIGHT`` columns of each model, the rest deferred
    (none of them needs a converter: ids and text)."""
    out, start = [], 0
    for model in models:
        names = _light_names(model)
        out.append(model.from_db(DEFAULT_DB_ALIAS, names, row[start : start + len(names)]))
        start += len(names)
    return out


def _seats_in(game_id: int, user, light: bool = False) -> list[tuple[Seat, tuple[str | None, ...]]]:
    """The user's active seats in a game, each with the game and its campaign and its
    ``Seated.heads``: what ``Seat.objects.active().filter(user=user, game_id=game_id)
    .select_related("game__campaign")`` gives, by a prepared statement (the ORM's compile of it
    cost every poll about 0.8 ms of CPU, issue 18)."""
    out = []
    for row in prepared.fetchall(_seats_sql(light), [user.pk, game_id]):
        seat, game, campaign = (_light if light else prepared.instances)(row, Seat, Game, Campaign)
        Game._meta.get_field("campaign").set_cached_value(game, campaign)
        Seat._meta.get_field("game").set_cached_value(seat, game)
        Seat._meta.get_field("user").set_cached_value(seat, user)
        out.append((seat, tuple(row[-4:])))
    return out


def _first_role(seats) -> tuple[Viewer, Seat] | None:
    """The seat a user views a game from: the umpire's before a player's before an observer's."""
    seats = list(seats)
    for role in (Seat.Role.UMPIRE, Seat.Role.PLAYER, Seat.Role.OBSERVER):
        for seat in seats:
            if seat.role == role:
                return viewer_of_seat(seat), seat
    return None


def viewer_of_seat(seat: Seat) -> Viewer:
    return Viewer(role=seat.role, side=seat.side or None, command=seat.command or None)


def _board(rs, rules_state, viewer: Viewer) -> dict:
    """The rule set's view for ``viewer``; an empty board (the page says the map could not be
    drawn) if the rule set raises, so the game's pages, mail and API still answer."""
    try:
        return rs.view(rules_state, viewer)
    except Exception:
        log.exception("%s: the view for %s raised", rs.name, viewer)
        return {}


def game_view(game: Game, state: LifecycleState, viewer: Viewer) -> dict:
    rs = lifecycle.ruleset_of(state)
    out = {
        "game": {"id": game.pk, "name": game.name, "ruleset": game.ruleset, "title": rs.title, "sides": list(rs.sides)},
        "viewer": {"role": viewer.role, "side": viewer.side, **({"command": viewer.command} if viewer.command else {})},
        "turn": lifecycle.lifecycle_view(state, viewer),
        "board": _board(rs, state.rules, viewer),
    }
    if viewer.is_umpire and state.pending:
        out["preview"] = _board(rs, lifecycle.preview_rules(state), viewer)
    return out


def _audiences(viewer: Viewer) -> list[str]:
    return [PUBLIC] + ([side_audience(viewer.side)] if viewer.role == "player" and viewer.side else [])


def window_of(viewer: Viewer) -> str:
    """A name for the log this viewer sees: viewers with one window see the very same events."""
    return "umpire" if viewer.is_umpire else "+".join(_audiences(viewer))


class VisibleEvents:
    """A player's or an observer's events: each audience it may see read on its own, merged by seq.

    Why: one scan with ``audience IN (...)`` found a viewer's rows by (game, seq) or (game, turn)
    and dropped the other side's private rows only after reading them, so the work of answering
    red grew with every draft blue sent in secret (issue 34). Here each part names one audience,
    so the index that fits it, (game, audience, seq) in log order or (game, audience, turn, seq)
    for a turn, reaches that audience's rows and no others; the parts are joined by a UNION ALL
    ordered by seq, which PostgreSQL merges in order (Merge Append, stopping at a LIMIT) or sorts.
    tests/log/test_rows_read_by_viewers.py checks the plans: no more rows read for red with
    20,000 private events of blue's than with none.

    Holds what ``numbered``, ``newest_first`` and the pages, API and mail do with a QuerySet:
    ``filter``, ``exclude`` and ``order_by`` apply to every part; slicing, ``count`` and
    iteration read the merged whole."""

    def __init__(self, parts: list[QuerySet[Event]], order: tuple[str, ...] = ("seq",)):
        self._parts, self._order = parts, order

    def _each(self, step: Callable[[QuerySet[Event]], QuerySet[Event]]) -> VisibleEvents:
        return VisibleEvents([step(p) for p in self._parts], self._order)

    def filter(self, *args, **kwargs) -> VisibleEvents:
        return self._each(lambda p: p.filter(*args, **kwargs))

    def exclude(self, *args, **kwargs) -> VisibleEvents:
        return self._each(lambda p: p.exclude(*args, **kwargs))

    def none(self) -> VisibleEvents:
        return VisibleEvents([self._parts[0].none()], self._order)

    def order_by(self, *fields: str) -> VisibleEvents:
        return VisibleEvents(self._parts, fields)

    def merged(self) -> QuerySet[Event]:
        """The whole, as one QuerySet (to slice, count or iterate; not to filter further)."""
        first, *rest = self._parts
        return (first.union(*rest, all=True) if rest else first).order_by(*self._order)

    def count(self) -> int:
        return self.merged().count()

    def exists(self) -> bool:
        return self.merged().exists()

    def __getitem__(self, k):
        return self.merged()[k]

    def iterator(self, chunk_size: int | None = None) -> Iterator[Event]:
        return self.merged().iterator(chunk_size=chunk_size)

    def __iter__(self) -> Iterator[Event]:
        return iter(self.merged())


Events = QuerySet[Event] | VisibleEvents  # what ``visible_events`` gives, and the functions below take


def visible_events(game: Game, state: LifecycleState, viewer: Viewer) -> Events:
    """The viewer's events in seq order: the umpire's whole log (a QuerySet); a player's or an
    observer's, audience by audience (``VisibleEvents``), without results awaiting the umpire
    and results voided."""
    if viewer.is_umpire:
        return Event.objects.filter(game=game).order_by("seq")
    parts = []
    for audience in _audiences(viewer):
        qs = Event.objects.filter(game=game, audience=audience).order_by()
        if state.pending_from is not None:
            qs = qs.filter(seq__lt=state.pending_from)
        for a, b in state.voided:
            qs = qs.exclude(Q(seq__gte=a) & Q(seq__lte=b))
        parts.append(qs)
    return VisibleEvents(parts)


def numbered(
    viewer: Viewer, events: Events, after: int = 0, limit: int | None = None, *, after_seq: int | None = None
) -> Iterator[Event]:
    """The viewer's events after number ``after``, each with ``number``: its place in the log as
    this viewer sees it, 1, 2, 3... without gaps.

    ``events`` must be this viewer's whole ``visible_events``. Everything a viewer is shown
    numbers events this way and never by the log's ``seq``: the gaps between the seqs of the
    events a side sees would count the other side's private events (every resubmission of its
    orders, its hidden works). A viewer's log only ever grows at its end (results awaiting the
    umpire come after everything the players saw, and are shown whole or voided whole), so an
    event keeps its number. The umpire sees the whole, gapless log: their number is the seq.
    ``after_seq``: the seq of the viewer's event number ``after`` (0 before the first), when the
    caller knows it: the rows are then found by the index from there (a player's by (game, audience,
    seq), the umpire's by (game, seq)), not counted past (OFFSET), so a page costs the same however
    long the log.
    """
    if viewer.is_umpire:
        after_seq = after
    rows = events.filter(seq__gt=after_seq) if after_seq is not None else events[after:]
    if limit is not None:
        rows = rows[:limit]
    for n, ev in enumerate(rows.iterator(chunk_size=2000), start=after + 1):
        ev.number = n
        yield ev


def number_events(
    viewer: Viewer, events: Events, after: int = 0, limit: int | None = None, *, after_seq: int | None = None
) -> list[Event]:
    """``numbered`` as a list."""
    return list(numbered(viewer, events, after, limit, after_seq=after_seq))


def newest_first(viewer: Viewer, events: Events, limit: int, *, before: tuple[int, int] | None = None) -> list[Event]:
    """The viewer's latest ``limit`` events, newest first, each with its ``number`` (see
    ``numbered``); with ``before`` = (number, seq) of one of their events, the ``limit`` before it.

    ``events`` must be this viewer's whole ``visible_events``. The rows are found by the index from
    the end, never counted past; only the newest page of a player's log needs one COUNT of the
    rows it may see, to number its events (the umpire's number is the seq)."""
    rows = events.order_by("-seq")
    if before is not None:
        rows = rows.filter(seq__lt=before[1])
    found = list(rows[:limit])
    top = before[0] - 1 if before is not None else events.count() if found and not viewer.is_umpire else 0
    for n, ev in enumerate(found):
        ev.number = ev.seq if viewer.is_umpire else top - n
    return found


def _utc(iso: str) -> str:
    """A time in a log line: the same words for every reader (pages and reports give each reader's
    own zone where they show the deadline itself)."""
    when = parse_datetime(iso)
    return f"{when.astimezone(UTC):%Y-%m-%d %H:%M} UTC" if when else iso


def published_text(p) -> str:
    """The publication of a turn, with the umpire's note to the players when there is one."""
    text = (
        _("Turn %(turn)s published (amended by the umpire)") if p.get("amended") else _("Turn %(turn)s published")
    ) % {"turn": p["turn"]}
    return text + (_(". The umpire's note: %(note)s") % {"note": p["note"]} if p.get("note") else "")


_LIFECYCLE_TEXT = {
    "game.created": lambda p: (
        _("Game created (%(ruleset)s); setup seed commitment %(commitment)s…")
        % {"ruleset": p["ruleset"], "commitment": p["setup_commitment"][:12]}
    ),
    "game.rules_changed": lambda p: (
        _("The umpire moved the game to version %(to)s of its rules (from %(from)s)")
        % {"to": p["to"], "from": p["from"] or 1}
        + (f": {p['reason']}" if p.get("reason") else "")
    ),
    "turn.adjudication_failed": lambda p: (
        _("The adjudication of turn %(turn)s failed and the turn is held: %(error)s")
        % {"turn": p["turn"], "error": p["error"]}
    ),
    "turn.adjudication_retried": lambda p: _("Turn %(turn)s is adjudicated again") % {"turn": p["turn"]},
    "seed.sealed": lambda p: _("Seed for turn %(turn)s sealed") % p,
    "seed.revealed": lambda p: _("Setup seed revealed: %(seed)s") % p,
    "turn.opened": lambda p: (
        _("Turn %(turn)s opened for %(sides)s (%(kind)s); dice commitment %(commitment)s…")
        % {
            "turn": p["turn"],
            "sides": _sides(p["sides"]),
            "kind": _TURN_KINDS.get(p["kind"], p["kind"]),
            "commitment": p["commitment"][:12],
        }
    ),
    "side.replaced": lambda p: _("The umpire handed %(side)s to another player") % {"side": _side(p["side"])},
    "turn.late": lambda p: (
        _(
            "Turn %(turn)s's deadline passed without orders from %(missing)s: the turn waits until "
            "%(until)s, then gives them their default orders"
        )
        % {"turn": p["turn"], "missing": _sides(p["missing"]), "until": _utc(p["until"])}
    ),
    "turn.deadline_set": lambda p: (
        (
            _("The deadline of turn %(turn)s moved to %(deadline)s")
            if p.get("absence")
            else _("The umpire moved the deadline of turn %(turn)s to %(deadline)s")
        )
        % {"turn": p["turn"], "deadline": _utc(p["deadline"])}
        + (f": {p['note']}" if p.get("note") else "")
    ),
    "orders.submitted": lambda p: (
        _("%(who)s submitted orders by %(source)s:")
        % {"who": _who(p), "source": _SOURCES.get(p["source"], p["source"])}
        + f"\n{p['text']}"
    ),
    "side.ready": lambda p: (
        (_("%(who)s is ready") if p.get("ready", True) else _("%(who)s is no longer ready")) % {"who": _who(p)}
    ),
    "orders.merged": lambda p: (
        _("%(side)s's commands gave conflicting orders for turn %(turn)s: ")
        % {"side": _side(p["side"]), "turn": p["turn"]}
        + "; ".join(
            _("%(unit)s is ordered by the %(kept)s, the %(dropped)s's line '%(line)s' gave way") % c
            for c in p["conflicts"]
        )
    ),
    "turn.closed": lambda p: _("Turn %(turn)s closed: %(reason)s") % {"turn": p["turn"], "reason": _(p["reason"])},
    "orders.defaulted": lambda p: (
        _("%(side)s missed turn %(turn)s: default orders '%(text)s'") % {**p, "side": _side(p["side"])}
    ),
    "turn.adjudicated": lambda p: (
        ngettext(
            "Turn %(turn)s adjudicated (%(count)s result event)",
            "Turn %(turn)s adjudicated (%(count)s result events)",
            p["count"],
        )
        % p
    ),
    "results.voided": lambda p: _("Results of turn %(turn)s voided by the umpire: %(reason)s") % p,
    "orders.amended": lambda p: (
        _("The umpire amended %(side)s's orders for turn %(turn)s:") % {"side": _side(p["side"]), "turn": p["turn"]}
        + f"\n{p['text']}"
    ),
    "turn.published": lambda p: (
        _("%(published)s; seed revealed: %(seed)s") % {"published": published_text(p), "seed": p["seed"]}
    ),
}
# Words of the log's payloads shown to readers (the payload keeps the English word).
_TURN_KINDS = {
    "orders": gettext_lazy("orders"),
    "decision": gettext_lazy("decision"),
    "deployment": gettext_lazy("deployment"),
}
_SOURCES = {
    "web": gettext_lazy("web"),
    "mail": gettext_lazy("mail"),
    "api": gettext_lazy("API"),
    "umpire": gettext_lazy("umpire"),
}
# The reasons turns.close_turn writes, for the catalogue (shown through ``_(p['reason'])``).
_CLOSE_REASONS = (
    gettext_noop("all sides ready"),
    gettext_noop("deadline passed"),
    gettext_noop("closed by the umpire"),
)


# Lifecycle lines that carry a time: the payload key a reader's own zone replaces.
_TIMED = {"turn.late": "until", "turn.deadline_set": "deadline"}


def _who(p) -> str:
    """A side, or one command of it where a side has several seats."""
    return f"{_side(p['side'])} ({p['command']})" if p.get("command") else _side(p["side"])


def _side(side: str) -> str:
    """A side's name in the reader's language ("red" is «красные»)."""
    return pgettext("side", side)


def _sides(sides) -> str:
    return ", ".join(_side(s) for s in sides)


def describe_result(result, ruleset: str) -> str:
    """How the game ended, in the reader's language (the rule set reads its English reason back)."""
    if not result:
        return _("ended")
    winner = result.get("winner")
    reason = render(catalog.get(ruleset).describe_reason(result.get("reason", "")))
    return (_("%(winner)s wins (%(reason)s)") if winner else _("draw (%(reason)s)")) % {
        "winner": _side(winner) if winner else "",
        "reason": reason,
    }


def describe(game: Game, event: Event, local: Callable[[str], str] | None = None) -> str:
    """One readable line; ``local``: writes a time in the reader's own zone (else the line says UTC)."""
    if event.type == "game.finished":
        return _("Game over: %(result)s") % {"result": describe_result(event.payload["result"], game.ruleset)}
    text = _LIFECYCLE_TEXT.get(event.type)
    if text is not None and local and event.type in _TIMED:
        return text({**event.payload, _TIMED[event.type]: local(event.payload[_TIMED[event.type]])})
    if text is not None:
        return text(event.payload)
    try:
        return render(catalog.get(game.ruleset).describe_event(event.type, event.payload))
    except Exception:  # a rule set that cannot describe its own event: the log still reads
        log.exception("game %s: describing event %s raised", game.pk, event.seq)
        return event.type
