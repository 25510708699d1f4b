"""Turning one viewer's view and events into what the templates show."""
from __future__ import annotations

from itertools import groupby

from django.utils.safestring import mark_safe

from campaigns.models import Absence
from campaigns.turns import viewing
from campaigns.turns.absences import seat_today
from campaigns.turns.state import GameStatus, TurnStatus
from rules.core.protocol import LineError

from .access import Seen

STATUS_TEXT = {
    TurnStatus.NONE: "not started",
    TurnStatus.OPEN: "open for orders",
    TurnStatus.CLOSED: "closed; being adjudicated",
    TurnStatus.ADJUDICATED: "results await the umpire",
    TurnStatus.PUBLISHED: "published",
    TurnStatus.FINISHED: "game over",
}


def turn_summary(seen: Seen) -> dict:
    """The turn panel: status, deadline in the viewer's time zone, who is ready, the result."""
    turn = seen.view["turn"]
    is_open = turn["status"] == TurnStatus.OPEN and turn["game_status"] == GameStatus.ACTIVE
    return {
        **turn,
        "is_open": is_open,
        "status_text": STATUS_TEXT[turn["status"]],
        "is_decision": turn["kind"] == "decision",
        "deadline_local": seen.local(turn["deadline"]) if is_open else "",
        "grace_local": seen.local(turn["late_until"]) if is_open and turn.get("late_until") else "",
        "missed_list": sorted(turn["missed"].items()),
        "result_text": viewing.describe_result(turn["result"]) if turn["game_status"] == GameStatus.FINISHED else "",
        "awaiting": awaiting(seen),
    }


def awaiting(seen: Seen) -> str:
    """What this viewer is expected to do now, in a few words ("" for nothing)."""
    turn, viewer = seen.view["turn"], seen.viewer
    if turn["game_status"] != GameStatus.ACTIVE:
        return ""
    if viewer.is_umpire:
        return "results await your approval" if turn["status"] == TurnStatus.ADJUDICATED else ""
    if viewer.role != "player" or turn["status"] != TurnStatus.OPEN or viewer.side not in turn["sides"]:
        return ""
    if viewer.side not in turn["orders"]:
        return "your orders are awaited"
    return "" if viewer.side in turn["ready"] else "orders sent; not marked ready"


def may_order(seen: Seen) -> bool:
    turn = seen.view["turn"]
    return (seen.viewer.role == "player" and turn["game_status"] == GameStatus.ACTIVE and turn["status"] == TurnStatus.OPEN
            and seen.viewer.side in turn["sides"])


def away_until(seen: Seen):
    """The last day of the viewer's own absence in force, else None."""
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
        if e.line:
            out.append(f"{side}line {e.line}: {e.message}" + (f" — “{e.text}”" if e.text else ""))
        else:
            out.append(side + e.message)
    return out


def board_extras(seen: Seen) -> dict:
    """Optional, rule-set-neutral bits of the viewer's board view the page can show."""
    board = seen.view["board"] if isinstance(seen.view["board"], dict) else {}
    standing = board.get("standing_instructions") or {}
    return {
        "legal_operations": seen.ruleset.legal_orders(board, seen.viewer.side),
        "standing": standing.get(seen.viewer.side, []) if seen.viewer.side else [],
    }
