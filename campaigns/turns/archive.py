"""A game's log exported as JSON Lines (whole, or as one viewer sees it) and imported elsewhere:
the log's format (campaigns.log.portable) given what each viewer may see, the fold and the checks."""

from __future__ import annotations

from collections.abc import Iterable
from typing import IO

from campaigns.log import portable
from campaigns.log.portable import FORMAT, ImportRejected
from campaigns.models import Event, Game
from rules.core.protocol import Viewer

from . import gamelog, viewing

__all__ = ["FORMAT", "ImportRejected", "export_lines", "import_stream"]


def export_lines(game: Game, viewer: Viewer | None = None) -> Iterable[str]:
    if viewer is None or viewer.is_umpire:
        events = viewing.numbered(Viewer("umpire", None), Event.objects.filter(game=game).order_by("seq"))
    else:
        events = viewing.numbered(viewer, viewing.visible_events(game, gamelog.load(game).state, viewer))
    return portable.export_lines(game, events, viewer)


def import_stream(fh: IO[str]) -> Game:
    return portable.import_stream(fh, gamelog.store, gamelog.verify_game)
