"""The few commands that change a game. Each is one transaction that appends events.

Every command locks the game row (the stream head) before it reads state, so
commands on one game are serialized; the expected-sequence check in the event
store is the backstop. Work that must follow a commit (adjudication, mail) is
queued with ``transaction.on_commit`` so a rolled-back command queues nothing.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _, pgettext

from rules.core import dice, registry
from rules.core.i18n import to_data
from rules.core.protocol import UMPIRE, LineError, RuleEvent, side_audience

from . import eventstore, lifecycle, reports
from .eventstore import Draft, Stream
from .models import Campaign, Event, Game, Seat


class TurnError(Exception):
    """A command that cannot be applied now; the message says why, in the player's terms."""


@dataclass
class SubmitResult:
    accepted: bool
    errors: list[LineError] = field(default_factory=list)
    closed: bool = False
    orders: list = field(default_factory=list)  # as the rule set parsed them (mail acknowledgements list them)


def projection(state: dict) -> dict:
    """Game columns the sweeper and lists need, derived from the folded log."""
    turn = state["turn"]
    # in a grace after the deadline (lateness.py) the turn closes when the grace ends
    due = turn.get("late_until") or turn["deadline"]
    deadline = parse_datetime(due) if due and turn["status"] == "open" else None
    close_due = None
    if turn["status"] == "open" and turn["sides"] and all(s in turn["ready"] for s in turn["sides"]):
        last_ready = max(parse_datetime(turn["ready"][s]) for s in turn["sides"])
        close_due = last_ready + timedelta(seconds=state["settings"]["ready_delay_seconds"])
    return {
        "status": Game.Status.FINISHED if state["status"] == "finished" else Game.Status.ACTIVE,
        "turn_number": turn["number"],
        "turn_status": turn["status"],
        "deadline_at": deadline,
        "close_due_at": close_due,
    }


def _append(stream: Stream, drafts: list[Draft]) -> Stream:
    return eventstore.append(stream, drafts, projection=projection)


def append_lifecycle(stream: Stream, drafts: list[Draft]) -> Stream:
    """Append turn-machinery events with the game's columns kept in step (for lateness, absences)."""
    return _append(stream, drafts)


# --- creating a game ------------------------------------------------------

def create_game(*, campaign: Campaign, name: str, ruleset: str, seats: list[dict],
                scenario=None, settings: dict | None = None, operator: bool = False, created_by=None,
                commands: dict | None = None, options: dict | None = None) -> Game:
    """Create a game with its seats and set it up from the scenario.

    ``seats``: dicts with role, side (players), user, (several players a side) command, and
    (operator only) email. ``commands``: ``{side: {command: [group and gun names]}}`` laid over
    the scenario's own (LW-61, KS-9; rule sets with ``merge_orders`` only). ``options``: the rule
    set's ``game_options`` chosen (``{name: value}``), put into the scenario by the rule set; the
    scenario's name and the options chosen are public in ``game.created``.

    ``operator=True`` (load_demo, tests, scripts): every seat is taken at once with the address
    given, and turn 1 opens now. Otherwise (the web) naming a user only invites them
    (invitations.py): no address may be given, the creator's own seats are taken at once with
    their verified address (if they have one), and turn 1 opens when every player and the umpire
    have accepted. Either way a user holds one seat, unless the game's ``umpire_plays`` setting
    lets the umpire also hold one player seat.
    """
    from . import invitations

    rs = registry.get(ruleset)
    chosen = {k: v for k, v in (options or {}).items() if v}
    scenario = rs.load_scenario(_with_commands(rs, rs.with_options(scenario, chosen), commands))
    settings = {**lifecycle.DEFAULT_SETTINGS, **(settings or {})}
    teams = _teams(rs, seats)
    if teams:
        settings["teams"] = teams
    if not operator and any(s.get("email") for s in seats):
        raise TurnError("a seat's mail address is its player's own verified address: it cannot be given here")
    try:
        invitations.check_seating([(s["role"], s.get("user")) for s in seats], bool(settings["umpire_plays"]))
    except invitations.InvitationError as exc:
        raise TurnError(str(exc)) from exc
    with transaction.atomic():
        game = Game.objects.create(campaign=campaign, name=name, ruleset=ruleset, created_by=created_by)
        stream = eventstore.load(game, lock=True)
        seed = dice.new_seed()
        drafts = [
            Draft(0, RuleEvent("game.created", {"ruleset": ruleset, "name": name, "settings": settings,
                                                "scenario": {"name": scenario.get("name"), "title": scenario.get("title"),
                                                             "options": chosen},
                                                "setup_commitment": dice.commitment(seed)})),
            Draft(0, RuleEvent("seed.sealed", {"turn": 0, "seed": seed}, audience=UMPIRE)),
        ]
        drafts += [Draft(0, ev) for ev in rs.setup(scenario, dice.rng_for(seed, "setup"))]
        drafts.append(Draft(0, RuleEvent("seed.revealed", {"turn": 0, "seed": seed})))
        stream = _append(stream, drafts)
        _check_commands(rs, stream.state["rules"], teams)
        invited = []
        for s in seats:
            seat = Seat(game=game, role=s["role"], side=s.get("side", ""), user=s.get("user"),
                        command=s.get("command") or "")
            address = s["email"] if operator else _creators_own(s, created_by)
            if address:
                seat.email, seat.accepted_at = address, timezone.now()
                seat.save()
            else:
                invited.append(invitations.offer(seat, s.get("user")))
        for seat in invited:  # once every seat exists, so each invitation names them all
            invitations.mail_invitation(seat, by=created_by)
        invitations.start_if_ready(stream)
    game.refresh_from_db()
    return game


