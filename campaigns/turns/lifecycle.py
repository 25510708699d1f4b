"""The turn lifecycle as a pure fold over a game's whole log.

No Django here: this module folds platform events (game.*, turn.*, orders.*,
seed.*, results.*) and hands rule-set events to the game's rule set. The state
is a ``LifecycleState`` (state.py) whose JSON form is canonical, so snapshots and replays
are byte-identical.

Result events appended while a turn awaits publication are kept aside in
``pending`` and only folded into ``rules`` when ``turn.published`` arrives: so
an umpire can void and re-adjudicate a turn, and no player ever sees state
that was not published.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from rules import catalog
from rules.core.i18n import from_data
from rules.core.protocol import Viewer

from .state import GameStatus, LifecycleState, Turn, TurnStatus

LIFECYCLE_PREFIXES = ("game.", "turn.", "orders.", "side.", "seed.", "results.")

DEFAULT_SETTINGS = {
    "deadline_hours": 72.0,
    "decision_deadline_hours": 24.0,
    "ready_delay_seconds": 0,
    "require_approval": False,
    "absence_days": 0,  # days each side's absences may push deadlines back, in all (absences.py)
    "grace_hours": 0.0,  # after a missed deadline the late get this long before defaults (lateness.py)
    "umpire_plays": False,  # the umpire may also hold a player seat (invitations.check_seating)
}


def is_lifecycle(event_type: str) -> bool:
    return event_type.startswith(LIFECYCLE_PREFIXES)


def empty_state() -> LifecycleState:
    return LifecycleState()


def to_json(state: LifecycleState) -> dict:
    return state.to_json()


def from_json(data: dict) -> LifecycleState:
    return LifecycleState.from_json(data)


def fold(state: LifecycleState, event_type: str, payload: Mapping[str, Any], seq: int, at: str) -> LifecycleState:
    """Return the state after one event; never mutates ``state``."""
    handler = _HANDLERS.get(event_type)
    if handler is not None:
        return handler(state, payload, seq, at)
    if is_lifecycle(event_type):
        raise ValueError(f"unknown lifecycle event type {event_type!r}")
    if state.turn.status is TurnStatus.ADJUDICATED:
        # Results awaiting publication: keep them aside (see module doc).
        return replace(
            state,
            pending=state.pending + [{"type": event_type, "payload": payload, "seq": seq}],
            pending_from=seq if state.pending_from is None else state.pending_from,
        )
    return replace(state, rules=ruleset_of(state).fold(state.rules, event_type, payload))


def ruleset_of(state: LifecycleState):
    """The game's rule set at the version it is played by (the platform never asks for it any other
    way: a game keeps the rules it started with, rules/README.md "Versions")."""
    return catalog.get(state.ruleset, state.rules_version)


def _turn(state: LifecycleState, **changes) -> LifecycleState:
    return replace(state, turn=replace(state.turn, **changes))


def _game_created(s, p, seq, at):
    version = p.get("rules_version")  # absent in games created before versions were recorded
    return replace(
        s,
        ruleset=p["ruleset"],
        settings={**DEFAULT_SETTINGS, **p.get("settings", {})},
        rules=catalog.get(p["ruleset"], version).initial_state(),
        status=GameStatus.ACTIVE,
        rules_version=version,
    )


def _rules_changed(s, p, seq, at):
    """An umpire moved the game to another version of its rules at a turn boundary
    (campaigns/turns/versions.py): from here on it is folded and adjudicated by that version, and
    its state is carried over by that version's upcaster."""
    new = catalog.get(s.ruleset, p["to"])
    return replace(s, rules=new.carry_over(s.rules, p["from"]), rules_version=p["to"])


def _seed_sealed(s, p, seq, at):
    return _turn(s, seed=p["seed"]) if p["turn"] == s.turn.number else s


def _seed_revealed(s, p, seq, at):
    return s


def _turn_opened(s, p, seq, at):
    return replace(
        s,
        turn=Turn(
            p["turn"],
            status=TurnStatus.OPEN,
            kind=p["kind"],
            sides=list(p["sides"]),
            deadline=p["deadline"],
            commitment=p["commitment"],
            prompt=p.get("prompt", ""),
            opened_at=at,
            prompt_msg=p.get("prompt_msg") or None,
        ),
    )


def prompt_of(turn: Turn) -> str:
    """The turn's prompt, in the reader's language where the rule set marked it (the state keeps it
    as data: snapshots are JSON)."""
    return from_data(turn.prompt_msg) if turn.prompt_msg else turn.prompt


