"""Turn reports and the game-over summary by mail: one per seat, built only from that seat's view.

Everything a report says comes from ``viewing.game_view`` and
``viewing.visible_events`` for the seat's viewer, so a player's mail can
never carry what only the other side or the umpire may see. Rows go into the
durable outbox (``outbox.queue_mail``) in the publishing transaction.
"""

from __future__ import annotations

from django.conf import settings
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from campaigns.i18n import draw_map, for_seat, render
from campaigns.models import Seat
from campaigns.turns import viewing
from campaigns.turns.invitations import roster
from campaigns.turns.localtime import local_time, seat_timezone
from campaigns.turns.seats import seat_label
from campaigns.turns.state import GameStatus
from rules import catalog

from . import outbox
from .commands_help import COMMANDS_HELP
from .mapmail import MAP_CID

# Not news in a report: a sealed seed is only a commitment; every submission and readiness
# change of the turn is summed up once, as the orders as executed.
SKIPPED_TYPES = ("seed.sealed", "orders.submitted", "orders.amended", "side.ready")
# Events whose log line carries seeds or dice commitments: in a report's body they say what happened
# without them; the seeds and commitments go to the verification footer.
PLAIN_TEXT = {
    "game.created": lambda p: _("Game created (%(ruleset)s)") % p,
    "seed.revealed": None,
    "turn.opened": lambda p: (
        _("Turn %(turn)s opened for %(sides)s (%(kind)s)")
        % {"turn": p["turn"], "sides": ", ".join(pgettext("side", s) for s in p["sides"]), "kind": _(p["kind"])}
    ),
    "turn.published": viewing.published_text,
}
VERIFY_TEXT = {
    "game.created": lambda p: _("setup seed commitment %(setup_commitment)s") % p,
    "seed.revealed": lambda p: _("setup seed %(seed)s") % p,
    "turn.opened": lambda p: _("turn %(turn)s dice commitment %(commitment)s") % p,
    "turn.published": lambda p: _("turn %(turn)s seed %(seed)s") % p,
}


def orders_as_executed(events, viewer) -> dict[str, str]:
    """The orders that counted in the turn, per side, from events this viewer may see.

    The umpire reads them from turn.adjudicated; a player sees its own last
    submission (side audience), the public default it was given, or the umpire's
    amendment of its orders (side audience, after its submission).
    """
    out: dict[str, str] = {}
    for e in events:
        if e.type == "turn.adjudicated":
            out.update(e.payload["orders"])
        elif e.type == "orders.submitted":  # a side with several seats: each command's orders
            command = e.payload.get("command")
            out[f"{e.payload['side']}, {command}" if command else e.payload["side"]] = e.payload["text"]
        elif e.type == "orders.merged":
            out[e.payload["side"]] = e.payload["text"] + "".join(
                "\n" + _("(given way: %(dropped)s's line '%(line)s', %(unit)s is ordered by %(kept)s)") % c
                for c in e.payload["conflicts"]
            )
        elif e.type == "orders.defaulted":
            out[e.payload["side"]] = _("(none received; default applied)") + f" {e.payload['text']}"
        elif e.type == "orders.amended":
            out[e.payload["side"]] = _("(amended by the umpire)") + f" {e.payload['text']}"
    if not viewer.is_umpire:
        out = {key: text for key, text in out.items() if key.split(",")[0] == viewer.side}
    return dict(sorted(out.items()))


def open_orders(rs, view: dict, seat: Seat) -> list[str]:
    """The orders open to a player whose side orders next, from its own view (as on its game page)."""
    if seat.role != Seat.Role.PLAYER or view["turn"]["result"] or seat.side not in view["turn"]["sides"]:
        return []
    return [render(line) for line in rs.legal_orders(view["board"], seat.side)]  # a line may carry a marked note


