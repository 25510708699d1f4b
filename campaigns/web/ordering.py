"""Orders by clicks and live checking of the orders box (htmx requests from the game page).

The order language stays the rule set's: a click becomes a line through its optional
``compose_order`` (rules.core.protocol.OrderComposer), and every line, clicked or typed, is
checked with the same parser and validation a submission gets. Each answer is built from the
player's own view and the errors its own orders would get, so it says nothing a submission
would not. The orders box stays the source of truth: nothing here stores anything.
"""

from __future__ import annotations

from django.http import HttpResponseBadRequest
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaigns.i18n import render as in_language
from campaigns.turns import commands
from rules.core.i18n import message_of
from rules.core.protocol import RulesError, composes_orders

from . import present
from .access import Seen, seat_required

TARGET_FIELDS = ("x", "y", "hex", "node", "unit", "verb")


def _target(post) -> dict:
    return {k: post[k] for k in TARGET_FIELDS if post.get(k, "").strip()}


def _board(seen: Seen) -> dict:
    return seen.view["board"] if isinstance(seen.view["board"], dict) else {}


def _may_compose(seen: Seen) -> bool:
    return present.may_order(seen) and composes_orders(seen.ruleset)


def _errors_of_line(errors, number: int) -> list[str]:
    return [e.message for e in errors if e.line == number]


@require_POST
@seat_required()
def compose(request, seen: Seen):
    """A click (or a typed target) made into an order line, checked with the orders already in the box."""
    if not _may_compose(seen):
        return HttpResponseBadRequest(_("You have no orders to give now."))
    unit = request.POST.get("select", "").strip()
    board, side = _board(seen), seen.viewer.side
    context = {"unit": unit}
    if not unit:
        return HttpResponseBadRequest(_("Choose one of your units first."))
    target = _target(request.POST)
    if not target or set(target) == {"verb"}:  # a unit selected: the places it may go to
        context["targets"] = sorted(seen.ruleset.order_targets(board, side, unit))
        if not context["targets"] and request.POST.get("map") == "graph":  # every order there names a lit place
            context["why"] = _("No order open to you now starts at %(place)s.") % {"place": unit}
        return render(request, "web/_compose.html", context)
    place = str(target.get("node") or target.get("hex") or target.get("unit") or "")
    choices = seen.ruleset.order_targets(board, side, unit).get(place.upper(), []) if place else []
    if len(choices) > 1 and "verb" not in target:  # several orders take the unit there: the player picks
        context["choices"] = choices
        return render(request, "web/_compose.html", context)
    try:
        line = seen.ruleset.compose_order(board, side, unit, target)
    except RulesError as exc:
        context["why"] = in_language(message_of(exc))  # the rule set's marked message, in the reader's language
        return render(request, "web/_compose.html", context)
    text = commands.clean_text(request.POST.get("text", ""))  # as a submission reads it, so lines number alike
    lines = text.split("\n") if text else []
    errors = seen.check_orders("\n".join(lines + [line]))
    context.update(line=line, why="; ".join(_errors_of_line(errors, len(lines) + 1)))
    return render(request, "web/_compose.html", context)


@require_POST
@seat_required()
def check(request, seen: Seen):
    """The orders box checked line by line as the player types (nothing is sent)."""
    if not present.may_order(seen):
        return HttpResponseBadRequest(_("You have no orders to give now."))
    text = request.POST.get("text", "")
    errors = seen.check_orders(text) if text.strip() else []
    lines = [line for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]
    return render(
        request,
        "web/_order_check.html",
        {"errors": present.line_errors(errors), "count": len(lines), "empty": not text.strip()},
    )
