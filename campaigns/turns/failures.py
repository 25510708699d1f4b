"""A game never wedges on its rule set's exception.

A rule set is code, and code has bugs: an order its ``validate`` let through may make its
``adjudicate`` raise. Re-queued for ever, such a turn is never adjudicated and nobody is told. So
an adjudication that raises (anything but the database's or the broker's passing troubles, which
``transient`` retries) rolls back whole - nothing is appended half-way - and the turn is held as
``adjudication_failed`` by an umpire-only event that keeps the error: the umpire's page shows it
and a mail tells the umpire, ``/healthz`` counts such turns, and the rescue leaves them alone.

It is adjudicated again, from the same orders and sealed seed:
- by the umpire (the umpire's page, ``POST /api/games/<id>/retry/``), e.g. after amending orders;
- after a deploy that changed the rules' code (``RULES_CODE``, a digest of rules/), by the sweep.
"""

from __future__ import annotations

import hashlib
import logging
import traceback
from functools import cache
from pathlib import Path

from django.db import transaction
from django.utils.translation import gettext as _

import rules
from campaigns.models import Game
from rules.core.protocol import UMPIRE, RuleEvent

from . import gamelog, handoff, signals
from .errors import TurnError
from .gamelog import Draft
from .state import TurnStatus

log = logging.getLogger(__name__)

FAILED_EVENT = "turn.adjudication_failed"
RETRIED_EVENT = "turn.adjudication_retried"


@cache
def rules_code() -> str:
    """A digest of the rule sets' code (every file under rules/): a failure recorded under another
    digest is retried, since a deploy may have fixed it."""
    digest = hashlib.sha256()
    root = Path(rules.__file__).parent
    for path in sorted(root.rglob("*")):
        if path.is_file() and path.suffix in (".py", ".json") and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def describe(exc: BaseException) -> dict:
    """The error as the umpire reads it: its kind, its message and where in the rules it arose
    (the innermost frame under rules/, else the innermost). No state, no orders, no seed: the
    event is the umpire's, but a message should not need them."""
    frames = traceback.extract_tb(exc.__traceback__)
    inner = [f for f in frames if "/rules/" in f.filename.replace("\\", "/")] or frames
    where = f"{_short(inner[-1].filename)}:{inner[-1].lineno} in {inner[-1].name}" if inner else ""
    return {"error": f"{type(exc).__name__}: {exc}"[:500], "where": where, "code": rules_code()}


def _short(filename: str) -> str:
    parts = filename.replace("\\", "/").split("/")
    return "/".join(parts[parts.index("rules") :]) if "rules" in parts else parts[-1]


def record(game_id: int, turn_number: int, exc: BaseException) -> bool:
    """Hold the closed turn as failed with ``exc`` (the adjudication's transaction rolled back);
    False if the turn is no longer the closed one (another worker finished it meanwhile)."""
    log.error("game %s turn %s: adjudication failed", game_id, turn_number, exc_info=exc)
    with transaction.atomic():
        stream = gamelog.load(game_id, lock=True)
        turn = stream.state.turn
        if turn.number != turn_number or turn.status is not TurnStatus.CLOSED:
            return False
        payload = {"turn": turn_number, **describe(exc)}
        stream = gamelog.append(stream, [Draft(turn_number, RuleEvent(FAILED_EVENT, payload, audience=UMPIRE))])
        Game.objects.filter(pk=game_id).update(adjudication_leased_until=None)
        signals.adjudication_failed.send(sender=__name__, stream=stream, turn_number=turn_number, failure=payload)
    return True


def retry(game_id: int, *, by: str) -> int:
    """Adjudicate the failed turn again (queued after commit); its number. TurnError if none failed."""
    with transaction.atomic():
        stream = gamelog.load(game_id, lock=True)
        turn = stream.state.turn
        if turn.status is not TurnStatus.FAILED:
            raise TurnError(_("turn %(number)s has not failed: there is nothing to retry") % {"number": turn.number})
        payload = {"turn": turn.number, "by": by}
        gamelog.append(stream, [Draft(turn.number, RuleEvent(RETRIED_EVENT, payload, audience=UMPIRE))])
        handoff.queue_after_commit(game_id, turn.number)
        return turn.number


def retry_after_deploy() -> int:
    """The sweep's part: retry every failed turn whose failure another version of the rules' code
    recorded. The number retried."""
    retried = 0
    for game_id in Game.objects.filter(turn_status=TurnStatus.FAILED).values_list("pk", flat=True):
        failure = gamelog.load(game_id).state.turn.failure or {}
        if failure.get("code") != rules_code():
            try:
                retry(game_id, by="deploy")
            except TurnError:
                continue  # retried or moved on meanwhile
            retried += 1
    return retried
