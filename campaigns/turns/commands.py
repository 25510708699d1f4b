"""The few commands that change a game. Each is one transaction that appends events.

Every command locks the game row (the stream head) before it reads state, so
commands on one game are serialized; the expected-sequence check in the event
store is the backstop. Work that must follow a commit (adjudication, mail) is
queued with ``transaction.on_commit`` so a rolled-back command queues nothing.
"""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass, field, replace
from datetime import timedelta

from django.conf import settings
from django.db import DatabaseError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from campaigns import ratelimit
from campaigns.transient import TRANSIENT
from rules.core import dice
from rules.core.i18n import marked
from rules.core.protocol import UMPIRE, LineError, RuleEvent, side_audience

from . import absences, failures, gamelog, handoff, lifecycle, signals
from .adjudication import adjudication_drafts
from .errors import TurnError
from .gamelog import Draft, Stream
from .state import GameStatus, LifecycleState, Turn, TurnStatus

log = logging.getLogger(__name__)
# The most characters one side's orders may have, on every channel (the API's schema says the same):
# orders go into the append-only log for good, and every page of the game shows them (issue 29).
MAX_ORDERS_CHARS = 20000
ADJUDICATE_TASK = handoff.ADJUDICATE_TASK
# What an adjudication passes on rather than holding the turn: the database's errors (a conflict,
# a lost connection: retried, or the rescue's), the broker's, and a concurrent append.
PASSING_TROUBLES = (*TRANSIENT, DatabaseError, gamelog.ConcurrencyConflict)


@dataclass
class SubmitResult:
    accepted: bool
    errors: list[LineError] = field(default_factory=list)
    closed: bool = False
    orders: list = field(default_factory=list)  # as the rule set parsed them (mail acknowledgements list them)
    retry_after: int = 0  # refused for the seat's rate (seconds to wait): the API answers 429


def _append(stream: Stream, drafts: list[Draft]) -> Stream:
    return gamelog.append(stream, drafts)


def started(state: LifecycleState) -> bool:
    """Has the game's first turn opened (or the game ended)? Before, it waits for its seats."""
    return state.started


def start_game(stream: Stream) -> Stream:
    """Open turn 1 (its deadline counts from now) and send every seat the game's first mail."""
    stream = _append(stream, _open_next_turn(stream.state))
    stream = absences.absent_sides(stream)
    signals.game_started.send(sender=__name__, stream=stream)
    return stream


def _open_next_turn(state: LifecycleState) -> list[Draft]:
    rs = lifecycle.ruleset_of(state)
    result = rs.result(state.rules)
    spec = rs.next_turn(state.rules)
    number = state.turn.number + 1
    if result is not None or not spec.sides:
        return [Draft(state.turn.number, RuleEvent("game.finished", {"result": result}))]
    hours = state.settings["decision_deadline_hours" if spec.kind == "decision" else "deadline_hours"]
    deadline = timezone.now() + timedelta(hours=float(hours))
    seed = dice.new_seed()
    # The commitment is public with the turn; the seed itself is umpire-only
    # until turn.published reveals it.
    return [
        Draft(
            number,
            RuleEvent(
                "turn.opened",
                {
                    "turn": number,
                    "kind": spec.kind,
                    "sides": list(spec.sides),
                    "prompt": spec.prompt,
                    **marked("prompt_msg", spec.prompt),  # shown in each reader's language
                    "deadline": deadline.isoformat(),
                    "commitment": dice.commitment(seed),
                },
            ),
        ),
        Draft(number, RuleEvent("seed.sealed", {"turn": number, "seed": seed}, audience=UMPIRE)),
    ]


# --- orders -----------------------------------------------------------------