def _turn_deadline_set(s, p, seq, at):
    if p.get("absence"):  # drawn from the side's allowance (absences.py)
        side, hours = p["absence"]["side"], p["absence"]["hours"]
        s = replace(s, absence_used={**s.absence_used, side: s.absence_used.get(side, 0.0) + hours})
    # deadline_version: reminders are keyed by it, so a moved deadline is reminded afresh; a new
    # deadline also ends any grace the old one had opened (lateness.py): it is the turn's end now
    return _turn(s, deadline=p["deadline"], deadline_version=s.turn.deadline_version + 1, late=[], late_until=None)


def _turn_late(s, p, seq, at):
    return _turn(s, late=list(p["missing"]), late_until=p["until"])


def _side_replaced(s, p, seq, at):
    return s  # a record of the handover; the seats themselves live beside the log


def _orders_submitted(s, p, seq, at):
    orders = dict(s.turn.orders)
    entry = {"text": p["text"], "source": p["source"], "seq": seq, "at": at, "by": p.get("by")}
    if not p.get("command"):
        orders[p["side"]] = entry
        return _turn(s, orders=orders)
    # Several players a side: each command's latest orders are kept; the side's orders are the rule
    # set's merge of them (commander first; a conflict drops the later line and is reported).
    commands = {side: dict(c) for side, c in s.turn.commands.items()}
    mine = commands.setdefault(p["side"], {})
    mine[p["command"]] = entry
    text, conflicts = ruleset_of(s).merge_orders(
        s.rules, p["side"], {c: e["text"] for c, e in mine.items()}, s.turn.kind
    )
    orders[p["side"]] = {**entry, "text": text, "conflicts": conflicts}
    return _turn(s, orders=orders, commands=commands)


def _side_ready(s, p, seq, at):
    ready = dict(s.turn.ready)
    if p.get("command"):
        return _command_ready(s, p, at, ready)
    if p.get("ready", True):
        ready[p["side"]] = at
    else:
        ready.pop(p["side"], None)
    return _turn(s, ready=ready)


def _command_ready(s, p, at, ready):
    """A seat of a side with several: the side is ready when every one of its seats is."""
    by_side = {side: dict(c) for side, c in s.turn.commands_ready.items()}
    mine = by_side.setdefault(p["side"], {})
    if p.get("ready", True):
        mine[p["command"]] = at
    else:
        mine.pop(p["command"], None)
    if set(mine) >= set(s.settings.get("teams", {}).get(p["side"], [])):
        ready[p["side"]] = max(mine.values())
    else:
        ready.pop(p["side"], None)
    return _turn(s, ready=ready, commands_ready=by_side)


def _turn_closed(s, p, seq, at):
    return _turn(s, status=TurnStatus.CLOSED, close_reason=p["reason"])


def _adjudication_failed(s, p, seq, at):
    """The rule set raised: the turn is held, closed, with its error (failures.py)."""
    failure = {k: p[k] for k in ("error", "where", "code") if k in p}
    return _turn(s, status=TurnStatus.FAILED, failure=failure)


def _adjudication_retried(s, p, seq, at):
    return _turn(s, status=TurnStatus.CLOSED, failure=None)


def _orders_defaulted(s, p, seq, at):
    side = p["side"]
    s = replace(s, missed={**s.missed, side: s.missed.get(side, 0) + 1})
    return _turn(s, defaulted={**s.turn.defaulted, side: p["text"]})


def _turn_adjudicated(s, p, seq, at):
    s = replace(s, pending=[], pending_from=None)
    return _turn(s, status=TurnStatus.ADJUDICATED, orders_used=p["orders"])


def _orders_amended(s, p, seq, at):
    # A side's notice of the umpire's amendment; the orders that count are in turn.adjudicated.
    return s


def _results_voided(s, p, seq, at):
    voided = s.voided + [[s.pending_from, seq]] if s.pending_from is not None else s.voided
    s = replace(s, voided=voided, pending=[], pending_from=None)
    return _turn(s, status=TurnStatus.CLOSED, orders_used=None)


def _turn_published(s, p, seq, at):
    rs = ruleset_of(s)
    rules_state = preview_rules(s)
    s = replace(s, rules=rules_state, pending=[], pending_from=None, result=rs.result(rules_state))
    return _turn(s, status=TurnStatus.PUBLISHED)


def _game_finished(s, p, seq, at):
    s = replace(s, status=GameStatus.FINISHED, result=p["result"])
    return _turn(s, status=TurnStatus.FINISHED)


