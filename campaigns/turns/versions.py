"""Which version of its rules a game is played by, and the umpire's move to a newer one.

A game keeps the rules it was created with (``game.created``'s ``rules_version``): its turns are
folded, adjudicated and verified by that version however the code moves on (rules/README.md,
"Versions"). It moves to a newer version only by the umpire's decision, written into the log as
``game.rules_changed`` at a turn boundary: while a turn is open and nobody has ordered in it yet,
so no orders are read by one version and adjudicated by another, and every turn is verified by
the version that adjudicated it.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.i18n import render
from rules import catalog
from rules.core.protocol import PUBLIC, RuleEvent, RulesError

from . import gamelog
from .errors import TurnError
from .gamelog import Draft
from .state import GameStatus, LifecycleState, TurnStatus


@dataclass(frozen=True)
class VersionInfo:
    """A game's rules version beside the newest this code has, and what each newer one changed."""

    ruleset: str
    played_by: int  # the version recorded (1 for a game recorded before versions were)
    recorded: bool  # False: the game predates recorded versions (its log's flags tell its rules)
    newest: int
    newer: dict[int, str]  # version -> what it changed, for the versions above the game's


def version_info(state: LifecycleState) -> VersionInfo:
    rs = catalog.get(state.ruleset)
    played = state.rules_version or rs.unrecorded_version(state.rules)
    newer = {v: what for v, what in sorted(rs.versions.items()) if v > played}
    return VersionInfo(state.ruleset, played, state.rules_version is not None, rs.version, newer)


def boundary_error(state: LifecycleState) -> str | None:
    """Why the game is not at a turn boundary now (None: it is)."""
    if state.status is not GameStatus.ACTIVE:
        return _("the game is over") if state.status is GameStatus.FINISHED else _("the game has not been set up")
    turn = state.turn
    if turn.status is TurnStatus.NONE:
        return None  # waiting for its seats: no turn has opened yet
    if turn.status is not TurnStatus.OPEN:
        return _("turn %(turn)s is being adjudicated: change the rules once the next turn opens") % {
            "turn": turn.number
        }
    if turn.orders or turn.ready or turn.commands:
        return _(
            "orders have been given in turn %(turn)s: the rules can change only before anyone orders in a turn"
        ) % {"turn": turn.number}
    return None


def change_rules_version(game_id: int, version: int, *, by: str, reason: str = "") -> LifecycleState:
    """The umpire moves the game to ``version`` of its rules (newer than its own), at a turn
    boundary; a public ``game.rules_changed`` says so to everyone. TurnError says why not."""
    with transaction.atomic():
        stream = gamelog.load(game_id, lock=True)
        state = stream.state
        info = version_info(state)
        if version <= info.played_by:
            raise TurnError(
                _("the game is played by version %(current)s of its rules: it can only move to a newer one")
                % {"current": info.played_by}
            )
        why = boundary_error(state)
        if why:
            raise TurnError(why)
        try:  # the new version's upcaster must take the state (it is run again by the fold)
            target = catalog.get(state.ruleset, version)
            moved = target.carry_over(state.rules, state.rules_version)
        except RulesError as exc:
            raise TurnError(render(exc.args[0]) if exc.args else str(exc)) from exc
        # A version kept by the flags its log carries is one object for every version: its upcaster
        # can only record the newest, so moving to one in between would record (and play) another
        lands_on = target.unrecorded_version(moved)
        if lands_on > version:
            raise TurnError(
                _("this game can move only to version %(newest)s of its rules, not to version %(version)s")
                % {"newest": lands_on, "version": version}
            )
        payload = {"from": state.rules_version, "to": version, "by": by, "reason": reason.strip()[:500]}
        stream = gamelog.append(stream, [Draft(state.turn.number, RuleEvent("game.rules_changed", payload, PUBLIC))])
        return stream.state


__all__ = ["VersionInfo", "version_info", "boundary_error", "change_rules_version"]
