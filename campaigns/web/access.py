"""Who may open a game page, and what they are shown.

A page gets a ``Seen``: the game, the viewer and that viewer's ``game_view``
and ``visible_events``. The folded state stays private to this module; pages
never receive it. Anyone without a seat gets 404, so a game's existence is not
confirmed to strangers.
"""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass, field
from functools import wraps

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.timezone import localtime

from campaigns.i18n import draw_map
from campaigns.models import Game, Seat
from campaigns.turns import commands, gamelog, versions, viewing
from campaigns.turns.localtime import local_time
from campaigns.turns.state import LifecycleState
from rules import catalog
from rules.core.protocol import PUBLIC, Viewer


def _zone(name: str):
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def user_timezone(user) -> str:
    profile = getattr(user, "profile", None) if user.is_authenticated else None
    return profile.timezone if profile and profile.timezone else "UTC"


@dataclass
class Seen:
    """One viewer's window on one game."""

    game: Game
    viewer: Viewer
    seat: Seat
    tz: str
    _state: LifecycleState = field(repr=False)

    @property
    def view(self) -> dict:
        if not hasattr(self, "_view"):
            self._view = viewing.game_view(self.game, self._state, self.viewer)
        return self._view

    def events(self):
        return viewing.visible_events(self.game, self._state, self.viewer)

    @property
    def ruleset(self):
        return catalog.get(self.game.ruleset)

    def svg(self, board_key: str = "board") -> str:
        """This viewer's map, in the language of the page being answered."""
        return draw_map(self.ruleset, self.view[board_key])

    @property
    def rules_version(self):
        """The rules version the game is played by, and the newer ones (the umpire's console)."""
        return versions.version_info(self._state)

    @property
    def absence_days(self) -> int:
        """The game's allowance for absences (a public setting)."""
        return self._state.settings.get("absence_days", 0)

    def published_turns(self) -> dict[int, int]:
        """{turn number: seq of its publication} for every turn whose results everyone has seen."""
        # Among the public events (the (game, audience, seq) index): not through the whole log.
        return dict(self.game.events.filter(audience=PUBLIC, type="turn.published").values_list("turn", "seq"))

    def as_of(self, seq: int) -> Seen:
        """This viewer's window on the game as it stood right after event ``seq`` (a published turn)."""
        return Seen(
            game=self.game, viewer=self.viewer, seat=self.seat, tz=self.tz, _state=gamelog.state_at(self.game.pk, seq)
        )

    def local(self, iso: str | None) -> str:
        return local_time(iso, self.tz)

    def local_short(self, when) -> str:
        """A log line's time, short: the day and the time in the viewer's zone ("24 Nov 21:40")."""
        return localtime(when, _zone(self.tz)).strftime("%d %b %H:%M")

    def check_orders(self, text: str) -> list:
        """The errors this player's side's orders ``text`` would get if sent now, without sending them:
        the very check a submission gets (commands.check_orders), so nothing here says more than it."""
        state, side = self._state, self.viewer.side
        command = self.viewer.command if side in state.settings.get("teams", {}) else ""
        return commands.check_orders(state, side, commands.clean_text(text), command or "")[1]

    # Umpire-only details (the umpire sees everything).
    def pending_events(self):
        self._require_umpire()
        start = self._state.pending_from
        return self.events().none() if start is None else self.events().filter(seq__gte=start)

    def orders_used(self) -> dict[str, str]:
        self._require_umpire()
        return dict(self._state.turn.orders_used or {})

    def _require_umpire(self) -> None:
        if not self.viewer.is_umpire:
            raise Http404


def seen_for(game: Game, user) -> Seen | None:
    """This user's window on the game, or None without a seat."""
    found = viewing.viewer_for(game, user)
    if found is None:
        return None
    viewer, seat = found
    return Seen(game=game, viewer=viewer, seat=seat, tz=user_timezone(user), _state=gamelog.load(game).state)


def load_seen(game_id: int, user) -> Seen:
    seen = seen_for(get_object_or_404(Game, pk=game_id), user)
    if seen is None:
        raise Http404("No such game")
    return seen


def seat_required(umpire_only: bool = False):
    """Decorator: sign-in required; the view gets ``seen`` instead of ``game_id``."""

    def decorate(view):
        @login_required
        @wraps(view)
        def wrapper(request, game_id: int, *args, **kwargs):
            seen = load_seen(game_id, request.user)
            if umpire_only and not seen.viewer.is_umpire:
                raise Http404("No such game")
            return view(request, seen, *args, **kwargs)

        return wrapper

    return decorate
