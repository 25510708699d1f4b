"""Mail-in's quarantine, as the umpire's web page (campaigns.web.held) works it: the mail the
DMARC/DKIM check held for a game, a readable preview, and release or rejection."""

from __future__ import annotations

from campaigns.i18n import render
from rules.core.i18n import from_data

from . import ingest, quotes
from .mime import parse
from .models import InboundMessage

release = ingest.release
reject = ingest.reject_held


def held_messages(game):
    """The game's inbound mail held for the umpire (the umpire page shows how many)."""
    return InboundMessage.objects.filter(seat__game=game, status=InboundMessage.Status.HELD)


def preview(row: InboundMessage) -> str:
    try:
        return quotes.new_text(parse(bytes(row.raw), max_parts=1000).body)[:4000]
    except Exception as exc:  # the umpire still sees that it is unreadable
        return f"(cannot be read: {type(exc).__name__})"


def reason(row: InboundMessage) -> str:
    """Why the message is held, in the reader's language when the reason was kept marked."""
    why = row.result.get("why")
    return render(from_data(why)) if isinstance(why, dict) else row.error
