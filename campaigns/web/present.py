"""Turning one viewer's view and events into what the templates show."""
from __future__ import annotations

from itertools import groupby

from django.utils.safestring import mark_safe
from django.utils.translation import gettext, gettext_lazy

from campaigns import viewing
from campaigns.i18n import render
from rules.core.protocol import LineError

from .access import Seen


STATUS_TEXT = {
    "open": gettext_lazy("open for orders"),
    "closed": gettext_lazy("closed; being adjudicated"),
    "adjudicated": gettext_lazy("results await the umpire"),
    "published": gettext_lazy("published"),
    "finished": gettext_lazy("game over"),
}


def turn_summary(seen: Seen) -> dict:
    """The turn panel: status, deadline in the viewer's time zone, who is ready, the result."""
    turn = seen.view["turn"]
    is_open = turn["status"] == "open" and turn["game_status"] == "active"
    return {
        **turn,
        "is_open": is_open,
        "status_text": STATUS_TEXT.get(turn["status"], turn["status"] or gettext("not started")),
        "is_decision": turn["kind"] == "decision",
        "deadline_local": seen.local(turn["deadline"]) if is_open else "",
        "grace_local": seen.local(turn["late_until"]) if is_open and turn.get("late_until") else "",
        "missed_list": sorted(turn["missed"].items()),
        "result_text": viewing.describe_result(turn["result"]) if turn["game_status"] == "finished" else "",
        "awaiting": awaiting(seen),
    }


def awaiting(seen: Seen) -> str:
    """What this viewer is expected to do now, in a few words ("" for nothing)."""
    turn, viewer = seen.view["turn"], seen.viewer
    if turn["game_status"] != "active":
        return ""
    if viewer.is_umpire:
        return gettext("results await your approval") if turn["status"] == "adjudicated" else ""
    if viewer.role != "player" or turn["status"] != "open" or viewer.side not in turn["sides"]:
        return ""
    if viewer.side not in turn["orders"]:
        return gettext("your orders are awaited")
    return "" if viewer.side in turn["ready"] else gettext("orders sent; not marked ready")


def may_order(seen: Seen) -> bool:
    turn = seen.view["turn"]
    return (seen.viewer.role == "player" and turn["game_status"] == "active" and turn["status"] == "open"
            and seen.viewer.side in turn["sides"])


def away_until(seen: Seen):
    """The last day of the viewer's own absence in force, else None."""
    from campaigns.absences import seat_today
    from campaigns.mailin.models import Absence

    if seen.viewer.role != "player":
        return None
    return max(Absence.objects.filter(seat=seen.seat, until__gte=seat_today(seen.seat))
               .values_list("until", flat=True), default=None)


def own_orders(seen: Seen) -> str:
    return seen.view["turn"]["orders"].get(seen.viewer.side, "") if seen.viewer.side else ""


def log_by_turn(seen: Seen, events=None) -> list[dict]:
    """Visible events grouped per turn, newest turn first, each as one readable line.

    ``events``: the umpire's subset of the log (pending results); by default the viewer's
    whole log. Each line carries the viewer's own number of the event, never its seq."""
    events = viewing.numbered(seen.viewer, seen.events() if events is None else events)
    groups = []
    for number, evs in groupby(events, key=lambda e: e.turn):
        groups.append({"turn": number, "lines": [
            {"number": e.number, "type": e.type, "at": seen.local(e.created_at.isoformat()),
             "text": viewing.describe(seen.game, e), "audience": e.audience} for e in evs]})
    return list(reversed(groups))


def svg(seen: Seen, board_key: str = "board") -> str:
    # The rule set renders (and escapes) the SVG from this viewer's own view.
    return mark_safe(seen.svg(board_key))


def line_errors(errors: list[LineError]) -> list[str]:
    out = []
    for e in errors:
        side = f"{e.side}, " if e.side else ""
        message = render(e.message)
        if e.line:
            out.append(side + gettext("line %(line)s: %(message)s") % {"line": e.line, "message": message}
                       + (f" — “{e.text}”" if e.text else ""))
        else:
            out.append(side + message)
    return out


def board_extras(seen: Seen) -> dict:
    """Optional, rule-set-neutral bits of the viewer's board view the page can show."""
    board = seen.view["board"] if isinstance(seen.view["board"], dict) else {}
    standing = board.get("standing_instructions") or {}
    return {
        "legal_operations": seen.ruleset.legal_orders(board, seen.viewer.side),
        "standing": standing.get(seen.viewer.side, []) if seen.viewer.side else [],
    }
