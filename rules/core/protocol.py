"""The contract between the platform and every rule set.

The platform never knows a game's mechanics: it stores events, folds them with
the rule set's ``fold``, asks ``next_turn`` who must order, hands orders text to
``parse_orders``/``validate`` and, when a turn closes, calls ``adjudicate``.
Everything a viewer receives is built from ``view(state, viewer)``.

States are plain JSON values (dicts, lists, str, int, bool, None) and are
treated as immutable: ``fold`` returns a new value and never mutates its input.
That keeps snapshots trivial (canonical JSON) and replays byte-identical.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Mapping, Protocol, Sequence

JSON = Any

PUBLIC = "public"
UMPIRE = "umpire"


def side_audience(side: str) -> str:
    """Audience string for events only ``side`` (and the umpire) may see."""
    return f"side:{side}"


@dataclass(frozen=True)
class RuleEvent:
    """An event as a rule set produces it; the event store adds seq and hash.

    ``type`` is a stable name ("civilwar.unit_formed"), ``version`` its schema
    version, ``audience`` one of PUBLIC, UMPIRE or ``side_audience(side)``.
    """

    type: str
    payload: Mapping[str, JSON] = field(default_factory=dict)
    audience: str = PUBLIC
    version: int = 1


@dataclass(frozen=True)
class Viewer:
    """Who is looking: a side's player, the umpire, or an observer (side None)."""

    role: str  # "player" | "umpire" | "observer"
    side: str | None = None
    # Several players a side: the command this player orders ("commander" or None: the whole side).
    # Audiences stay per side: every player of a side sees the side's events.
    command: str | None = None

    @property
    def is_umpire(self) -> bool:
        return self.role == "umpire"

    def may_see(self, audience: str) -> bool:
        """The allow-list rule for event audiences."""
        if self.is_umpire or audience == PUBLIC:
            return True
        return self.role == "player" and self.side is not None and audience == side_audience(self.side)


@dataclass(frozen=True)
class LineError:
    """An error tied to one line of a side's orders text (1-based)."""

    line: int
    text: str
    message: str
    side: str | None = None  # set where one message carries several sides' orders (an umpire's amendment)


@dataclass(frozen=True)
class ParsedOrders:
    """Result of parsing: typed orders (rule-set specific) and per-line errors.

    ``orders`` keep only the lines that parsed; ``errors`` name every line that
    did not, so nothing a player wrote is silently dropped.
    """

    orders: tuple[Any, ...]
    errors: tuple[LineError, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.errors


@dataclass(frozen=True)
class TurnSpec:
    """Who must order next and what kind of turn it is.

    kind: "orders" for a normal turn, "decision" for a short reaction turn
    (e.g. a defender choosing to retreat or die). ``sides`` empty means the
    game is over.
    """

    sides: tuple[str, ...]
    kind: str = "orders"
    prompt: str = ""


class RuleSet(Protocol):
    name: str
    title: str
    sides: tuple[str, ...]
    turn_mode: str  # "simultaneous" | "alternating"
    orders_help: str  # the order language, with examples (shown on web and in mail)

    def initial_state(self) -> JSON: ...

    def load_scenario(self, scenario: JSON | None) -> JSON:
        """Validate a scenario (None = default); raise ScenarioError with a clear message."""

    def setup(self, scenario: JSON, rng: random.Random) -> list[RuleEvent]: ...

    def fold(self, state: JSON, event_type: str, payload: Mapping[str, JSON]) -> JSON: ...

    def next_turn(self, state: JSON) -> TurnSpec: ...

    def parse_orders(self, state: JSON, side: str, text: str, kind: str = "orders") -> ParsedOrders: ...

    def validate(self, state: JSON, side: str, orders: Sequence[Any], kind: str = "orders") -> tuple[LineError, ...]: ...

    def default_orders(self, state: JSON, side: str, kind: str = "orders") -> str: ...

    def adjudicate(self, state: JSON, orders: Mapping[str, Sequence[Any]], rng: random.Random, kind: str = "orders") -> list[RuleEvent]: ...

    def result(self, state: JSON) -> JSON | None:
        """None while the game goes on; else {"winner": side|None, "reason": str, ...}."""

    def view(self, state: JSON, viewer: Viewer) -> JSON: ...

    def render_svg(self, view: JSON) -> str: ...

    def describe_event(self, event_type: str, payload: Mapping[str, JSON]) -> str:
        """One readable line for logs and reports."""


class RulesError(Exception):
    """Base class of errors a rule set raises to the platform."""


class ScenarioError(RulesError):
    """A scenario or map file is invalid; the message says exactly where and why."""