def _with_commands(rs, scenario, commands: dict | None):
    """The scenario with the game's commands over it (a built-in scenario by name becomes its base)."""
    if not commands:
        return scenario
    if not hasattr(rs, "merge_orders"):
        raise TurnError(f"{rs.title} is played by one player a side: it has no commands")
    if scenario is None:
        scenario = rs.load_scenario(None)["name"]
    return {**({"base": scenario} if isinstance(scenario, str) else scenario), "commands": commands}


def _teams(rs, seats: list[dict]) -> dict[str, list[str]]:
    """{side: [commands]} for the sides held by several seats (LW-61, KS-9); a side's only seat
    holds the whole side. Raises TurnError naming what is wrong."""
    by_side: dict[str, list[str]] = {side: [] for side in rs.sides}
    for s in seats:
        if s["role"] != Seat.Role.PLAYER:
            continue
        if s.get("side") not in by_side:
            raise TurnError(f"{s.get('side')!r} is not a side of {rs.title}: the sides are {', '.join(rs.sides)}")
        by_side[s["side"]].append(s.get("command") or "")
    missing = [side for side, cmds in by_side.items() if not cmds]
    if missing:
        raise TurnError(f"{rs.title} needs a player for each of: {', '.join(rs.sides)} (none for {', '.join(missing)})")
    teams = {}
    for side, cmds in by_side.items():
        if len(cmds) == 1 and not cmds[0]:
            continue
        if not hasattr(rs, "merge_orders"):
            raise TurnError(f"{rs.title} is played by one player a side: {side} has {len(cmds)}")
        if "" in cmds or len(set(cmds)) != len(cmds):
            raise TurnError(f"{side} has several players: each names its own command (or 'commander' for the "
                            f"whole side), and no two the same")
        teams[side] = sorted(cmds)
    return teams


def _check_commands(rs, rules_state, teams: dict[str, list[str]]) -> None:
    """Every seat's command is one of the scenario's for its side, and every command is held (or a
    commander holds the whole side)."""
    for side, cmds in teams.items():
        known = rs.commands(rules_state, side)
        unknown = [c for c in cmds if c != "commander" and c not in known]
        if unknown:
            raise TurnError(f"{side} has no command {', '.join(unknown)}: the scenario's commands for {side} are "
                            f"{', '.join(known) or 'none (give the scenario commands)'}, and 'commander'")
        unheld = [c for c in known if c not in cmds]
        if unheld and "commander" not in cmds:
            raise TurnError(f"nobody orders {side}'s {', '.join(unheld)}: give each command a player, or seat a commander")


