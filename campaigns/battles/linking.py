"""The campaign's flow: a strategic game's battles spawned as games, their results carried back.

When a strategic game (a rule set with rules.core.protocol.Strategic, in a game that fights its
battles) publishes a turn that joined a battle, the battle is recorded (record.py) and, by the game's
``battle_ruleset`` setting, fought as a new game of that tactical rule set with the same players and
umpire (their seats in the campaign's game are their consent), resolved at once by the strategic
rules (``"rules"``), or left for the umpire to choose (``"ask"``). When a battle game ends, its
result is read back by its rule set and folded into the strategic game as that game's own event
(after the umpire's review when ``battle_review`` is on; the umpire may amend it, and the amendment is
recorded and shown). Everything here runs inside the command whose turn it follows, so a battle
exists exactly when the turn that joined it is published, and a result is carried back exactly once
(the record says so, and the strategic rule set refuses a battle already decided).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import Game, Seat
from campaigns.turns import creation, gamelog, lifecycle, signals
from campaigns.turns.errors import TurnError
from campaigns.turns.gamelog import Draft
from campaigns.turns.state import GameStatus, TurnStatus
from rules import catalog
from rules.core.protocol import RuleEvent, RulesError, Strategic, Tactical

from . import record
from .record import Battle

RULES = "rules"  # battle_ruleset: the strategic rules decide
ASK = "ask"  # battle_ruleset: the umpire chooses, battle by battle
DEFAULT_RULESET = "littlewars"


def connect() -> None:
    signals.turn_published.connect(on_turn_published, dispatch_uid="kriegsbrief-battles")


def tactical_names() -> list[str]:
    """The rule sets that can fight a battle, by name."""
    return [n for n in catalog.names() if isinstance(catalog.get(n), Tactical)]


def check_setting(value: Any) -> str:
    """A ``battle_ruleset`` setting checked: a tactical rule set, "rules" or "ask"; TurnError else."""
    allowed = [*tactical_names(), RULES, ASK]
    if value not in allowed:
        raise TurnError(
            _("battle_ruleset: %(value)s is not one of %(allowed)s") % {"value": value, "allowed": ", ".join(allowed)}
        )
    return str(value)


def on_turn_published(sender=None, stream=None, turn_number=None, **kwargs) -> None:
    if stream is None:
        return
    rs = lifecycle.ruleset_of(stream.state)
    if isinstance(rs, Strategic):
        _join_new(stream, rs)
    if stream.state.status == GameStatus.FINISHED:
        battle = record.battle_of_game(stream.game.campaign, str(stream.game.uid))
        if battle is not None and battle.status == "fighting":
            _finished(stream, battle)


def _join_new(stream, rs) -> None:
    game = stream.game
    known = record.battles(game.campaign)
    setting = stream.state.settings.get("battle_ruleset", DEFAULT_RULESET)
    if setting not in (*tactical_names(), RULES):
        setting = ASK  # a setting no rule set answers (one retired since): the umpire chooses
    for spec in rs.battles(stream.state.rules):
        key = record.key_of(str(game.uid), spec["battle"])
        if key in known:
            continue
        waiting = "umpire" if setting == ASK else None
        record.append(
            game.campaign, "battle.joined", {**_names(game, spec["battle"]), "spec": spec, "waiting": waiting}
        )
        if setting == RULES:
            _resolve(game, spec["battle"], rs.resolve_by_rules(stream.state.rules, spec["battle"]), "rules")
        elif setting != ASK:
            spawn(game, spec, setting)


def _names(game: Game, battle_id: str) -> dict[str, str]:
    return {"strategic": str(game.uid), "battle": battle_id}


def spawn(strategic: Game, spec: dict[str, Any], ruleset: str) -> Game:
    """Fight ``spec`` as a new game of ``ruleset`` with the strategic game's players and umpire."""
    tactical = catalog.get(ruleset)
    if not isinstance(tactical, Tactical):
        raise TurnError(_("%(ruleset)s cannot fight a battle") % {"ruleset": tactical.title})
    scenario = tactical.battle_scenario({**spec, "id": spec["battle"]})
    place = spec["place"].get("name") or spec["place"]["id"]
    game = creation.create_game(
        campaign=strategic.campaign,
        name=f"{strategic.name}: {spec['battle']}, {place}",
        ruleset=ruleset,
        seats=_seats(strategic),
        scenario=scenario,
        settings=_battle_settings(strategic),
        operator=True,  # the campaign's seats are the consent: every seat taken, turn 1 opens now
        created_by=strategic.created_by,
    )
    record.append(
        strategic.campaign,
        "battle.spawned",
        {**_names(strategic, spec["battle"]), "game": str(game.uid), "ruleset": ruleset, "scenario": scenario["name"]},
    )
    return game


def _seats(strategic: Game) -> list[dict[str, Any]]:
    """The umpire and one player a side (the side's first seat: a battle has no commands)."""
    seats: list[dict[str, Any]] = []
    sides: set[str] = set()
    for seat in strategic.seats.filter(status=Seat.Status.ACTIVE).exclude(email="").order_by("id"):
        if seat.role == Seat.Role.UMPIRE:
            seats.append({"role": "umpire", "user": seat.user, "email": seat.email})
        elif seat.role == Seat.Role.PLAYER and seat.side not in sides:
            sides.add(seat.side)
            seats.append({"role": "player", "side": seat.side, "user": seat.user, "email": seat.email})
    return seats


