"""A campaign's page (issue 28): the reader's games in it with what waits on them, each strategic
game's battles and standings, and the campaign's record as a timeline, everything as the reader may
see it (a seat in one of its games is required; battles only of the strategic games they sit in)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _

from campaigns.battles import summary
from campaigns.turns import agenda
from campaigns.turns.localtime import local_time
from rules import catalog
from rules.core.protocol import Strategic

from .access import user_timezone
from .agenda import agenda_rows
from .battles import BY, KINDS, STATUSES


@login_required
def campaign_page(request, campaign_id: int):
    tz = user_timezone(request.user)
    listed = [i for i in agenda.items(request.user, battles_of=summary.battles_of) if i.game.campaign_id == campaign_id]
    if not listed:  # no such campaign, or no seat in it: the same answer
        raise Http404("No such campaign")
    campaign = listed[0].game.campaign
    strategic = [i for i in listed if isinstance(catalog.get(i.game.ruleset), Strategic)]
    wars = []
    for item in strategic:
        battles = summary.battles_of(item.game)
        if not battles and not summary.fights_battles(item.game):
            continue  # a Civil War game without the battles option: no war to show
        for b in battles:
            b["kind_text"] = KINDS.get(b["place"]["kind"], b["place"]["kind"])
            b["status_text"] = _(STATUSES[b["status"]])
            if b["result"] and b["result"]["by"]:
                b["by_text"] = _(BY[b["result"]["by"]])
        sides = tuple(catalog.get(item.game.ruleset).sides)
        wars.append({"game": item.game, "battles": battles, "standings": summary.standings(item.game, battles, sides)})
    events = summary.timeline(campaign, {str(i.game.uid) for i in strategic})
    for e in events:
        e["when"] = local_time(e["at"].isoformat(), tz)
    return render(
        request,
        "web/campaign.html",
        {"campaign": campaign, "rows": agenda_rows(listed, tz), "wars": wars, "timeline": events, "timezone": tz},
    )