def _creators_own(seat: dict, created_by) -> str:
    """The creator takes their own seats at once, at their verified address ("": only an invitation)."""
    from .mailaddress import verified_address

    return verified_address(created_by) if created_by is not None and seat.get("user") == created_by else ""


def started(state: dict) -> bool:
    """Has the game's first turn opened (or the game ended)? Before, it waits for its seats."""
    return state["turn"]["number"] > 0 or state["status"] == "finished"


def start_game(stream: Stream) -> Stream:
    """Open turn 1 (its deadline counts from now) and send every seat the game's first mail."""
    stream = _append(stream, _open_next_turn(stream.state))
    stream = _absent_sides(stream)
    reports.queue_game_start(stream)
    return stream


def _open_next_turn(state: dict) -> list[Draft]:
    rs = registry.get(state["ruleset"])
    result = rs.result(state["rules"])
    spec = rs.next_turn(state["rules"])
    number = state["turn"]["number"] + 1
    if result is not None or not spec.sides:
        return [Draft(state["turn"]["number"], RuleEvent("game.finished", {"result": result}))]
    hours = state["settings"]["decision_deadline_hours" if spec.kind == "decision" else "deadline_hours"]
    deadline = timezone.now() + timedelta(hours=float(hours))
    seed = dice.new_seed()
    # The commitment is public with the turn; the seed itself is umpire-only
    # until turn.published reveals it.
    return [
        Draft(number, RuleEvent("turn.opened", {
            "turn": number, "kind": spec.kind, "sides": list(spec.sides), "prompt": spec.prompt,
            **({"prompt_msg": to_data(spec.prompt)} if to_data(spec.prompt) else {}),  # shown in each reader's language
            "deadline": deadline.isoformat(), "commitment": dice.commitment(seed)})),
        Draft(number, RuleEvent("seed.sealed", {"turn": number, "seed": seed}, audience=UMPIRE)),
    ]


# --- orders -----------------------------------------------------------------

def check_orders(state: dict, side: str, text: str, command: str = "") -> tuple[list, list[LineError]]:
    rs = registry.get(state["ruleset"])
    kind = state["turn"]["kind"]
    parsed = rs.parse_orders(state["rules"], side, text, kind)
    errors = list(parsed.errors) + list(rs.validate(state["rules"], side, parsed.orders, kind))
    if command:  # a seat of a side with several: only its own command's units (LW-61, KS-9)
        errors += list(rs.command_errors(state["rules"], side, command, parsed.orders))
    return list(parsed.orders), sorted(errors, key=lambda e: e.line)


def _command_of(state: dict, side: str, command: str | None) -> str:
    """The seat's command if its side has several seats, "" for a side's only seat."""
    if side not in state["settings"].get("teams", {}):
        return ""
    if not command:
        raise TurnError(_("%(side)s is played by several players: orders come from a seat's command") % {"side": side})
    return command


def clean_text(text: str) -> str:
    # NUL cannot be stored in PostgreSQL JSON and is never part of an order.
    return text.replace("\x00", "").replace("\r\n", "\n").strip()


def submit_orders(game_id: int, side: str, text: str, *, source: str, by: str = "", ready: bool = True,
                  command: str | None = None) -> SubmitResult:
    """Record a side's orders for the open turn; the latest before the close counts.

    Orders with any error are refused whole, and the orders accepted before
    stay in force: the player fixes the lines and sends again. ``command``: the seat's
    command where a side has several seats (each orders only its own units; the umpire
    acting for such a side orders as its commander).
    """
    text = clean_text(text)
    with transaction.atomic():
        stream = eventstore.load(game_id, lock=True)
        turn = _require_open_for(stream.state, side)
        command = _command_of(stream.state, side, command or ("commander" if source == "umpire" else None))
        orders, errors = check_orders(stream.state, side, text, command)
        if errors:
            return SubmitResult(accepted=False, errors=errors, orders=orders)
        if not orders:
            return SubmitResult(accepted=False, errors=[LineError(0, "", _("no orders found"))])
        extra = {"command": command} if command else {}
        drafts = [Draft(turn["number"], RuleEvent("orders.submitted", {
            "turn": turn["number"], "side": side, "text": text, "source": source, "by": by, **extra},
            audience=side_audience(side)))]
        if ready != _is_ready(turn, side, command):
            drafts.append(Draft(turn["number"], RuleEvent("side.ready", {
                "turn": turn["number"], "side": side, "ready": ready, **extra})))
        stream = _append(stream, drafts)
        closed = _close_if_due(stream)
    return SubmitResult(accepted=True, closed=closed, orders=orders)


