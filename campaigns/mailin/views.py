"""The umpire's page for mail held by the DMARC/DKIM check: read, release or reject."""
from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from campaigns.web.access import Seen, seat_required

from . import ingest, quotes
from .mime import parse
from .models import InboundMessage


def held_messages(game):
    """The game's inbound mail held for the umpire (the umpire page shows how many)."""
    return InboundMessage.objects.filter(seat__game=game, status=InboundMessage.Status.HELD)


def _held(seen: Seen):
    return held_messages(seen.game).select_related("seat")


def _preview(row: InboundMessage) -> str:
    try:
        return quotes.new_text(parse(bytes(row.raw), max_parts=1000).body)[:4000]
    except Exception as exc:  # the umpire still sees that it is unreadable
        return f"(cannot be read: {type(exc).__name__})"


@require_http_methods(["GET", "POST"])
@seat_required(umpire_only=True)
def held_mail(request, seen: Seen):
    if request.method == "POST":
        row = get_object_or_404(_held(seen), pk=request.POST.get("message"))
        if request.POST.get("action") == "release":
            ingest.release(row)
            messages.success(request, f"Message #{row.pk} released and applied; the player was answered.")
        elif request.POST.get("action") == "reject":
            ingest.reject_held(row, (request.POST.get("reason") or "rejected by the umpire")[:300])
            messages.success(request, f"Message #{row.pk} rejected; the player was told.")
        else:
            messages.error(request, "Choose release or reject.")
        return redirect("mailin_held", game_id=seen.game.pk)
    rows = [{"row": r, "text": _preview(r)} for r in _held(seen).order_by("received_at")]
    return render(request, "mailin/held.html", {"game": seen.game, "rows": rows})
