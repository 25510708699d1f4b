"""What one viewer may see of a game: the only road from the log to any output.

Pages, API responses and mail are all built from ``game_view`` and
``visible_events``; neither ever hands out the full state.
"""
from __future__ import annotations

from django.db.models import Q, QuerySet

from rules.core import registry
from rules.core.protocol import PUBLIC, Viewer, side_audience

from . import lifecycle
from .models import Event, Game, Seat


def viewer_for(game: Game, user) -> tuple[Viewer, Seat] | None:
    """The viewer a user is in this game, or None if they hold no seat."""
    if not user.is_authenticated:
        return None
    seats = list(game.seats.filter(user=user))
    for role in (Seat.Role.UMPIRE, Seat.Role.PLAYER, Seat.Role.OBSERVER):
        for seat in seats:
            if seat.role == role:
                return Viewer(role=seat.role, side=seat.side or None), seat
    return None


def viewer_of_seat(seat: Seat) -> Viewer:
    return Viewer(role=seat.role, side=seat.side or None)


def game_view(game: Game, state: dict, viewer: Viewer) -> dict:
    rs = registry.get(state["ruleset"])
    out = {
        "game": {"id": game.pk, "name": game.name, "ruleset": game.ruleset, "title": rs.title,
                 "sides": list(rs.sides)},
        "viewer": {"role": viewer.role, "side": viewer.side},
        "turn": lifecycle.lifecycle_view(state, viewer),
        "board": rs.view(state["rules"], viewer),
    }
    if viewer.is_umpire and state["pending"]:
        out["preview"] = rs.view(lifecycle.preview_rules(state), viewer)
    return out


def visible_events(game: Game, state: dict, viewer: Viewer) -> QuerySet[Event]:
    qs = Event.objects.filter(game=game)
    if viewer.is_umpire:
        return qs.order_by("seq")
    audiences = [PUBLIC] + ([side_audience(viewer.side)] if viewer.role == "player" and viewer.side else [])
    qs = qs.filter(audience__in=audiences)
    if state["pending_from"] is not None:
        qs = qs.filter(seq__lt=state["pending_from"])
    for a, b in state["voided"]:
        qs = qs.exclude(Q(seq__gte=a) & Q(seq__lte=b))
    return qs.order_by("seq")


_LIFECYCLE_TEXT = {
    "game.created": lambda p: f"Game created ({p['ruleset']}); setup seed commitment {p['setup_commitment'][:12]}…",
    "seed.sealed": lambda p: f"Seed for turn {p['turn']} sealed",
    "seed.revealed": lambda p: f"Setup seed revealed: {p['seed']}",
    "turn.opened": lambda p: f"Turn {p['turn']} opened for {', '.join(p['sides'])} ({p['kind']}); dice commitment {p['commitment'][:12]}…",
    "orders.submitted": lambda p: f"{p['side']} submitted orders by {p['source']}:\n{p['text']}",
    "side.ready": lambda p: f"{p['side']} is {'ready' if p.get('ready', True) else 'no longer ready'}",
    "turn.closed": lambda p: f"Turn {p['turn']} closed: {p['reason']}",
    "orders.defaulted": lambda p: f"{p['side']} missed turn {p['turn']}: default orders '{p['text']}'",
    "turn.adjudicated": lambda p: f"Turn {p['turn']} adjudicated ({p['count']} result events)",
    "results.voided": lambda p: f"Results of turn {p['turn']} voided by the umpire: {p['reason']}",
    "orders.amended": lambda p: f"The umpire amended {p['side']}'s orders for turn {p['turn']}:\n{p['text']}",
    "turn.published": lambda p: f"Turn {p['turn']} published{' (amended by the umpire)' if p.get('amended') else ''}; seed revealed: {p['seed']}",
    "game.finished": lambda p: f"Game over: {describe_result(p['result'])}",
}


def describe_result(result) -> str:
    if not result:
        return "ended"
    winner = result.get("winner")
    return f"{winner} wins ({result.get('reason', '')})" if winner else f"draw ({result.get('reason', '')})"


def describe(game: Game, event: Event) -> str:
    text = _LIFECYCLE_TEXT.get(event.type)
    if text is not None:
        return text(event.payload)
    return registry.get(game.ruleset).describe_event(event.type, event.payload)