def _is_ready(turn: dict, side: str, command: str) -> bool:
    if command:
        return command in turn.get("commands_ready", {}).get(side, {})
    return side in turn["ready"]


def set_ready(game_id: int, side: str, ready: bool, command: str | None = None) -> bool:
    """Mark a side (or, where a side has several seats, one seat's command) ready or not."""
    with transaction.atomic():
        stream = eventstore.load(game_id, lock=True)
        turn = _require_open_for(stream.state, side)
        command = _command_of(stream.state, side, command)
        sent = command in turn.get("commands", {}).get(side, {}) if command else side in turn["orders"]
        if ready and not sent:
            raise TurnError(_("send your orders before marking your side ready"))
        if ready != _is_ready(turn, side, command):
            extra = {"command": command} if command else {}
            stream = _append(stream, [Draft(turn["number"], RuleEvent(
                "side.ready", {"turn": turn["number"], "side": side, "ready": ready, **extra}))])
        return _close_if_due(stream)


def _require_open_for(state: dict, side: str) -> dict:
    turn = state["turn"]
    if state["status"] != "active":
        raise TurnError(_("the game is over"))
    if not started(state):
        raise TurnError(_("the game has not started: it waits for every player and the umpire to accept their seats"))
    if turn["status"] != "open":
        raise TurnError(_("turn %(number)s is closed; orders for the next turn open with it") % turn)
    if side not in turn["sides"]:
        raise TurnError(_("%(side)s has no orders to give in turn %(number)s") % {"side": pgettext("side", side),
                                                                                  "number": turn['number']})
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
        stream = eventstore.load(game_id, lock=True)
        turn = stream.state["turn"]
        if turn["status"] != "open" or (turn_number is not None and turn["number"] != turn_number):
            return False
        close_turn_locked(stream, reason)
        return True


def close_turn_locked(stream: Stream, reason: str) -> Stream:
    state = stream.state
    turn = state["turn"]
    rs = registry.get(state["ruleset"])
    drafts = [Draft(turn["number"], RuleEvent("turn.closed", {"turn": turn["number"], "reason": reason}))]
    for side in turn["sides"]:
        conflicts = turn["orders"].get(side, {}).get("conflicts")
        if conflicts:  # several seats a side: every seat of it is told which lines gave way (LW-61, KS-9)
            drafts.append(Draft(turn["number"], RuleEvent("orders.merged", {
                "turn": turn["number"], "side": side, "text": turn["orders"][side]["text"], "conflicts": conflicts},
                audience=side_audience(side))))
        if side not in turn["orders"]:
            # A side that sent nothing gets the rule set's default, shown to all as missed.
            text = rs.default_orders(state["rules"], side, turn["kind"])
            drafts.append(Draft(turn["number"], RuleEvent("orders.defaulted", {"turn": turn["number"], "side": side, "text": text})))
    stream = _append(stream, drafts)
    game_id, number = stream.game.pk, turn["number"]
    # robust: if queueing fails the turn stays closed and the sweep queues it again.
    transaction.on_commit(lambda: _enqueue_adjudication(game_id, number), robust=True)
    return stream


def _enqueue_adjudication(game_id: int, turn: int) -> None:
    from .tasks import adjudicate_turn

    adjudicate_turn.delay(game_id, turn)


def adjudicate(game_id: int, turn_number: int) -> bool:
    """Adjudicate a closed turn exactly once: a second run finds it done and does nothing."""
    with transaction.atomic():
        stream = eventstore.load(game_id, lock=True)
        turn = stream.state["turn"]
        if turn["number"] != turn_number or turn["status"] != "closed":
            return False
        stream = _append(stream, adjudication_drafts(stream.state, lifecycle.effective_orders(stream.state)))
        if not stream.state["settings"]["require_approval"]:
            publish_locked(stream)
    return True