def seat_context(game, state, seat: Seat, turn_number: int) -> dict:
    """What one seat's report says about a turn, from that seat's view only."""
    viewer = viewing.viewer_of_seat(seat)
    view = viewing.game_view(game, state, viewer)
    turn_events = list(viewing.visible_events(game, state, viewer).filter(turn=turn_number))
    later = viewing.visible_events(game, state, viewer).filter(turn__gt=turn_number)
    rs = catalog.get(game.ruleset)
    events = [e for e in [*turn_events, *later] if e.type not in SKIPPED_TYPES]
    return {
        "game": game,
        "seat": seat,
        "you": seat_label(seat),
        "turn_number": turn_number,
        "view": view,
        "lines": [line for line in (_report_line(game, e) for e in events) if line],
        "verification": [VERIFY_TEXT[e.type](e.payload) for e in events if e.type in VERIFY_TEXT],
        "orders": orders_as_executed(turn_events, viewer),
        "deadline": local_time(view["turn"]["deadline"], seat_timezone(seat)),
        "orders_help": render(rs.orders_help),
        # In every report, text and HTML: how to answer by mail. A report's HTML with the map and
        # only a few lines besides is what image spam looks like (SpamAssassin's HTML_IMAGE_ONLY_*).
        "commands_help": render(COMMANDS_HELP),
        "site_url": settings.SITE_URL,
        "result": viewing.describe_result(view["turn"]["result"], game.ruleset) if view["turn"]["result"] else "",
        "svg": draw_map(rs, view["board"], crop=True),
        "map_cid": MAP_CID,
        "open_orders": open_orders(rs, view, seat),
        "side_names": side_names(view["turn"]["sides"]),
    }


def side_names(sides) -> str:
    """The sides of a turn as the reader calls them ("красные, синие"), for the mail's sentences."""
    return ", ".join(pgettext("side", s) for s in sides)


def _report_line(game, event) -> str | None:
    """What happened, as a report's body says it: without seeds and commitments (see VERIFY_TEXT)."""
    if event.type in PLAIN_TEXT:
        text = PLAIN_TEXT[event.type]
        return text(event.payload) if text else None
    return viewing.describe(game, event)


def _queue_for_seat(key: str, subject: str, template: str, ctx: dict, kind: str) -> None:
    seat = ctx["seat"]
    outbox.queue_mail(
        key=key,
        game=seat.game,
        seat=seat,
        to=seat.email,
        kind=kind,
        subject=outbox.one_line(subject),
        body=render_to_string(f"mail/{template}.txt", ctx),
        html=render_to_string(f"mail/{template}.html", ctx),
        map_svg=ctx["svg"],
    )


def queue_turn_reports(stream, turn_number: int) -> None:
    """Every seat's report of a published turn; after the last turn also the game-over summary."""
    game, state = stream.game, stream.state
    for seat in game.seats.active().select_related("user__profile"):
        with for_seat(seat):
            ctx = seat_context(game, state, seat, turn_number)
            _queue_for_seat(
                f"report:{game.uid}:{turn_number}:{seat.pk}",
                "[Kriegsbrief] " + _("%(game)s: turn %(number)s results") % {"game": game.name, "number": turn_number},
                "turn_report",
                ctx,
                "report",
            )
            if state.status == GameStatus.FINISHED:
                ctx["missed"] = ctx["view"]["turn"]["missed"]
                _queue_for_seat(
                    f"gameover:{game.uid}:{seat.pk}",
                    "[Kriegsbrief] "
                    + _("%(game)s: game over, %(result)s") % {"game": game.name, "result": ctx["result"]},
                    "game_over",
                    ctx,
                    "gameover",
                )


def queue_game_start(stream, seats=None, key_suffix: str = "") -> None:
    """Each seat's first mail of a game: who it is, how to play by mail, the deadline in its own time
    zone and the map of what it sees. It starts the game's mail thread. ``seats``: only these (a
    player who takes over a side mid-game gets it too, ``key_suffix`` telling the handovers apart)."""
    game, state = stream.game, stream.state
    rs = catalog.get(game.ruleset)
    who = roster(game)
    for seat in seats if seats is not None else game.seats.active().select_related("user__profile"):
        with for_seat(seat):
            _queue_start(game, state, rs, who, seat, key_suffix, COMMANDS_HELP)


def _queue_start(game, state, rs, who, seat, key_suffix: str, commands_help) -> None:
    """One seat's first mail (in the seat's language, see queue_game_start)."""
    viewer = viewing.viewer_of_seat(seat)
    view = viewing.game_view(game, state, viewer)
    ctx = {
        "game": game,
        "seat": seat,
        "you": seat_label(seat),
        "view": view,
        "title": rs.title,
        "deadline": local_time(view["turn"]["deadline"], seat_timezone(seat)),
        "orders_help": render(rs.orders_help),
        "commands_help": render(commands_help),
        "site_url": settings.SITE_URL,
        "roster": who,
        "side_names": side_names(view["turn"]["sides"]),
    }
    outbox.queue_mail(
        key=f"start:{game.uid}:{seat.pk}{key_suffix}",
        game=game,
        seat=seat,
        to=seat.email,
        kind="start",
        subject=outbox.one_line("[Kriegsbrief] " + _("%(game)s: the game begins") % {"game": game.name}),
        body=render_to_string("mail/game_start.txt", ctx),
        map_svg=draw_map(rs, view["board"], crop=True),
        thread_start=True,
    )