_HANDLERS: dict[str, Callable[[LifecycleState, Mapping[str, Any], int, str], LifecycleState]] = {
    "game.created": _game_created,
    "game.rules_changed": _rules_changed,
    "seed.sealed": _seed_sealed,
    "seed.revealed": _seed_revealed,
    "turn.opened": _turn_opened,
    "turn.deadline_set": _turn_deadline_set,
    "turn.late": _turn_late,
    "orders.submitted": _orders_submitted,
    "side.ready": _side_ready,
    "side.replaced": _side_replaced,
    "turn.closed": _turn_closed,
    "turn.adjudication_failed": _adjudication_failed,
    "turn.adjudication_retried": _adjudication_retried,
    "orders.defaulted": _orders_defaulted,
    "turn.adjudicated": _turn_adjudicated,
    "results.voided": _results_voided,
    "orders.amended": _orders_amended,
    "orders.merged": _side_replaced,  # a side's notice of its commands' conflicts: the merge is already folded
    "turn.published": _turn_published,
    "game.finished": _game_finished,
}


def preview_rules(state: LifecycleState) -> Any:
    """The rules state with pending results applied: for the umpire's review only."""
    rs = ruleset_of(state)
    rules_state = state.rules
    for ev in state.pending:
        rules_state = rs.fold(rules_state, ev["type"], ev["payload"])
    return rules_state


def effective_orders(state: LifecycleState) -> dict[str, str]:
    """Orders that count for the closed turn: latest submitted, else the default."""
    turn = state.turn
    out = {}
    for side in turn.sides:
        if side in turn.orders:
            out[side] = turn.orders[side]["text"]
        else:
            out[side] = turn.defaulted.get(side, "")
    return out


def hidden_from(state: LifecycleState, viewer: Viewer):
    """A predicate on seq: True for events this viewer may not see yet."""
    if viewer.is_umpire:
        return lambda seq: False
    ranges = [tuple(r) for r in state.voided]
    pending_from = state.pending_from

    def hidden(seq: int) -> bool:
        if pending_from is not None and seq >= pending_from:
            return True
        return any(a <= seq <= b for a, b in ranges)

    return hidden


def lifecycle_view(state: LifecycleState, viewer: Viewer) -> dict:
    """What a viewer may know of the turn machinery (an allow-list), as plain JSON for pages,
    mail and the API; ``status`` and ``game_status`` are the enums (equal to their strings)."""
    turn = state.turn
    out = {
        "number": turn.number,
        "status": turn.status,
        "kind": turn.kind,
        "sides": list(turn.sides),
        "deadline": turn.deadline,
        "late_until": turn.late_until,
        "commitment": turn.commitment,
        "prompt": prompt_of(turn),
        "ready": sorted(turn.ready),
        "missed": dict(state.missed),
        "game_status": state.status,
        "result": state.result,
    }
    if viewer.is_umpire:
        out["failure"] = turn.failure  # why the adjudication failed (failures.py): the umpire's only
        out["orders"] = {side: o["text"] for side, o in turn.orders.items()}
        out["pending_results"] = len(state.pending)
    elif viewer.command and viewer.side in state.settings.get("teams", {}):
        out.update(_command_view(state, viewer))
    elif viewer.side and viewer.side in turn.orders:
        out["orders"] = {viewer.side: turn.orders[viewer.side]["text"]}
    else:
        out["orders"] = {}
    return out


def _command_view(state: LifecycleState, viewer: Viewer) -> dict:
    """A player of a side with several: their command and what it orders now, their own orders,
    the side's merge of its commands' orders (with any conflicts), and which commands are ready."""
    turn, side, cmd = state.turn, viewer.side, viewer.command
    units = ruleset_of(state).command_units(state.rules, side, cmd)
    own = turn.commands.get(side, {}).get(cmd)
    merged = turn.orders.get(side)
    return {
        "orders": {side: own["text"]} if own else {},
        "command": cmd,
        "command_units": units,
        "side_orders": merged["text"] if merged else "",
        "conflicts": merged.get("conflicts", []) if merged else [],
        "ready_commands": sorted(turn.commands_ready.get(side, {})),
    }


__all__ = [
    "fold",
    "ruleset_of",
    "empty_state",
    "to_json",
    "from_json",
    "LifecycleState",
    "Turn",
    "TurnStatus",
    "GameStatus",
    "effective_orders",
    "hidden_from",
    "lifecycle_view",
    "preview_rules",
]
