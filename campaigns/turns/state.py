"""A game's lifecycle state, typed: what the fold (lifecycle.py) makes of a game's log.

No Django here. The state is kept as canonical JSON in snapshots and hashed in tests, so
``to_json`` gives back exactly the JSON value the fold has always written (the same keys, the
same values) and ``from_json`` reads it: an old snapshot loads and writes back byte for byte
(tests/turns/test_state_json.py). Keys the fold only adds once something happened - a moved
deadline, a grace, several seats a side, an absence - stay out of the JSON until then.

Only the turn machinery is typed. What is the rule set's (``rules``), the game's settings
(free-form, from its creation) and one side's orders (``orders`` entries: text, source, seq, at,
by and, for a side of several seats, conflicts) stay plain JSON. Views for pages, mail and the
API are dicts made from this (lifecycle.lifecycle_view).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import StrEnum
from functools import cache
from typing import Any


class TurnStatus(StrEnum):
    """Where a turn stands; the values are the strings stored in snapshots and Game.turn_status."""

    NONE = ""  # no turn yet: the game waits for its seats
    OPEN = "open"
    CLOSED = "closed"  # being adjudicated (or voided, to be adjudicated again)
    ADJUDICATED = "adjudicated"  # results held for the umpire's approval
    FAILED = "adjudication_failed"  # the rule set raised: held for the umpire or a deploy (failures.py)
    PUBLISHED = "published"
    FINISHED = "finished"


class GameStatus(StrEnum):
    NEW = "new"  # before game.created
    ACTIVE = "active"
    FINISHED = "finished"


@dataclass(frozen=True)
class Turn:
    number: int
    status: TurnStatus = TurnStatus.NONE
    kind: str = "orders"
    sides: list[str] = field(default_factory=list)
    deadline: str | None = None  # ISO time
    commitment: str | None = None  # the sealed seed's public commitment
    seed: str | None = None  # umpire-only until published
    prompt: str = ""
    orders: dict[str, dict] = field(default_factory=dict)  # side -> its latest orders entry
    ready: dict[str, str] = field(default_factory=dict)  # side -> when it said ready
    defaulted: dict[str, str] = field(default_factory=dict)  # side -> the default orders it was given
    close_reason: str | None = None
    orders_used: dict[str, str] | None = None  # the orders adjudicated, while results are pending
    opened_at: str | None = None
    prompt_msg: dict[str, Any] | None = None  # the prompt as marked text (rules.core.i18n), out of the JSON until set
    # Kept out of the JSON until set (see the module doc):
    deadline_version: int = 0  # how often the deadline moved; reminders are keyed by it
    late: list[str] | None = None  # the late sides of a grace; [] once a deadline moved; None: neither
    late_until: str | None = None  # the grace's end; written whenever ``late`` is
    commands: dict[str, dict[str, dict]] = field(default_factory=dict)  # side -> command -> orders entry
    commands_ready: dict[str, dict[str, str]] = field(default_factory=dict)  # side -> command -> when
    failure: dict[str, Any] | None = None  # why the adjudication failed (failures.py), while it stands

    @property
    def is_open(self) -> bool:
        return self.status is TurnStatus.OPEN

    def to_json(self) -> dict[str, Any]:
        out = {name: getattr(self, name) for name in _names(type(self)) if name not in _TURN_OPTIONAL}
        out["status"] = str(self.status)
        if self.deadline_version:
            out["deadline_version"] = self.deadline_version
        if self.late is not None:
            out["late"], out["late_until"] = self.late, self.late_until
        for name in ("commands", "commands_ready", "prompt_msg", "failure"):
            if getattr(self, name):
                out[name] = getattr(self, name)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Turn:
        _check_keys(cls, data, _TURN_OPTIONAL)
        return cls(**{**data, "status": TurnStatus(data["status"])})


_TURN_OPTIONAL = {"deadline_version", "late", "late_until", "commands", "commands_ready", "prompt_msg", "failure"}


@dataclass(frozen=True)
class LifecycleState:
    ruleset: str | None = None
    settings: dict[str, Any] = field(default_factory=dict)
    rules: Any = None  # the rule set's own state (rules/)
    status: GameStatus = GameStatus.NEW
    turn: Turn = field(default_factory=lambda: Turn(0))
    pending: list[dict] = field(default_factory=list)  # results held for approval: {type, payload, seq}
    pending_from: int | None = None  # seq of the first of them
    voided: list[list[int]] = field(default_factory=list)  # [first, last] seq of voided results
    missed: dict[str, int] = field(default_factory=dict)  # side -> turns it defaulted
    result: Any = None  # the rule set's result once there is one
    absence_used: dict[str, float] = field(
        default_factory=dict
    )  # side -> hours drawn (absences.py); out of the JSON until set
    # The rules' version the game is played by (game.created, then any game.rules_changed); None:
    # a game created before versions were recorded (rules/README.md, "Versions"). Out of the JSON
    # while None, so such a game's snapshots are what they always were.
    rules_version: int | None = None

    @property
    def started(self) -> bool:
        """Has the game's first turn opened (or the game ended)? Before, it waits for its seats."""
        return self.turn.number > 0 or self.status is GameStatus.FINISHED

    def to_json(self) -> dict[str, Any]:
        out = {name: getattr(self, name) for name in _names(type(self)) if name not in _STATE_OPTIONAL}
        out["status"], out["turn"] = str(self.status), self.turn.to_json()
        if self.absence_used:
            out["absence_used"] = self.absence_used
        if self.rules_version is not None:
            out["rules_version"] = self.rules_version
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LifecycleState:
        _check_keys(cls, data, _STATE_OPTIONAL)
        return cls(**{**data, "status": GameStatus(data["status"]), "turn": Turn.from_json(data["turn"])})


_STATE_OPTIONAL = {"absence_used", "rules_version"}


@cache
def _names(cls: type) -> tuple[str, ...]:
    """The names of a state class's fields, in order: ``dataclasses.fields`` builds its tuple anew on
    every call, and every load and snapshot of a game asks a few times (mail-in: ~3 % of a message)."""
    return tuple(f.name for f in fields(cls))


def _check_keys(cls, data: dict[str, Any], optional: set[str]) -> None:
    """A stored state that would not come back the same is refused: a key this code does not
    know would be dropped, a missing one filled in."""
    names = set(_names(cls))
    unknown, missing = set(data) - names, names - optional - set(data)
    if unknown:
        raise ValueError(f"{cls.__name__}: unknown keys {sorted(unknown)} in a stored state")
    if missing:
        raise ValueError(f"{cls.__name__}: missing keys {sorted(missing)} in a stored state")


__all__ = ["TurnStatus", "GameStatus", "Turn", "LifecycleState"]
