"""My turns (issue 28, point 5): what waits on me in every game, nearest deadline first, grouped by
campaign; and my calendar of deadlines at a secret address, made, renewed or stopped on the
settings page. The list and the calendar are campaigns/turns/agenda.py's."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from campaigns.battles import summary
from campaigns.i18n import mail_language
from campaigns.turns import agenda
from campaigns.turns.localtime import local_time

from . import present
from .access import user_timezone


def agenda_rows(listed, tz) -> list[dict]:
    """The rows my-turns and a campaign's page show: each game, the reader's seat, its turn and waits."""
    return [
        {
            "item": item,
            "game": item.game,
            "viewer": item.viewer,
            "title": item.row.title,
            "turn": present.turn_panel(item.turn, item.viewer, lambda iso: local_time(iso, tz), item.game.ruleset),
            "waits": item.waits,
        }
        for item in listed
    ]


@login_required
def my_turns(request):
    tz = user_timezone(request.user)
    listed = agenda.items(request.user, battles_of=summary.battles_of)
    groups = [{"campaign": campaign, "items": agenda_rows(items, tz)} for campaign, items in agenda.by_campaign(listed)]
    return render(
        request,
        "web/my_turns.html",
        {"groups": groups, "timezone": tz, "to_do": sum(1 for i in listed if i.to_do)},
    )


@login_required
@require_POST
def calendar_address(request):
    """Make, renew (``renew``) or stop (``stop``) my calendar's secret address; back to the settings page."""
    if request.POST.get("action") == "stop":
        agenda.stop_feed(request.user)
        messages.success(request, _("Your calendar address is stopped: it opens nothing any more."))
    else:
        had = agenda.feed_of(request.user) is not None
        agenda.renew_feed(request.user)
        messages.success(
            request,
            _("Your calendar has a new address: the old one opens nothing any more.")
            if had
            else _("Your calendar address is made: subscribe to it in your calendar."),
        )
    return redirect(reverse("my_settings") + "#calendar")


@require_safe
def calendar_feed(request, token: str):
    """The calendar itself, for a calendar program: no session, the token in the address is the key.
    An unknown or renewed token is 404, as any address that is not there."""
    user = agenda.feed_user(token)
    if user is None:
        raise Http404("No such calendar.")
    site = urlsplit(settings.SITE_URL)
    base = f"{site.scheme}://{site.netloc}"
    with translation.override(mail_language(user)):
        body = agenda.calendar(
            agenda.items(user),
            game_url=lambda game: base + reverse("game", args=[game.pk]),
            domain=site.hostname or "kriegsbrief.localhost",
            now=timezone.now(),
        )
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="kriegsbrief.ics"'
    response["Cache-Control"] = "private, no-store"
    response["X-Robots-Tag"] = "noindex, nofollow"
    response["Referrer-Policy"] = "no-referrer"
    return response
