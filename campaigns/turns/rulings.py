"""The umpire's desk on the platform: umpire-only orders a rule set turns into result events.

A rule set offers a desk by being a ``rules.core.protocol.UmpireDesk`` (``umpire_orders(state, text)
-> (events, line errors)``)
(Kriegspiel does: notes, reveals, ledger corrections, rulings that kill or revive,
disputed sightings; see its RULES.md). The events are appended to the current turn:
while a turn's results await approval they join them and are published with them (so
an umpire's narrative reaches each side in that turn's report); otherwise they take
effect at once. Nothing is appended if any line is wrong.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from rules import catalog
from rules.core.protocol import LineError, UmpireDesk

from . import gamelog, lifecycle
from .errors import TurnError
from .gamelog import Draft
from .state import GameStatus, TurnStatus


def has_desk(ruleset_name: str) -> bool:
    return isinstance(catalog.get(ruleset_name), UmpireDesk)


def rule(game_id: int, text: str) -> tuple[int, list[LineError]]:
    """Apply the umpire's orders ``text``: (events appended, errors); nothing is appended on any error."""
    with transaction.atomic():
        stream = gamelog.load(game_id, lock=True)
        state = stream.state
        rs = lifecycle.ruleset_of(state)
        if not isinstance(rs, UmpireDesk):
            raise TurnError(
                _("%(ruleset)s has no umpire's desk: rule by amending orders instead") % {"ruleset": rs.title}
            )
        if state.status != GameStatus.ACTIVE:
            raise TurnError(_("the game is over"))
        awaiting = state.turn.status == TurnStatus.ADJUDICATED
        rules_state = lifecycle.preview_rules(state) if awaiting else state.rules
        events, errors = rs.umpire_orders(rules_state, text)
        if errors:
            return 0, list(errors)
        if events:
            gamelog.append(stream, [Draft(state.turn.number, ev) for ev in events])
        return len(events), []