def check_orders(state: LifecycleState, side: str, text: str, command: str = "") -> tuple[list, list[LineError]]:
    """(orders, errors) of ``text``. A rule set that raises reading or checking it gives one error
    for the whole text, never an exception: the orders are refused, those accepted before stand."""
    rs = lifecycle.ruleset_of(state)
    kind = state.turn.kind
    try:
        parsed = rs.parse_orders(state.rules, side, text, kind)
        errors = list(parsed.errors) + list(rs.validate(state.rules, side, parsed.orders, kind))
        if command:  # a seat of a side with several: only its own command's units (LW-61, KS-9)
            errors += list(rs.command_errors(state.rules, side, command, parsed.orders))
    except PASSING_TROUBLES:
        raise
    except Exception:
        log.exception("game rules %s: reading %s's orders raised", state.ruleset, side)
        why = _(
            "the rules could not read these orders (an error in the rules, not in your orders): write them another way or ask the umpire"
        )
        return [], [LineError(1, text.strip().splitlines()[0] if text.strip() else "", why)]
    return list(parsed.orders), sorted(errors, key=lambda e: e.line)


def _command_of(state: LifecycleState, side: str, command: str | None) -> str:
    """The seat's command if its side has several seats, "" for a side's only seat."""
    if side not in state.settings.get("teams", {}):
        return ""
    if not command:
        raise TurnError(_("%(side)s is played by several players: orders come from a seat's command") % {"side": side})
    return command


def clean_text(text: str) -> str:
    # NUL cannot be stored in PostgreSQL JSON and is never part of an order.
    return text.replace("\x00", "").replace("\r\n", "\n").strip()


class _Refused(Exception):
    """A command refused before it wrote anything (carries the TurnError): see ``_transaction``."""

    def __init__(self, error: TurnError):
        super().__init__(str(error))
        self.error = error


def _transaction(command):
    """Run ``command`` as one transaction; inside a caller's transaction, without a savepoint.

    Why: mail applies a batch of messages in one transaction with a savepoint per message
    already; a savepoint of the command's own costs two more round trips per message. A
    refusal (a TurnError) is found before anything is written, so it needs no rollback: the
    command raises it as ``_Refused``, caught here inside the atomic block (which then ends
    normally) and raised as the TurnError beyond it, so the caller's transaction stays as
    usable as a savepoint would have left it. Any other error leaves the block and marks the
    caller's transaction for rollback (Django's ``atomic(savepoint=False)``): its own savepoint,
    if it has one (mail's per message), undoes the command. Outside a transaction nothing changes."""

    @functools.wraps(command)
    def run(*args, **kwargs):
        with transaction.atomic(savepoint=False):
            try:
                return command(*args, **kwargs)
            except _Refused as refused:
                error = refused.error
        raise error

    return run


@_transaction
def submit_orders(
    game_id: int, side: str, text: str, *, source: str, by: str = "", ready: bool = True, command: str | None = None
) -> SubmitResult:
    """Record a side's orders for the open turn; the latest before the close counts.

    Orders with any error are refused whole, and the orders accepted before
    stay in force: the player fixes the lines and sends again. ``command``: the seat's
    command where a side has several seats (each orders only its own units; the umpire
    acting for such a side orders as its commander).
    """
    text = clean_text(text)
    if len(text) > MAX_ORDERS_CHARS:  # every channel (web, API, mail): the log keeps orders for good
        why = _("orders are at most %(most)s characters (these are %(n)s): send the orders alone") % {
            "most": MAX_ORDERS_CHARS,
            "n": len(text),
        }
        return SubmitResult(accepted=False, errors=[LineError(0, "", why)])
    limited = ratelimit.hit(
        f"orders:{game_id}:{side}:{command or ''}",
        settings.ORDERS_PER_SEAT_PER_MINUTE,
        60,
    )
    if limited:  # a flood would grow the append-only log for good (issue 29): refused, nothing lost
        why = _("too many orders sent in a minute: send again in %(s)s seconds (the orders accepted before stand)") % {
            "s": limited.retry_after
        }
        return SubmitResult(accepted=False, errors=[LineError(0, "", why)], retry_after=limited.retry_after)
    stream, turn, command = _locked_for(game_id, side, command or ("commander" if source == "umpire" else None))
    orders, errors = check_orders(stream.state, side, text, command)
    if errors:
        return SubmitResult(accepted=False, errors=errors, orders=orders)
    if not orders:
        return SubmitResult(accepted=False, errors=[LineError(0, "", _("no orders found"))])
    extra = {"command": command} if command else {}
    drafts = [
        Draft(
            turn.number,
            RuleEvent(
                "orders.submitted",
                {"turn": turn.number, "side": side, "text": text, "source": source, "by": by, **extra},
                audience=side_audience(side),
            ),
        )
    ]
    if ready != _is_ready(turn, side, command):
        drafts.append(
            Draft(turn.number, RuleEvent("side.ready", {"turn": turn.number, "side": side, "ready": ready, **extra}))
        )
    stream = _append(stream, drafts)
    closed = _close_if_due(stream)
    return SubmitResult(accepted=True, closed=closed, orders=orders)


