"""Turning one viewer's view and events into what the templates show."""

from __future__ import annotations

from itertools import groupby

from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, gettext_lazy

from campaigns.i18n import render
from campaigns.mailout.reports import PLAIN_TEXT
from campaigns.models import Absence
from campaigns.turns import viewing
from campaigns.turns.absences import seat_today
from campaigns.turns.eventcursor import BadCursor, EventCursor
from campaigns.turns.state import GameStatus, TurnStatus
from rules.core.protocol import LineError, composes_orders

from .access import Seen

STATUS_TEXT = {
    TurnStatus.NONE: gettext_lazy("not started"),
    TurnStatus.OPEN: gettext_lazy("open for orders"),
    TurnStatus.CLOSED: gettext_lazy("closed; being adjudicated"),
    TurnStatus.ADJUDICATED: gettext_lazy("results await the umpire"),
    TurnStatus.FAILED: gettext_lazy("held: the umpire looks into its adjudication"),
    TurnStatus.PUBLISHED: gettext_lazy("published"),
    TurnStatus.FINISHED: gettext_lazy("game over"),
}


def turn_summary(seen: Seen) -> dict:
    """The turn panel: status, deadline in the viewer's time zone, who is ready, the result."""
    return turn_panel(seen.view["turn"], seen.viewer, seen.local, seen.game.ruleset)


def turn_panel(turn: dict, viewer, local, ruleset: str) -> dict:
    """``turn_summary`` from a viewer's turn view (``lifecycle_view``), ``local`` giving times in their zone
    (the list of my games builds it without a game view: campaigns.listing)."""
    is_open = turn["status"] == TurnStatus.OPEN and turn["game_status"] == GameStatus.ACTIVE
    return {
        **turn,
        "is_open": is_open,
        "status_text": STATUS_TEXT[turn["status"]],
        "is_decision": turn["kind"] == "decision",
        "deadline_local": local(turn["deadline"]) if is_open else "",
        "grace_local": local(turn["late_until"]) if is_open and turn.get("late_until") else "",
        "missed_list": sorted(turn["missed"].items()),
        "result_text": viewing.describe_result(turn["result"], ruleset)
        if turn["game_status"] == GameStatus.FINISHED
        else "",
        "awaiting": awaiting_for(turn, viewer),
    }


def awaiting(seen: Seen) -> str:
    """What this viewer is expected to do now, in a few words ("" for nothing)."""
    return awaiting_for(seen.view["turn"], seen.viewer)


def awaiting_for(turn: dict, viewer) -> str:
    if turn["game_status"] != GameStatus.ACTIVE:
        return ""
    if viewer.is_umpire:
        return gettext("results await your approval") if turn["status"] == TurnStatus.ADJUDICATED else ""
    if viewer.role != "player" or turn["status"] != TurnStatus.OPEN or viewer.side not in turn["sides"]:
        return ""
    if viewer.side not in turn["orders"]:
        return gettext("your orders are awaited")
    return "" if viewer.side in turn["ready"] else gettext("orders sent; not marked ready")


def may_order(seen: Seen) -> bool:
    turn = seen.view["turn"]
    return (
        seen.viewer.role == "player"
        and turn["game_status"] == GameStatus.ACTIVE
        and turn["status"] == TurnStatus.OPEN
        and seen.viewer.side in turn["sides"]
    )


def away_until(seen: Seen):
    """The last day of the viewer's own absence in force, else None."""
    if seen.viewer.role != "player":
        return None
    return max(
        Absence.objects.filter(seat=seen.seat, until__gte=seat_today(seen.seat)).values_list("until", flat=True),
        default=None,
    )


def own_orders(seen: Seen) -> str:
    return seen.view["turn"]["orders"].get(seen.viewer.side, "") if seen.viewer.side else ""


def log_by_turn(seen: Seen, events=None) -> list[dict]:
    """Visible events grouped per turn, newest turn first, each as one readable line.

    ``events``: the umpire's subset of the log (pending results, a filter); by default the viewer's
    whole log. Each line carries the viewer's own number of the event, never its seq. A player's
    lines say what happened without seeds and commitments (as the mailed reports do): those are on
    the verification page. Times are short, in the viewer's zone, with the full time on hover."""
    return _grouped(seen, viewing.numbered(seen.viewer, seen.events() if events is None else events))


LOG_PAGE = 200  # events on the game page; older ones a link away


