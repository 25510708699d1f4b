"""A strategic game's battles on its page (issue 28): every seat reads them; the umpire chooses how a
waiting battle is fought and passes a finished one's result on, as it is or amended."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, pgettext
from django.views.decorators.http import require_POST

from campaigns.battles import linking, summary
from campaigns.turns.errors import TurnError
from rules import catalog
from rules.core.protocol import Strategic

from .access import Seen, seat_required

KINDS = {
    "town": pgettext("ground", "town"),
    "crossing": pgettext("ground", "river crossing"),
    "open": pgettext("ground", "open ground"),
    "hills": pgettext("ground", "hills"),
}
STATUSES = {
    "joined": gettext_noop("waiting for the umpire's choice"),
    "fighting": gettext_noop("being fought"),
    "finished": gettext_noop("fought: the result waits for the umpire"),
    "resolved": gettext_noop("decided"),
}
BY = {
    "table": gettext_noop("on the table"),
    "rules": gettext_noop("by the rules"),
    "umpire": gettext_noop("by the umpire"),
}


def battles_context(seen: Seen) -> dict:
    """{"battles": [...], "standings": {...}} for a strategic game's page; {} for any other game."""
    if not isinstance(seen.ruleset, Strategic):
        return {}
    listed = summary.battles_of(seen.game)
    if not listed:
        return {}
    for b in listed:
        b["kind_text"] = KINDS.get(b["place"]["kind"], b["place"]["kind"])
        b["status_text"] = _(STATUSES[b["status"]])
        if b["result"] and b["result"]["by"]:
            b["by_text"] = _(BY[b["result"]["by"]])
    table = summary.standings(seen.game, listed, tuple(seen.ruleset.sides))
    choices = [(n, str(catalog.get(n).title)) for n in linking.tactical_names()]
    return {"battles": listed, "standings": table["sides"], "battle_choices": choices}


@require_POST
@seat_required(umpire_only=True)
def battle_action(request, seen: Seen, battle: str):
    """The umpire's choice (``ruleset``) or review (``pass`` / ``amend`` with ``winner`` and ``note``)."""
    action = request.POST.get("action")
    try:
        if action == "choose":
            linking.choose(seen.game, battle, request.POST.get("ruleset", ""))
            messages.success(request, _("Battle %(battle)s: your choice is made.") % {"battle": battle})
        elif action in ("pass", "amend"):
            amended = None
            if action == "amend":
                winner = request.POST.get("winner", "")
                if winner not in (*seen.ruleset.sides, "none"):
                    raise TurnError(_("choose the side that won, or none"))
                amended = {"winner": None if winner == "none" else winner}
            linking.review(seen.game, battle, amended, note=request.POST.get("note", "")[:1000])
            messages.success(request, _("Battle %(battle)s: the result is in the game.") % {"battle": battle})
        else:
            raise TurnError(_("unknown action"))
    except TurnError as exc:
        messages.error(request, str(exc))
    return redirect(reverse("game", args=[seen.game.pk]) + "#battles")