def _locked_for(game_id: int, side: str, command: str | None) -> tuple[Stream, Turn, str]:
    """The game's stream, locked; its open turn and the seat's command; a refusal as ``_Refused``."""
    stream = gamelog.load(game_id, lock=True)
    try:
        return stream, _require_open_for(stream.state, side), _command_of(stream.state, side, command)
    except TurnError as exc:
        raise _Refused(exc) from None


def _is_ready(turn: Turn, side: str, command: str) -> bool:
    if command:
        return command in turn.commands_ready.get(side, {})
    return side in turn.ready


@_transaction
def set_ready(game_id: int, side: str, ready: bool, command: str | None = None) -> bool:
    """Mark a side (or, where a side has several seats, one seat's command) ready or not."""
    stream, turn, command = _locked_for(game_id, side, command)
    sent = command in turn.commands.get(side, {}) if command else side in turn.orders
    if ready and not sent:
        raise _Refused(TurnError(_("send your orders before marking your side ready")))
    if ready != _is_ready(turn, side, command):
        extra = {"command": command} if command else {}
        stream = _append(
            stream,
            [Draft(turn.number, RuleEvent("side.ready", {"turn": turn.number, "side": side, "ready": ready, **extra}))],
        )
    return _close_if_due(stream)


def _require_open_for(state: LifecycleState, side: str) -> Turn:
    turn = state.turn
    if state.status != GameStatus.ACTIVE:
        raise TurnError(_("the game is over"))
    if not started(state):
        raise TurnError(_("the game has not started: it waits for every player and the umpire to accept their seats"))
    if turn.status != TurnStatus.OPEN:
        raise TurnError(_("turn %(number)s is closed; orders for the next turn open with it") % {"number": turn.number})
    if side not in turn.sides:
        raise TurnError(
            _("%(side)s has no orders to give in turn %(number)s")
            % {"side": pgettext("side", side), "number": turn.number}
        )
    return turn


def _close_if_due(stream: Stream) -> bool:
    due = stream.game.close_due_at
    if due is not None and due <= timezone.now():
        close_turn_locked(stream, "all sides ready")
        return True
    return False


# --- closing, adjudicating, publishing ------------------------------------


def close_turn(game_id: int, reason: str, *, turn_number: int | None = None) -> bool:
    """Close the open turn (deadline, all ready, or umpire). False if nothing to close."""
    with transaction.atomic():
        stream = gamelog.load(game_id, lock=True)
        turn = stream.state.turn
        if turn.status != TurnStatus.OPEN or (turn_number is not None and turn.number != turn_number):
            return False
        close_turn_locked(stream, reason)
        return True


def close_turn_locked(stream: Stream, reason: str) -> Stream:
    state = stream.state
    turn = state.turn
    rs = lifecycle.ruleset_of(state)
    drafts = [Draft(turn.number, RuleEvent("turn.closed", {"turn": turn.number, "reason": reason}))]
    for side in turn.sides:
        conflicts = turn.orders.get(side, {}).get("conflicts")
        if conflicts:  # several seats a side: every seat of it is told which lines gave way (LW-61, KS-9)
            drafts.append(
                Draft(
                    turn.number,
                    RuleEvent(
                        "orders.merged",
                        {"turn": turn.number, "side": side, "text": turn.orders[side]["text"], "conflicts": conflicts},
                        audience=side_audience(side),
                    ),
                )
            )
        if side not in turn.orders:
            # A side that sent nothing gets the rule set's default, shown to all as missed.
            text = rs.default_orders(state.rules, side, turn.kind)
            drafts.append(
                Draft(turn.number, RuleEvent("orders.defaulted", {"turn": turn.number, "side": side, "text": text}))
            )
    stream = _append(stream, drafts)
    # One owner: the lease on the game row, then the task queued after commit (handoff.py).
    handoff.queue_after_commit(stream.game.pk, turn.number)
    return stream


