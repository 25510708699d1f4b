"""What one viewer may see of a game: the only road from the log to any output.

Pages, API responses and mail are all built from ``game_view`` and
``visible_events``; neither ever hands out the full state. Events are shown
with the viewer's own numbering (``numbered``), never with the log's seq.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC

from django.db.models import Q, QuerySet
from django.utils.dateparse import parse_datetime

from campaigns.models import Event, Game, Seat
from rules import catalog
from rules.core.protocol import PUBLIC, Viewer, side_audience

from . import lifecycle


def viewer_for(game: Game, user) -> tuple[Viewer, Seat] | None:
    """The viewer a user is in this game, or None if they hold no active seat."""
    if not user.is_authenticated:
        return None
    seats = list(game.seats.active().filter(user=user))  # an invitation is not a seat until accepted
    for role in (Seat.Role.UMPIRE, Seat.Role.PLAYER, Seat.Role.OBSERVER):
        for seat in seats:
            if seat.role == role:
                return viewer_of_seat(seat), seat
    return None


def viewer_of_seat(seat: Seat) -> Viewer:
    return Viewer(role=seat.role, side=seat.side or None, command=seat.command or None)


def game_view(game: Game, state: dict, viewer: Viewer) -> dict:
    rs = catalog.get(state["ruleset"])
    out = {
        "game": {"id": game.pk, "name": game.name, "ruleset": game.ruleset, "title": rs.title,
                 "sides": list(rs.sides)},
        "viewer": {"role": viewer.role, "side": viewer.side, **({"command": viewer.command} if viewer.command else {})},
        "turn": lifecycle.lifecycle_view(state, viewer),
        "board": rs.view(state["rules"], viewer),
    }
    if viewer.is_umpire and state["pending"]:
        out["preview"] = rs.view(lifecycle.preview_rules(state), viewer)
    return out


def _audiences(viewer: Viewer) -> list[str]:
    return [PUBLIC] + ([side_audience(viewer.side)] if viewer.role == "player" and viewer.side else [])


def window_of(viewer: Viewer) -> str:
    """A name for the log this viewer sees: viewers with one window see the very same events."""
    return "umpire" if viewer.is_umpire else "+".join(_audiences(viewer))


def visible_events(game: Game, state: dict, viewer: Viewer) -> QuerySet[Event]:
    qs = Event.objects.filter(game=game)
    if viewer.is_umpire:
        return qs.order_by("seq")
    qs = qs.filter(audience__in=_audiences(viewer))
    if state["pending_from"] is not None:
        qs = qs.filter(seq__lt=state["pending_from"])
    for a, b in state["voided"]:
        qs = qs.exclude(Q(seq__gte=a) & Q(seq__lte=b))
    return qs.order_by("seq")


def numbered(viewer: Viewer, events: QuerySet[Event], after: int = 0, limit: int | None = None,
             *, after_seq: int | None = None) -> Iterator[Event]:
    """The viewer's events after number ``after``, each with ``number``: its place in the log as
    this viewer sees it, 1, 2, 3... without gaps.

    ``events`` must be this viewer's whole ``visible_events``. Everything a viewer is shown
    numbers events this way and never by the log's ``seq``: the gaps between the seqs of the
    events a side sees would count the other side's private events (every resubmission of its
    orders, its hidden works). A viewer's log only ever grows at its end (results awaiting the
    umpire come after everything the players saw, and are shown whole or voided whole), so an
    event keeps its number. The umpire sees the whole, gapless log: their number is the seq.
    ``after_seq``: the seq of the viewer's event number ``after`` (0 before the first), when the
    caller knows it: the rows are then found by the (game, seq) index, not counted past (OFFSET),
    so a page costs the same however long the log.
    """
    if viewer.is_umpire:
        after_seq = after
    rows = events.filter(seq__gt=after_seq) if after_seq is not None else events[after:]
    if limit is not None:
        rows = rows[:limit]
    for n, ev in enumerate(rows.iterator(chunk_size=2000), start=after + 1):
        ev.number = n
        yield ev


def number_events(viewer: Viewer, events: QuerySet[Event], after: int = 0, limit: int | None = None,
                  *, after_seq: int | None = None) -> list[Event]:
    """``numbered`` as a list."""
    return list(numbered(viewer, events, after, limit, after_seq=after_seq))


def _utc(iso: str) -> str:
    """A time in a log line: the same words for every reader (pages and reports give each reader's
    own zone where they show the deadline itself)."""
    when = parse_datetime(iso)
    return f"{when.astimezone(UTC):%Y-%m-%d %H:%M} UTC" if when else iso


def published_text(p) -> str:
    """The publication of a turn, with the umpire's note to the players when there is one."""
    return (f"Turn {p['turn']} published{' (amended by the umpire)' if p.get('amended') else ''}"
            + (f". The umpire's note: {p['note']}" if p.get("note") else ""))


