"""Carrying out an authenticated seat's mail: orders and commands.

Orders go through ``campaigns.turns.commands.submit_orders`` (the function the web
uses) with source "mail"; the acknowledgement lists every order line as the
rule set understood it, or that line's error. Everything runs inside the
caller's transaction, so a failure part-way leaves nothing half-applied.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from datetime import date

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from campaigns.i18n import for_seat, render
from campaigns.mailout.commands_help import COMMANDS_HELP
from campaigns.mailout.outbox import queue_mail
from campaigns.models import OutboxMail, Seat
from campaigns.turns import absences, gamelog, viewing
from campaigns.turns import commands as turn_commands
from campaigns.turns.localtime import local_time, seat_timezone
from campaigns.turns.press import PRESS_DEFAULT
from campaigns.turns.seats import seat_label
from campaigns.turns.state import GameStatus
from rules import catalog

from . import commands, quotes, replies
from .mime import Parsed
from .models import InboundMessage

# Who a seat may write to with MESSAGE: the game's "press" setting (campaigns.turns.press).


@dataclass
class Outcome:
    sections: list[str] = field(default_factory=list)
    errors: int = 0
    orders_accepted: bool | None = None  # None: the message carried no orders
    read_anything: bool = False  # orders or commands were found: a person wrote this, not an auto-responder

    def add(self, text: str, error: bool = False) -> None:
        self.sections.append(text.rstrip())
        self.errors += error


def read_request(msg: Parsed, order_words: tuple[str, ...]) -> commands.Request:
    """Commands and orders from the new text of the body and any .txt attachments.

    ``order_words``: the game's rule set's (``RuleSet.order_words``), telling orders from prose.
    Orders in a .txt attachment count like an explicit ORDERS block: the body
    is then read for commands only (so "orders attached" is not an order).
    """
    attached = [(name, commands.parse(text, order_words=order_words)) for name, text in msg.text_attachments]
    with_orders = [name for name, r in attached if r.orders.strip()]
    body = quotes.new_text(msg.body)
    req = commands.parse(body, order_words=order_words, orders_allowed=not with_orders)
    sources = ([_("the mail")] if commands.orders_block(body) else []) + with_orders
    if len(sources) > 1:
        # Which one was meant is a guess: apply none, say why.
        req.errors.append(
            _("orders in more than one place (%(places)s): send them once; nothing was applied")
            % {"places": ", ".join(sources)}
        )
        req.orders = ""
        attached = [(name, r) for name, r in attached if not r.orders.strip()]
    for filename, extra in attached:
        if extra.orders.strip() and not req.orders.strip():
            req.orders, req.orders_lines = extra.orders, extra.orders_lines
        req.commands += extra.commands
        req.messages += extra.messages
        req.errors += [f"{filename}: {e}" for e in extra.errors]
        req.prose += extra.prose
    for att in msg.other_attachments:
        req.errors.append(
            _("attachment '%(name)s' (%(type)s) ignored: only .txt attachments are read")
            % {"name": att.filename, "type": att.content_type}
        )
    return req


def carry_out(row: InboundMessage, seat: Seat, msg: Parsed) -> Outcome:
    req = read_request(msg, catalog.get(seat.game.ruleset).order_words)
    out = Outcome(read_anything=not req.empty)
    for error in req.errors:
        out.add(f"! {error}", error=True)
    if req.prose:
        out.add(commands.prose_note(req.prose))
    forwarded = quotes.forwarded(msg.body)
    if req.empty:
        out.add(
            (
                _(
                    "No orders and no commands were found in your own text: the forwarded message below it was "
                    "skipped (orders in a forwarded message are not read). Write your orders in your own text, "
                    "or attach them as a .txt file."
                )
                if forwarded
                else _("No orders and no commands were found above the quoted text.")
            )
            + "\n\n"
            + str(COMMANDS_HELP),
            error=True,
        )
        return out
    if forwarded:
        out.add(_("The forwarded message below your text was skipped: orders in it were not read."))
    wait = req.has("WAIT")
    if req.orders.strip():
        _orders(row, seat, req.orders, ready=not wait, out=out)
    for name, arg in req.commands:
        HANDLERS[name](row, seat, arg, out, req)
    for n, (to, text) in enumerate(req.messages):
        _message(row, seat, to, text, out, n)
    return out


def _orders(row, seat, text, *, ready, out) -> None:
    if seat.role != Seat.Role.PLAYER:
        out.add("! " + _("orders: the %(role)s seat gives no orders") % {"role": _(seat.role)}, error=True)
        return
    text = turn_commands.clean_text(text)
    out.orders_accepted = False
    try:
        result = turn_commands.submit_orders(
            seat.game_id, seat.side, text, source="mail", by=row.from_addr, ready=ready, command=seat.command
        )
    except turn_commands.TurnError as exc:
        out.add("! " + _("orders not accepted: %(error)s") % {"error": render(exc)}, error=True)
        return
    listing = understood(text, result.orders, result.errors)
    if result.accepted:
        out.orders_accepted = True
        head = _("ORDERS ACCEPTED: they replace any orders you sent before for this turn.")
        if result.closed:
            head += "\n" + _(
                "Your side is marked ready. Every side is ready: the turn is closed and being adjudicated."
            )
        elif ready:
            head += "\n" + _("Your side is marked ready (send WAIT to wait for the deadline instead).")
        out.add(f"{head}\n{listing}")
    else:
        general = "\n".join(f"  {render(e.message)}" for e in result.errors if not e.line)
        out.add(
            _(
                "ORDERS NOT ACCEPTED (your earlier orders, if any, stay in force). Fix the lines marked ERROR "
                "and send again."
            )
            + f"\n{general + chr(10) if general else ''}{listing}",
            error=True,
        )


def canonical_line(order) -> str:
    """An order as the rule set read it, in its canonical English words: its ``to_text()`` (Civil
    War, Napoleon, War of the Worlds), else the line it was read from once the Russian order words
    were put in English (Little Wars, Kriegspiel, Kings of War keep that as ``text``); "" if neither."""
    if hasattr(order, "to_text"):
        return str(order.to_text())
    text = getattr(order, "text", None)
    return " ".join(text.split()) if isinstance(text, str) else ""


def understood(text: str, orders, errors) -> str:
    """Each line as the rule set read it, or its error; numbered as the rule set numbers lines."""
    by_line = {getattr(o, "line", 0): o for o in orders}
    err_by_line = {}
    for e in errors:
        err_by_line.setdefault(e.line, []).append(render(e.message))
    lines = [_("As understood:")]
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        if n in err_by_line:
            lines.append(
                f"  {n:>2}. {line.strip()}\n      " + _("ERROR: %(errors)s") % {"errors": "; ".join(err_by_line[n])}
            )
        elif n in by_line and (canon := canonical_line(by_line[n])):
            lines.append(f"  {n:>2}. {line.strip()}  ->  {canon}")
        else:
            lines.append(f"  {n:>2}. {line.strip()}")
    return "\n".join(lines)


def _ready(row, seat, arg, out, req) -> None:
    if out.orders_accepted:
        return  # READY with orders: submit_orders marked the side ready, and the orders' section says so
    if out.orders_accepted is False:
        # The side's readiness is what it was before this message: say which.
        out.add(
            "! "
            + (
                _(
                    "READY: not done, because your orders were not accepted; your side is still marked ready, "
                    "with your earlier orders."
                )
                if _is_ready(seat)
                else _("READY: not done, because your orders were not accepted; your side is not marked ready.")
            ),
            error=True,
        )
        return
    _set_ready(seat, True, out)


def _wait(row, seat, arg, out, req) -> None:
    if out.orders_accepted:
        out.add(_("WAIT: your side is not marked ready; the turn waits for its deadline."))
        return
    _set_ready(seat, False, out)  # no orders, or refused ones: WAIT still stands on its own


def _is_ready(seat) -> bool:
    return seat.side in gamelog.load(seat.game_id).state.turn.ready


def _set_ready(seat, ready: bool, out) -> None:
    word = "READY" if ready else "WAIT"
    if seat.role != Seat.Role.PLAYER:
        out.add(f"! {word}: " + _("only players can be ready"), error=True)
        return
    try:
        closed = turn_commands.set_ready(seat.game_id, seat.side, ready, command=seat.command)
    except turn_commands.TurnError as exc:
        out.add(f"! {word}: {render(exc)}", error=True)
        return
    if ready:
        out.add(
            _("READY: your side is marked ready.")
            + (" " + _("Every side is ready: the turn is closed.") if closed else "")
        )
    else:
        out.add(_("WAIT: your side is not ready; the turn waits for its deadline."))


def status_text(seat: Seat) -> str:
    game = seat.game
    state = gamelog.load(game.pk).state
    view = viewing.game_view(game, state, viewing.viewer_of_seat(seat))["turn"]
    nobody = _("nobody")
    lines = [
        _("STATUS of %(game)s: turn %(number)s (%(kind)s), %(status)s")
        % {
            "game": game.name,
            "number": view["number"],
            "kind": view["kind"] and _(view["kind"]),
            "status": view["status"] and _(view["status"]),
        },
        "  " + _("deadline: %(deadline)s") % {"deadline": local_time(view["deadline"], seat_timezone(seat))},
        "  "
        + _("to order: %(sides)s; ready: %(ready)s")
        % {"sides": _sides(view["sides"]) or nobody, "ready": _sides(view["ready"]) or nobody},
    ]
    if view["game_status"] == GameStatus.FINISHED:
        lines.append(
            "  " + _("game over: %(result)s") % {"result": viewing.describe_result(view["result"], game.ruleset)}
        )
    for side, text in sorted(view["orders"].items()):
        indented = "\n".join("      " + line for line in text.split("\n"))
        lines.append("  " + _("orders in force for %(side)s:") % {"side": pgettext("side", side)} + f"\n{indented}")
    if seat.side and seat.side in view["sides"] and seat.side not in view["orders"]:
        lines.append("  " + _("you have sent no orders for this turn yet"))
    return "\n".join(lines)


def _sides(sides) -> str:
    """Side names as the reader reads them ("красные, синие")."""
    return ", ".join(pgettext("side", side) for side in sides)


def _status(row, seat, arg, out, req) -> None:
    out.add(status_text(seat))


def _resend(row, seat, arg, out, req) -> None:
    last = OutboxMail.objects.filter(seat=seat, kind__in=("report", "gameover")).order_by("-created_at", "-pk").first()
    if last is None:
        out.add(_("RESEND: there is no report for you yet."), error=True)
        return
    queue_mail(
        key=f"mailin:{row.pk}:resend",
        to=seat.email,
        subject=last.subject,
        body=last.body,
        html=last.html,
        game=seat.game,
        seat=seat,
        kind="resend",
        map_svg=last.svg,
        attachments=[(a["filename"], base64.b64decode(a["content_b64"]), a["mimetype"]) for a in last.attachments],
    )
    out.add(_("RESEND: your latest report (%(subject)s) is on its way again.") % {"subject": last.subject})


def _help(row, seat, arg, out, req) -> None:
    out.add(str(COMMANDS_HELP) + "\n" + render(catalog.get(seat.game.ruleset).orders_help))


def _absent(row, seat, arg, out, req) -> None:
    try:
        moved = absences.declare(seat, date.fromisoformat(arg), inbound=row)
    except absences.AbsenceError as exc:
        out.add(f"! ABSENT UNTIL {arg}: {exc}", error=True)
        return
    out.add(f"ABSENT UNTIL {arg}: " + _("recorded, and the umpire has been told. You get no reminders until then."))
    out.add(absences.deadline_words(seat, moved))


def _back(row, seat, arg, out, req) -> None:
    if absences.end(seat):
        out.add(_("BACK: welcome back. Your absence has ended; reminders start again, and the umpire has been told."))
    else:
        out.add(_("BACK: you had no absence in force; nothing changed."))


def _replace(row, seat, arg, out, req) -> None:
    if not req.orders.strip():
        out.add("! " + _("REPLACE: no orders followed; your orders in force stay as they are"), error=True)


def _message(row, seat, to, text, out, n: int = 0) -> None:
    game = seat.game
    press = gamelog.load(game.pk).state.settings.get("press", PRESS_DEFAULT)
    if to == "umpire":
        target = game.seats.active().filter(role=Seat.Role.UMPIRE).first()
        allowed = press in ("umpire", "all") or seat.role == Seat.Role.UMPIRE
    else:
        target = game.seats.active().filter(role=Seat.Role.PLAYER, side__iexact=to).first()
        allowed = press == "all" or seat.role == Seat.Role.UMPIRE
    if target is None:
        out.add(f"! MESSAGE {to[:30]}: " + _("no such seat in this game (write umpire or a side)"), error=True)
        return
    if not allowed:
        out.add(
            f"! MESSAGE {to[:30]}: " + _("this game does not allow messages to %(to)s") % {"to": to[:30]}, error=True
        )
        return
    with for_seat(target):  # the message's envelope in its reader's language
        replies.notify(
            row,
            seat=target,
            purpose=f"message:{n}",
            subject="[Kriegsbrief] "
            + _("%(game)s: message from %(seat)s") % {"game": game.name, "seat": seat_label(seat)},
            body=_("%(seat)s writes:") % {"seat": seat_label(seat)} + f"\n\n{text}\n",
        )
    out.add(_("MESSAGE to %(seat)s: sent.") % {"seat": seat_label(target)})


HANDLERS = {
    "READY": _ready,
    "WAIT": _wait,
    "STATUS": _status,
    "RESEND": _resend,
    "HELP": _help,
    "ABSENT": _absent,
    "BACK": _back,
    "REPLACE": _replace,
}
