"""My games: one row for each game a user holds an active seat in, for the web's list and the API's.

A list must not load and fold every game (issue 18): each row is built from the game's projection
columns (status, turn number and status, the deadline), the user's own seat row, and the turn as
``lifecycle.lifecycle_view`` gives it to this viewer (the same allow-list as the game page), read
from each game's latest snapshot: one query for the whole page, and no event folded. The board
(the rule set's view, the costly part of a game view) is not computed at all.

A snapshot is kept after every event a reader can meet at the head of an open, closed or published
turn (``gamelog.snapshot_due``), so the latest snapshot is the game's present state except
before turn 1 opens; a game whose snapshot lags its
projection, is loaded the ordinary way (``gamelog.load``); a game waiting for its seats has no
turn to show.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

from campaigns.log import recorders
from campaigns.models import Game, Seat
from rules import catalog
from rules.core.protocol import Viewer

from . import gamelog, lifecycle, viewing
from .state import GameStatus, LifecycleState

_ROLE_ORDER = {Seat.Role.UMPIRE: 0, Seat.Role.PLAYER: 1, Seat.Role.OBSERVER: 2}


@dataclass
class Row:
    game: Game
    viewer: Viewer
    seat: Seat
    turn: dict  # lifecycle.lifecycle_view for this viewer
    # The sides the user plays in the game, whatever seat ``viewer`` is (an umpire who also plays
    # holds a player's seat beside the umpire's: ``umpire_plays``).
    played: tuple[str, ...] = ()

    @property
    def title(self) -> str:
        return catalog.get(self.game.ruleset).title


def games_of(user):
    """The games where ``user`` holds an active seat (an invitation is not one until accepted), with
    their campaigns: the query of my games on the web, of "my turns" and of the API's list."""
    mine = Seat.objects.active().filter(user=user).values("game_id")
    return Game.objects.filter(pk__in=mine).select_related("campaign")


def rows(user, games: list[Game]) -> list[Row]:
    """The rows of ``games`` (in their order) where ``user`` holds an active seat."""
    if not games:
        return []
    seats: dict[int, Seat] = {}
    played: dict[int, list[str]] = {}
    for seat in Seat.objects.active().filter(user=user, game_id__in=[g.pk for g in games]):
        held = seats.get(seat.game_id)
        if held is None or _ROLE_ORDER[seat.role] < _ROLE_ORDER[held.role]:
            seats[seat.game_id] = seat  # the same choice as viewing.viewer_for
        if seat.role == Seat.Role.PLAYER and seat.side:
            played.setdefault(seat.game_id, []).append(seat.side)
    states = latest_states([g for g in games if g.pk in seats])
    out = []
    for game in games:
        seat = seats.get(game.pk)
        if seat is None:
            continue
        state = states.get(game.pk) if game.turn_number else _waiting(game)
        if state is None or state.turn.number != game.turn_number or state.turn.status != game.turn_status:
            state = gamelog.load(game).state
        viewer = viewing.viewer_of_seat(seat)
        turn = lifecycle.lifecycle_view(state, viewer)
        out.append(
            Row(game=game, viewer=viewer, seat=seat, turn=turn, played=tuple(sorted(set(played.get(game.pk, [])))))
        )
    return out


def _waiting(game: Game) -> LifecycleState:
    """A game waiting for its seats: no turn yet, nothing to fold for that."""
    return replace(
        lifecycle.empty_state(),
        status=GameStatus.FINISHED if game.status == Game.Status.FINISHED else GameStatus.ACTIVE,
    )


def latest_states(games: list[Game]) -> dict[int, LifecycleState]:
    """{game id: the state in its latest snapshot} for the games that have one (none before turn 1)."""
    started = [g.pk for g in games if g.turn_number > 0]
    if not started:
        return {}
    found = recorders.for_connection().latest_snapshots(started)
    return {game_id: lifecycle.from_json(json.loads(state)) for game_id, state in found.items()}