def log_page(seen: Seen, cursor: str | None, events=None) -> tuple[list[dict], str | None]:
    """The game page's log: the viewer's latest LOG_PAGE events (those before ``cursor``'s place when
    given), grouped as ``log_by_turn``; and the cursor of the page's oldest event if older ones
    exist. Found by keyset from the log's end, so the page costs the same however long the log.
    ``events``: the umpire's filtered log (umpirelog.LogFilter; their number is the seq, so a subset
    pages as the whole does); a player's is always their whole log, which numbers their events.
    ``BadCursor`` if the cursor is not this viewer's for this game."""
    before = EventCursor.place(cursor[:1000], seen.game, seen.viewer) if cursor else None
    if before is not None and before[1] is None:
        raise BadCursor("a cursor without its place")
    if events is not None and not seen.viewer.is_umpire:
        raise ValueError("only the umpire's log pages a subset of itself")
    rows = viewing.newest_first(seen.viewer, seen.events() if events is None else events, LOG_PAGE + 1, before=before)
    oldest = rows[LOG_PAGE - 1] if len(rows) > LOG_PAGE else None
    older = EventCursor.make(seen.game, seen.viewer, oldest.number, oldest.seq) if oldest else None
    return _grouped(seen, reversed(rows[:LOG_PAGE])), older


def _grouped(seen: Seen, events) -> list[dict]:
    """Numbered events, oldest first, as lines grouped per turn, newest turn first."""
    groups = []
    for number, evs in groupby(events, key=lambda e: e.turn):
        lines = []
        for e in evs:
            text = _line_text(seen, e)
            if text is None:
                continue
            lines.append(
                {
                    "number": e.number,
                    "type": e.type,
                    "at": seen.local_short(e.created_at),
                    "at_full": seen.local(e.created_at.isoformat()),
                    "text": text,
                    "audience": e.audience,
                }
            )
        groups.append({"turn": number, "lines": lines})
    return list(reversed(groups))


def _line_text(seen: Seen, event) -> str | None:
    if not seen.viewer.is_umpire and event.type in PLAIN_TEXT:
        plain = PLAIN_TEXT[event.type]
        return plain(event.payload) if plain else None
    return viewing.describe(seen.game, event, local=seen.local)


def svg(seen: Seen, board_key: str = "board") -> str:
    # The rule set renders (and escapes) the SVG from this viewer's own view.
    return mark_safe(seen.svg(board_key))


def line_errors(errors: list[LineError]) -> list[str]:
    out = []
    for e in errors:
        side = f"{e.side}, " if e.side else ""
        message = render(e.message)
        if e.line:
            out.append(
                side
                + gettext("line %(line)s: %(message)s") % {"line": e.line, "message": message}
                + (f" — “{e.text}”" if e.text else "")
            )
        else:
            out.append(side + message)
    return out


def board_extras(seen: Seen) -> dict:
    """Optional, rule-set-neutral bits of the viewer's board view the page can show."""
    board = seen.view["board"] if isinstance(seen.view["board"], dict) else {}
    standing = board.get("standing_instructions") or {}
    return {
        # Each line as it is added to the orders (a rule set may follow it with a note, after three spaces).
        "legal_operations": [
            {"line": str(op).split("   (")[0], "text": render(op)}
            for op in seen.ruleset.legal_orders(board, seen.viewer.side)
        ],
        "standing": standing.get(seen.viewer.side, []) if seen.viewer.side else [],
        # Standing instructions open to the side, to add with a click (Civil War's rules 19-21).
        "legal_standing": [
            {"line": s["line"], "meaning": render(s["meaning"])} for s in board.get("legal_standing") or []
        ],
    }


def map_orders(seen: Seen) -> dict:
    """What the map's script needs to order by clicks and to draw the side's sent orders: only the
    viewer's own side, from its own view and its own orders (never another side's)."""
    rs, side = seen.ruleset, seen.viewer.side
    if seen.viewer.role != "player" or not side or not composes_orders(rs):
        return {}
    board = seen.view["board"] if isinstance(seen.view["board"], dict) else {}
    text = own_orders(seen)
    marks = (
        rs.pending_marks(board, side, text) if text and seen.view["turn"]["game_status"] == GameStatus.ACTIVE else []
    )
    out = {
        "side": side,
        "marks": marks,
        "words": {
            "select": gettext("Select %(id)s to order it"),
            "distance": gettext("%(d)s in from the unit, at %(x)s,%(y)s"),
        },
    }
    if may_order(seen):
        out.update(
            compose=reverse("order_compose", args=[seen.game.pk]), check=reverse("order_check", args=[seen.game.pk])
        )
    return out


def ready_closes(seen: Seen) -> bool:
    """Whether marking this player's side ready would close the turn: every other side to order is
    ready (public on the turn panel). A side played by several commands is left to its merge."""
    turn = seen.view["turn"]
    if not may_order(seen) or seen.viewer.command:
        return False
    return all(side in turn["ready"] for side in turn["sides"] if side != seen.viewer.side)