_LIFECYCLE_TEXT = {
    "game.created": lambda p: f"Game created ({p['ruleset']}); setup seed commitment {p['setup_commitment'][:12]}…",
    "seed.sealed": lambda p: f"Seed for turn {p['turn']} sealed",
    "seed.revealed": lambda p: f"Setup seed revealed: {p['seed']}",
    "turn.opened": lambda p: f"Turn {p['turn']} opened for {', '.join(p['sides'])} ({p['kind']}); dice commitment {p['commitment'][:12]}…",
    "side.replaced": lambda p: f"The umpire handed {p['side']} to another player",
    "turn.late": lambda p: (f"Turn {p['turn']}'s deadline passed without orders from {', '.join(p['missing'])}: "
                            f"the turn waits until {_utc(p['until'])}, then gives them their default orders"),
    "turn.deadline_set": lambda p: (f"{'The' if p.get('absence') else 'The umpire moved the'} deadline of turn "
                                    f"{p['turn']} {'moved ' if p.get('absence') else ''}to {_utc(p['deadline'])}"
                                    + (f": {p['note']}" if p.get("note") else "")),
    "orders.submitted": lambda p: f"{_who(p)} submitted orders by {p['source']}:\n{p['text']}",
    "side.ready": lambda p: f"{_who(p)} is {'ready' if p.get('ready', True) else 'no longer ready'}",
    "orders.merged": lambda p: f"{p['side']}'s commands gave conflicting orders for turn {p['turn']}: " + "; ".join(
        f"{c['unit']} is ordered by the {c['kept']}, the {c['dropped']}'s line '{c['line']}' gave way"
        for c in p["conflicts"]),
    "turn.closed": lambda p: f"Turn {p['turn']} closed: {p['reason']}",
    "orders.defaulted": lambda p: f"{p['side']} missed turn {p['turn']}: default orders '{p['text']}'",
    "turn.adjudicated": lambda p: f"Turn {p['turn']} adjudicated ({p['count']} result events)",
    "results.voided": lambda p: f"Results of turn {p['turn']} voided by the umpire: {p['reason']}",
    "orders.amended": lambda p: f"The umpire amended {p['side']}'s orders for turn {p['turn']}:\n{p['text']}",
    "turn.published": lambda p: f"{published_text(p)}; seed revealed: {p['seed']}",
    "game.finished": lambda p: f"Game over: {describe_result(p['result'])}",
}


# Lifecycle lines that carry a time: the payload key a reader's own zone replaces.
_TIMED = {"turn.late": "until", "turn.deadline_set": "deadline"}


def _who(p) -> str:
    """A side, or one command of it where a side has several seats."""
    return f"{p['side']} ({p['command']})" if p.get("command") else p["side"]


def describe_result(result) -> str:
    if not result:
        return "ended"
    winner = result.get("winner")
    return f"{winner} wins ({result.get('reason', '')})" if winner else f"draw ({result.get('reason', '')})"


def describe(game: Game, event: Event, local: Callable[[str], str] | None = None) -> str:
    """One readable line; ``local``: writes a time in the reader's own zone (else the line says UTC)."""
    text = _LIFECYCLE_TEXT.get(event.type)
    if text is not None and local and event.type in _TIMED:
        return text({**event.payload, _TIMED[event.type]: local(event.payload[_TIMED[event.type]])})
    if text is not None:
        return text(event.payload)
    return catalog.get(game.ruleset).describe_event(event.type, event.payload)