def adjudication_drafts(state: dict, orders_text: dict[str, str]) -> list[Draft]:
    """The adjudication of the closed turn from its sealed seed: pure given state and orders."""
    rs = registry.get(state["ruleset"])
    turn = state["turn"]
    orders = {side: rs.parse_orders(state["rules"], side, text, turn["kind"]).orders for side, text in orders_text.items()}
    events = rs.adjudicate(state["rules"], orders, dice.rng_for(turn["seed"], "turn"), turn["kind"])
    head = Draft(turn["number"], RuleEvent("turn.adjudicated", {
        "turn": turn["number"], "orders": orders_text, "count": len(events)}, audience=UMPIRE))
    return [head] + [Draft(turn["number"], ev) for ev in events]


def publish_locked(stream: Stream, *, amended: bool = False, note: str = "") -> Stream:
    turn = stream.state["turn"]
    drafts = [Draft(turn["number"], RuleEvent("turn.published", {
        "turn": turn["number"], "seed": turn["seed"], "amended": amended, "note": note}))]
    stream = _append(stream, drafts)
    stream = _append(stream, _open_next_turn(stream.state))
    stream = _absent_sides(stream)  # before the reports, which give the deadline
    from .reports import queue_turn_reports

    queue_turn_reports(stream, turn["number"])
    return stream


def approve(game_id: int, turn_number: int, note: str = "") -> None:
    with transaction.atomic():
        stream = eventstore.load(game_id, lock=True)
        turn = stream.state["turn"]
        if turn["number"] != turn_number or turn["status"] != "adjudicated":
            raise TurnError(f"turn {turn_number} has no results awaiting approval")
        amended = any(e.type == "results.voided" for e in stream.game.events.filter(turn=turn_number))
        publish_locked(stream, amended=amended, note=note)


def amend(game_id: int, turn_number: int, orders_text: dict[str, str], reason: str) -> list[LineError]:
    """Umpire: void the pending results and adjudicate again with amended orders.

    The same sealed seed is used, so only the orders change. Returns per-line
    errors, each naming its side (nothing is changed if any).
    """
    with transaction.atomic():
        stream = eventstore.load(game_id, lock=True)
        state = stream.state
        turn = state["turn"]
        if turn["number"] != turn_number or turn["status"] != "adjudicated":
            raise TurnError(f"turn {turn_number} has no results awaiting approval")
        merged = {**turn["orders_used"], **orders_text}
        errors = []
        for side, text in orders_text.items():
            errors += [replace(e, side=side) for e in check_orders(state, side, clean_text(text))[1]]
        if errors:
            return errors
        merged = {side: clean_text(t) for side, t in merged.items()}
        drafts = [Draft(turn_number, RuleEvent("results.voided", {"turn": turn_number, "reason": reason}, audience=UMPIRE))]
        # Each side whose orders changed is told, privately, what it now executes: its report
        # shows the orders the engine carried out, not the ones it sent.
        drafts += [Draft(turn_number, RuleEvent("orders.amended", {"turn": turn_number, "side": side, "text": merged[side]},
                                                audience=side_audience(side)))
                   for side in sorted(orders_text) if merged[side] != turn["orders_used"].get(side)]
        stream = _append(stream, drafts)
        _append(stream, adjudication_drafts(stream.state, merged))
    return []


# --- the deadline -------------------------------------------------------------

def _absent_sides(stream: Stream) -> Stream:
    from .absences import deadline_drafts

    drafts = deadline_drafts(stream)
    return _append(stream, drafts) if drafts else stream


def absence_declared(game_id: int) -> dict | None:
    """A seat has declared an absence: move the open turn's deadline if the game's allowance says so,
    and tell every player. The turn as it is now, if its deadline moved; else None."""
    from . import reminders

    with transaction.atomic():
        stream = eventstore.load(game_id, lock=True)
        moved = _absent_sides(stream)
        if moved is stream:
            return None
        reminders.notify_deadline(moved.game, moved.state["turn"], "a player is away")
    return moved.state["turn"]


