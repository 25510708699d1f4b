"""The contract between the platform and every rule set.

The platform never knows a game's mechanics: it stores events, folds them with
the rule set's ``fold``, asks ``next_turn`` who must order, hands orders text to
``parse_orders``/``validate`` and, when a turn closes, calls ``adjudicate``.
Everything a viewer receives is built from ``view(state, viewer)``.

States are plain JSON values (dicts, lists, str, int, bool, None) and are
treated as immutable: ``fold`` returns a new value and never mutates its input.
That keeps snapshots trivial (canonical JSON) and replays byte-identical.

The rule of hidden information: nothing in a viewer's output may depend on what
that viewer may not see. ``view(state, viewer)``, the events it may see
(``Viewer.may_see``) with their payloads and ``describe_event`` texts, the map
drawn from its view, the errors its own orders get, and the number and order of
the events it sees must be the same whatever happened out of its sight. So:

- no identifier a viewer sees comes from a count both sides add to: each side
  numbers its own things (works ``red:w1``, prisoner groups ``pow1``...), and a
  thing of one side that becomes public is named in a public count (``blue:p1``)
  or by a label the viewer's own history gives (box tokens), never by its owner's
  hidden number;
- a public event never carries an id or number from a hidden count;
- events are written whether or not a side did something (one private report per
  side per turn), so their number and order tell nothing;
- random draws come from streams that hidden actions cannot shift for anyone else.

The platform keeps the same rule for what it adds (its numbering of a viewer's
log, cursors, mail, the work of answering: campaigns/viewing.py, eventstore.py).
Differential tests play two games that differ only in hidden activity and compare
every byte a viewer gets (tests/rules/kriegspiel/test_ks_leaks.py,
tests/platform/test_hidden_activity.py).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

JSON = Any
State = dict[str, Any]  # a rule set's state (a JSON object): fold returns a new one, never changes its input
Payload = Mapping[str, Any]  # an event's payload (JSON)

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


@dataclass(frozen=True)
class GameOption:
    """A choice made when a game is created (e.g. optional troops by agreement): ``choices`` empty
    means a yes/no option. The chosen values go into the scenario (``RuleSet.with_options``)."""

    name: str
    label: str
    default: Any = False
    choices: tuple[tuple[str, str], ...] = ()


class RuleSet(Protocol):
    """What every rule set offers; the optional capabilities below are declared beside it, and the
    platform asks for one with ``isinstance(rs, UmpireDesk)`` (never ``getattr``)."""

    name: str
    title: str
    # The rules' version (rules/README.md, "Versions"): it changes whenever the events produced for
    # the same state, orders and seed change. A game records the version it was created with and is
    # folded, adjudicated and verified by it for good; ``versions`` says what each one changed.
    version: int

    @property
    def versions(self) -> Mapping[int, str]:
        """{version: what it changed}, for every version this code keeps (1 up to ``version``)."""

    sides: tuple[str, ...]
    turn_mode: str  # "simultaneous" | "alternating"
    orders_help: str  # the order language, with examples (shown on web and in mail)
    # The words (or word pairs) an order line begins with, lower case: mail tells a line of orders
    # from a line of prose by them ("move foot1 to 3,4" is an order, "Cheers, Bob" is not). A line
    # starting with '#' is an order-language comment in every rule set. A word written "* halt"
    # means any one token (the unit's id) and then "halt", for languages that name the unit first.
    order_words: tuple[str, ...]

    game_options: tuple[GameOption, ...]  # chosen at creation (RuleSetBase: none)

    def pinned(self, version: int | None) -> RuleSet:
        """The rule set as it was at ``version`` (None: a game recorded before versions were, which
        its own log's flags tell apart); UnknownRulesVersion for a version never shipped."""

    def carry_over(self, state: JSON, old: int | None) -> JSON:
        """The rules state of a game moving from version ``old`` to this one at a turn boundary
        (an umpire's decision, ``game.rules_changed``): an explicit upcaster, tested. RulesError
        saying why, for a state that cannot be carried over."""

    def unrecorded_version(self, state: JSON) -> int:
        """The version a game recorded before versions were is played by, told from its state."""

    def initial_state(self) -> JSON: ...

    def scenarios(self) -> list[tuple[str, str]]:
        """The shipped scenarios as (name, title), the default first (RuleSetBase: none listed)."""

    def with_options(self, scenario: JSON | None, options: Mapping[str, JSON]) -> JSON | None:
        """``scenario`` (None, a name or an object) with the chosen ``game_options`` in it."""

    def load_scenario(self, scenario: JSON | None) -> JSON:
        """Validate a scenario (None = default); raise ScenarioError with a clear message."""

    def setup(self, scenario: JSON, rng: random.Random) -> list[RuleEvent]: ...

    def fold(self, state: JSON, event_type: str, payload: Mapping[str, JSON]) -> JSON: ...

    def next_turn(self, state: JSON) -> TurnSpec: ...

    def parse_orders(self, state: JSON, side: str, text: str, kind: str = "orders") -> ParsedOrders: ...

    def validate(
        self, state: JSON, side: str, orders: Sequence[Any], kind: str = "orders"
    ) -> tuple[LineError, ...]: ...

    def default_orders(self, state: JSON, side: str, kind: str = "orders") -> str: ...

    def adjudicate(
        self, state: JSON, orders: Mapping[str, Sequence[Any]], rng: random.Random, kind: str = "orders"
    ) -> list[RuleEvent]: ...

    def result(self, state: JSON) -> JSON | None:
        """None while the game goes on; else {"winner": side|None, "reason": str, ...}."""

    def describe_reason(self, reason: JSON) -> JSON:
        """The game-over reason of ``result()`` marked for translation (RuleSetBase: as it is)."""

    def view(self, state: JSON, viewer: Viewer) -> JSON: ...

    def legal_orders(self, board: JSON, side: str | None) -> list[str]:
        """The orders open to ``side`` now, from its own view ``board`` (RuleSetBase: the view's
        ``legal_operations``); shown on the game page."""

    def render_svg(self, view: JSON, crop: bool = False, lang: str = "en") -> str:
        """One viewer's map, from its view only (the contract: rules/core/MAPS.md). ``crop``: for
        the mail's picture, only the region round the viewer's own troops where that is much
        smaller than the table; the web and the API show the whole map. ``lang``: the reader's
        language ("en", "ru"; rules/core/mapwords.py), English by default."""

    def describe_event(self, event_type: str, payload: Mapping[str, JSON]) -> str:
        """One readable line for logs and reports."""


# Optional capabilities. A rule set has one by defining its members (a mix-in such as Little Wars'
# ``Teams`` may bring them); the protocols are runtime-checkable so the platform tests for them
# with isinstance, and mypy checks that a rule set claiming one has the right signatures.


@runtime_checkable
class UmpireDesk(Protocol):
    """Umpire-only orders that become events of the current turn (Kriegspiel's desk: notes,
    reveals, ledger corrections, rulings). Used by campaigns/rulings.py and the umpire's page."""

    umpire_help: str  # the desk's order language, shown beside its form

    def umpire_orders(self, state: JSON, text: str) -> tuple[list[RuleEvent], list[LineError]]:
        """(events, errors) for the umpire's ``text``; any error means no event is appended."""
        ...


@runtime_checkable
class SeveralCommands(Protocol):
    """Several players a side, each ordering one command of it (or ``commander``: the whole side);
    the platform merges their orders into the side's (LW-61, KS-9)."""

    def commands(self, state: JSON, side: str) -> list[str]:
        """The commands of ``side`` the scenario names."""
        ...

    def command_units(self, state: JSON, side: str, command: str | None) -> list[str]:
        """The units ``command`` orders now (None or ``commander``: all of the side's)."""
        ...

    def command_errors(
        self, state: JSON, side: str, command: str | None, orders: Sequence[Any]
    ) -> tuple[LineError, ...]:
        """Errors for orders a command gives to units not its own."""
        ...

    def merge_orders(
        self, state: JSON, side: str, texts: dict[str, str], kind: str = "orders"
    ) -> tuple[str, list[dict[str, Any]]]:
        """One side's orders text from its commands' texts, and the lines dropped as conflicts."""
        ...


@runtime_checkable
class SelfCheck(Protocol):
    """A rule set that can list what is wrong with a state (tests call it after every step)."""

    def check_invariants(self, state: JSON) -> list[str]:
        """Human-readable problems of ``state``; empty when it is sound."""
        ...


@runtime_checkable
class OrderComposer(Protocol):
    """Optional capability: a rule set whose map is ordered by clicks (``composes_orders`` tells).

    The order language stays the rule set's: the page sends what was clicked and gets an order
    line back, which goes into the orders text like a typed one. ``board`` is the orderer's own
    view, so nothing here can tell a side what its view does not. Pure, like the rest of rules/.
    """

    def compose_order(self, board: JSON, side: str, unit_id: str, target: Mapping[str, JSON]) -> str:
        """The order line sending ``unit_id`` (its id in orders) to ``target``: {"x", "y"} inches on a
        table, {"hex"}, {"node"} (a place on a graph map) or {"unit"} (a unit clicked); an optional
        "verb" chooses among orders ("fire" for a gun). Raises RulesError saying why not."""

    def order_targets(self, board: JSON, side: str, unit_id: str) -> dict[str, list[str]]:
        """{place: order lines} for a unit on a graph or hex map: the targets the page lights up
        ({} where the rule set leaves any point open and checks the line instead)."""

    def pending_marks(self, board: JSON, side: str, text: str) -> list[dict[str, JSON]]:
        """What the side's sent orders ask for, to draw as ghosts and arrows on its own map:
        [{"unit": id, "verb": word, "to": target as in compose_order}], lines it cannot read left out."""


@runtime_checkable
class Strategic(Protocol):
    """Optional capability: a rule set whose engagements can be fought as battles on the table
    (rules/core/battles.py has the shapes). An engagement is reported by an event of the turn that
    joins it and waits, its units held, until ``resolve_battle`` folds its result in."""

    def battles(self, state: JSON) -> list[JSON]:
        """The battles joined and not yet resolved, oldest first."""

    def resolve_by_rules(self, state: JSON, battle_id: str) -> JSON:
        """The result the strategic rules themselves give a battle (an umpire's choice not to fight
        it on the table), in the shape a tactical rule set reads back."""

    def resolve_battle(self, state: JSON, battle_id: str, result: Mapping[str, JSON], by: str) -> list[RuleEvent]:
        """The events that fold a battle's ``result`` into the game (``by``: "table", "rules" or
        "umpire"); RulesError saying why for a battle not open or a result that does not fit it."""


@runtime_checkable
class Tactical(Protocol):
    """Optional capability: a rule set that can fight a strategic battle (rules/core/battles.py)."""

    def battle_scenario(self, battle: Mapping[str, JSON]) -> JSON:
        """A scenario of this rule set (``load_scenario`` takes it) for ``battle``: its place's
        terrain template, deployment zones, a turn limit, each strategic unit's troops."""

    def battle_result(self, state: JSON) -> JSON | None:
        """None while the game goes on; then the battle's result, read back by the conversion in the
        rule set's RULES.md."""


def composes_orders(ruleset: Any) -> bool:
    """Whether a rule set offers the optional OrderComposer capability."""
    return isinstance(ruleset, OrderComposer)


class RulesError(Exception):
    """Base class of errors a rule set raises to the platform."""


class UnknownRulesVersion(RulesError):
    """A game names a version of its rule set that this code does not have."""


class ScenarioError(RulesError):
    """A scenario or map file is invalid; the message says exactly where and why."""