def adjudicate(game_id: int, turn_number: int) -> bool:
    """Adjudicate a closed turn exactly once: a second run finds it done and does nothing.

    If the rule set raises (adjudicating, or opening the next turn), nothing of it is appended and
    the turn is held as failed for the umpire (failures.py): never re-queued for ever. The
    database's and the broker's own errors pass on, for ``transient`` and the rescue."""
    try:
        with transaction.atomic():
            stream = gamelog.load(game_id, lock=True)
            turn = stream.state.turn
            if turn.number != turn_number or turn.status != TurnStatus.CLOSED:
                return False
            stream = _append(stream, adjudication_drafts(stream.state, lifecycle.effective_orders(stream.state)))
            if not stream.state.settings["require_approval"]:
                publish_locked(stream)
        return True
    except PASSING_TROUBLES:
        raise
    except Exception as exc:  # the rule set's (or a bug's): held for the umpire, not retried blindly
        failures.record(game_id, turn_number, exc)
        return False


def publish_locked(stream: Stream, *, amended: bool = False, note: str = "") -> Stream:
    turn = stream.state.turn
    drafts = [
        Draft(
            turn.number,
            RuleEvent("turn.published", {"turn": turn.number, "seed": turn.seed, "amended": amended, "note": note}),
        )
    ]
    stream = _append(stream, drafts)
    stream = _append(stream, _open_next_turn(stream.state))
    stream = absences.absent_sides(stream)  # before the reports, which give the deadline
    signals.turn_published.send(sender=__name__, stream=stream, turn_number=turn.number)
    return stream


def approve(game_id: int, turn_number: int, note: str = "") -> None:
    with transaction.atomic():
        stream = gamelog.load(game_id, lock=True)
        turn = stream.state.turn
        if turn.number != turn_number or turn.status != TurnStatus.ADJUDICATED:
            raise TurnError(_("turn %(number)s has no results awaiting approval") % {"number": turn_number})
        # The umpire's events of the turn, by the (game, audience, turn, seq) index: not the whole turn.
        voided = stream.game.events.filter(audience=UMPIRE, turn=turn_number, type="results.voided")
        amended = voided.exists()
        publish_locked(stream, amended=amended, note=note)


def amend(game_id: int, turn_number: int, orders_text: dict[str, str], reason: str) -> list[LineError]:
    """Umpire: void the pending results and adjudicate again with amended orders.

    The same sealed seed is used, so only the orders change. Returns per-line
    errors, each naming its side (nothing is changed if any).
    """
    with transaction.atomic():
        stream = gamelog.load(game_id, lock=True)
        state = stream.state
        turn = state.turn
        if turn.number != turn_number or turn.status != TurnStatus.ADJUDICATED:
            raise TurnError(_("turn %(number)s has no results awaiting approval") % {"number": turn_number})
        merged = {**turn.orders_used, **orders_text}
        errors = []
        for side, text in orders_text.items():
            errors += [replace(e, side=side) for e in check_orders(state, side, clean_text(text))[1]]
        if errors:
            return errors
        merged = {side: clean_text(t) for side, t in merged.items()}
        drafts = [
            Draft(turn_number, RuleEvent("results.voided", {"turn": turn_number, "reason": reason}, audience=UMPIRE))
        ]
        # Each side whose orders changed is told, privately, what it now executes: its report
        # shows the orders the engine carried out, not the ones it sent.
        drafts += [
            Draft(
                turn_number,
                RuleEvent(
                    "orders.amended",
                    {"turn": turn_number, "side": side, "text": merged[side]},
                    audience=side_audience(side),
                ),
            )
            for side in sorted(orders_text)
            if merged[side] != turn.orders_used.get(side)
        ]
        stream = _append(stream, drafts)
        _append(stream, adjudication_drafts(stream.state, merged))
    return []