DEADLINE_MIN_AHEAD = timedelta(minutes=5)
DEADLINE_MAX_AHEAD = timedelta(days=60)


def moved_deadline(game_id: int, turn_number: int, hours: float) -> datetime:
    """The open turn's present deadline moved by ``hours`` (for "give them two more days")."""
    turn = eventstore.load(game_id).state["turn"]
    if turn["status"] != "open" or turn["number"] != turn_number or not turn["deadline"]:
        raise TurnError(f"turn {turn_number} is not open: only an open turn's deadline can move")
    return parse_datetime(turn["deadline"]) + timedelta(hours=hours)


def set_deadline(game_id: int, turn_number: int, deadline: datetime, note: str = "") -> datetime:
    """Umpire: move the open turn's deadline, later or earlier; every player is told by mail.

    The event is public (a deadline is everyone's); ``note`` goes with it to everyone, so it
    is the umpire's public word, one line. Reminders start afresh for the new deadline.
    """
    from . import reminders

    if deadline.tzinfo is None:
        raise TurnError(_("give the new deadline with its time zone"))
    note = " ".join(note.split())[:200]
    with transaction.atomic():
        stream = eventstore.load(game_id, lock=True)
        turn = stream.state["turn"]
        if turn["status"] != "open" or turn["number"] != turn_number:
            raise TurnError(_("turn %(number)s is not open: only an open turn's deadline can move") % {"number": turn_number})
        now = timezone.now()
        if deadline < now + DEADLINE_MIN_AHEAD:
            raise TurnError(_("the new deadline must be at least %(minutes)s minutes ahead (close the turn instead to "
                              "process it now)") % {"minutes": int(DEADLINE_MIN_AHEAD.total_seconds() // 60)})
        if deadline > now + DEADLINE_MAX_AHEAD:
            raise TurnError(_("the new deadline can be at most %(days)s days ahead") % {"days": DEADLINE_MAX_AHEAD.days})
        stream = _append(stream, [Draft(turn_number, RuleEvent("turn.deadline_set", {
            "turn": turn_number, "deadline": deadline.isoformat(), "previous": turn["deadline"], "note": note}))])
        reminders.notify_deadline(stream.game, stream.state["turn"], note)
    return deadline


# --- the sweep --------------------------------------------------------------

STUCK_AFTER = timedelta(minutes=2)


def sweep(now: datetime | None = None) -> dict:
    """Close due turns and re-queue adjudications a lost worker left behind.

    Deadlines live in the database; this runs every SWEEP_INTERVAL_SECONDS
    (Celery beat, or the embedded server's own thread).
    """
    from django.db.models import Q

    from . import lateness

    # Only the real clock tells an outage: a sweep asked about another time leaves the heartbeat alone.
    down_since = lateness.beat(timezone.now()) if now is None else None
    now = now or timezone.now()
    closed = given_back = late = 0
    due = Game.objects.filter(status=Game.Status.ACTIVE, turn_status="open").filter(
        Q(deadline_at__lte=now) | Q(close_due_at__lte=now))
    for game_id, deadline, number in due.values_list("pk", "deadline_at", "turn_number"):
        passed = bool(deadline and deadline <= now)
        with transaction.atomic():
            stream = eventstore.load(game_id, lock=True)
            turn = stream.state["turn"]
            if turn["status"] != "open" or turn["number"] != number:
                continue
            if passed and down_since and lateness.give_back(stream, down_since, now):
                given_back += 1
            elif passed and lateness.grant_grace(stream, now):
                late += 1
            else:
                close_turn_locked(stream, "deadline passed" if passed else "all sides ready")
                closed += 1
    requeued = 0
    for game_id, number in Game.objects.filter(status=Game.Status.ACTIVE, turn_status="closed").values_list("pk", "turn_number"):
        last = Event.objects.filter(game_id=game_id).order_by("-seq").values_list("created_at", flat=True).first()
        if last and now - last >= STUCK_AFTER:
            _enqueue_adjudication(game_id, number)
            requeued += 1
    from .reminders import mail_sweep

    return {"closed": closed, "requeued": requeued, "given_back": given_back, "late": late, **mail_sweep(now)}