def _battle_settings(strategic: Game) -> dict[str, Any]:
    """The strategic game's pace, with umpire_plays where its umpire also holds a side."""
    settings = gamelog.load(strategic.pk).state.settings
    keep = ("deadline_hours", "decision_deadline_hours", "grace_hours", "absence_days", "umpire_plays")
    return {k: settings[k] for k in keep if k in settings}


def _finished(stream, battle: Battle) -> None:
    """A battle game is over: its result read back, then carried to the strategic game (or held for review)."""
    rs = lifecycle.ruleset_of(stream.state)
    result = rs.battle_result(stream.state.rules) if isinstance(rs, Tactical) else None
    if result is None:  # the game ended without the rule set's result (an umpire's end): neither won
        result = {"winner": None, "reason": "the battle game ended without a result", "lost": {}}
    game = stream.game
    head = {"seq": stream.seq, "hash": stream.head_hash}
    names = {"strategic": battle.strategic, "battle": battle.battle, "game": str(game.uid)}
    record.append(game.campaign, "battle.finished", {**names, "result": result, "head": head})
    strategic = Game.objects.get(uid=battle.strategic)
    if not gamelog.load(strategic.pk).state.settings.get("battle_review"):
        _resolve(strategic, battle.battle, result, "table", battle_game=game, head=head)


def choose(strategic: Game, battle_id: str, ruleset: str) -> Game | None:
    """The umpire's choice for a battle waiting on it: fight it in ``ruleset``, or "rules"."""
    with transaction.atomic():
        battle = _waiting(strategic, battle_id, "joined")
        if ruleset == RULES:
            state = gamelog.load(strategic.pk).state
            rs = lifecycle.ruleset_of(state)
            _resolve(strategic, battle_id, rs.resolve_by_rules(_rules_state(state), battle_id), "rules")
            return None
        check_setting(ruleset)
        return spawn(strategic, battle.spec, ruleset)


def review(strategic: Game, battle_id: str, amended: dict[str, Any] | None = None, note: str = "") -> None:
    """The umpire passes a finished battle's result on, as it is or amended (recorded with its note)."""
    with transaction.atomic():
        battle = _waiting(strategic, battle_id, "finished")
        result = dict(battle.result or {})
        change = None
        if amended:
            change = {"from": {k: result.get(k) for k in amended}, "to": dict(amended), "note": note}
            result.update(amended)
        game = Game.objects.get(uid=battle.game) if battle.game else None
        _resolve(strategic, battle_id, result, "umpire" if amended else "table", battle_game=game, amended=change)


def _waiting(strategic: Game, battle_id: str, status: str) -> Battle:
    battle = record.battles(strategic.campaign).get(record.key_of(str(strategic.uid), battle_id))
    if battle is None:
        raise TurnError(_("there is no battle %(battle)s in this game") % {"battle": battle_id})
    if battle.status != status:
        raise TurnError(
            _("battle %(battle)s is %(status)s: nothing to do now") % {"battle": battle_id, "status": battle.status}
        )
    return battle


def _rules_state(state) -> Any:
    """The rules state the next events join: the pending results' while a turn awaits approval."""
    return lifecycle.preview_rules(state) if state.turn.status == TurnStatus.ADJUDICATED else state.rules


def _resolve(
    strategic: Game,
    battle_id: str,
    result: dict[str, Any],
    by: str,
    *,
    battle_game: Game | None = None,
    head: dict[str, Any] | None = None,
    amended: dict[str, Any] | None = None,
) -> None:
    """Fold ``result`` into the strategic game as its rule set's events, in its current turn (as an
    umpire's ruling joins it), and record it. A result that ends the strategic game ends it now."""
    with transaction.atomic():
        stream = gamelog.load(strategic.pk, lock=True)
        state = stream.state
        if state.status != GameStatus.ACTIVE:
            raise TurnError(
                _("the strategic game is over: battle %(battle)s can change nothing") % {"battle": battle_id}
            )
        rs = lifecycle.ruleset_of(state)
        try:
            events = rs.resolve_battle(_rules_state(state), battle_id, result, by)
        except RulesError as exc:
            raise TurnError(str(exc)) from exc
        stream = gamelog.append(stream, [Draft(state.turn.number, ev) for ev in events])
        over = rs.result(_rules_state(stream.state))
        if over is not None and stream.state.turn.status != TurnStatus.ADJUDICATED:
            stream = gamelog.append(
                stream, [Draft(stream.state.turn.number, RuleEvent("game.finished", {"result": over}))]
            )
        record.append(
            strategic.campaign,
            "battle.resolved",
            {
                **_names(strategic, battle_id),
                "game": str(battle_game.uid) if battle_game else None,
                "by": by,
                "result": result,
                "amended": amended,
                "head": head,
                "strategic_head": {"seq": stream.seq, "hash": stream.head_hash},
            },
        )
