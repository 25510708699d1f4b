"""The umpire's page for mail held by the DMARC/DKIM check: read, release or reject.

The one place the web reaches mail-in, and only its quarantine's public face
(campaigns.mailin.held; the import contract allows exactly this import)."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from campaigns.mailin import held

from .access import Seen, seat_required

held_messages = held.held_messages


def _held(seen: Seen):
    return held.held_messages(seen.game).select_related("seat")


@require_http_methods(["GET", "POST"])
@seat_required(umpire_only=True)
def held_mail(request, seen: Seen):
    if request.method == "POST":
        row = get_object_or_404(_held(seen), pk=request.POST.get("message"))
        if request.POST.get("action") == "release":
            held.release(row)
            messages.success(
                request, _("Message #%(number)s released and applied; the player was answered.") % {"number": row.pk}
            )
        elif request.POST.get("action") == "reject":
            held.reject(row, request.POST.get("reason", "").strip()[:300] or None)  # none: the default, translated
            messages.success(request, _("Message #%(number)s rejected; the player was told.") % {"number": row.pk})
        else:
            messages.error(request, _("Choose release or reject."))
        return redirect("mailin_held", game_id=seen.game.pk)
    rows = [{"row": r, "text": held.preview(r), "why": held.reason(r)} for r in _held(seen).order_by("received_at")]
    return render(request, "mailin/held.html", {"game": seen.game, "rows": rows})
