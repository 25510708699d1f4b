"""What every rule set object does the same way, written once.

``rules.core.protocol.RuleSet`` stays the contract; ``RuleSetBase`` is only the part of it
that no rule set does differently. A rule set is otherwise its own package's functions:
where a protocol method is one of them as it stands (same arguments, same defaults), the
class names it with ``staticmethod`` instead of writing a method that only passes the
call on; it writes a method where it adds something (a ruleset's ``setup``) or adapts the
arguments (an order parser that needs no state).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol

from .i18n import _, gettext_noop
from .protocol import GameOption, RuleEvent, ScenarioError, UnknownRulesVersion


def titled(names: Iterable[str], read: Callable[[str], dict[str, Any]]) -> list[tuple[str, str]]:
    """(name, title) of each shipped scenario ``read(name)`` gives (its ``title``, else its name)."""
    return [(n, read(n).get("title") or n) for n in names]


class _Folding(Protocol):
    """What ``fold_events`` and ``set_up`` use of the rule set they are mixed into."""

    def initial_state(self) -> Any: ...

    def setup(self, scenario: Any, rng: random.Random) -> list[RuleEvent]: ...

    def fold(self, state: Any, event_type: str, payload: Mapping[str, Any]) -> Any: ...

    def fold_events(self, state: Any, events: Iterable[RuleEvent]) -> Any: ...


class RuleSetBase:
    """Base of the built-in rule sets: the game's result as the fold recorded it; no shipped
    scenarios listed and no options chosen at creation unless the rule set declares them."""

    game_options: tuple[GameOption, ...] = ()
    version: int = 1
    versions: Mapping[int, str] = {1: "the first version"}
    # How each older version is kept. ``by_flags``: versions whose behaviour this very object keeps,
    # told apart by flags the game's own log carries (a setup event's payload: Little Wars' per-side
    # ids); ``past``: a version kept in code, by an object of its own. A version in neither is not
    # kept, and a game recorded with it is refused (UnknownRulesVersion) rather than replayed wrong.
    by_flags: tuple[int, ...] = ()
    past: Mapping[int, Callable[[], Any]] = {}

    def pinned(self, version: int | None) -> Any:
        """The rule set as it was at ``version``: this object for its own version, for None (a game
        recorded before versions were: its log's flags tell its behaviour) and for a version in
        ``by_flags``; ``past[version]()`` for one kept in code. UnknownRulesVersion else."""
        if version is None or version == self.version or version in self.by_flags:
            return self
        if version in self.past:
            return self.past[version]()
        known = ", ".join(map(str, sorted(self.versions)))
        raise UnknownRulesVersion(
            _(
                "{ruleset} has no rules version {version} (this code has {known})",
                ruleset=getattr(self, "name", "?"),
                version=version,
                known=known,
            )
        )

    def carry_over(self, state: Any, old: int | None) -> Any:
        """No state change between versions unless a rule set says otherwise (its upcaster)."""
        return state

    def unrecorded_version(self, state: Any) -> int:
        """A game from before recorded versions: version 1 unless the rule set tells otherwise."""
        return 1

    def scenarios(self) -> list[tuple[str, str]]:
        return []

    def with_options(self, scenario: Any, options: Mapping[str, Any]) -> Any:
        """Checks the options; a rule set that declares some overrides this to put them in."""
        self.check_options(options)
        if any(options.values()):
            raise ScenarioError(_("{ruleset} has no game options", ruleset=getattr(self, "title", str(self))))
        return scenario

    def check_options(self, options: Mapping[str, Any]) -> None:
        """Every chosen option is declared, with one of its choices: else a ScenarioError naming it."""
        declared = {o.name: o for o in self.game_options}
        for name, value in options.items():
            opt = declared.get(name)
            if opt is None:
                raise ScenarioError(
                    _(
                        "options.{name}: unknown option (known: {known})",
                        name=name,
                        known=", ".join(declared) or gettext_noop("none"),
                    )
                )
            allowed = [c for c, _ in opt.choices] if opt.choices else [True, False]
            if value not in allowed:
                raise ScenarioError(
                    _(
                        "options.{name}: {value} is not one of {allowed}",
                        name=name,
                        value=repr(value),
                        allowed=", ".join(map(str, allowed)),
                    )
                )

    def fold_events(self: _Folding, state: Any, events: Iterable[RuleEvent]) -> Any:
        """``state`` after folding ``events`` (RuleEvents) in order: what setup or one adjudication gives."""
        for ev in events:
            state = self.fold(state, ev.type, ev.payload)
        return state

    def set_up(self: _Folding, scenario: Any, rng: random.Random) -> Any:
        """The state of a new game of ``scenario``: the initial state with setup's events folded."""
        return self.fold_events(self.initial_state(), self.setup(scenario, rng))

    def result(self, state: Any) -> dict[str, Any] | None:
        """None while the game goes on; else a copy of the state's ``result``."""
        res = state.get("result") if isinstance(state, dict) else None
        return dict(res) if res else None

    def describe_reason(self, reason: Any) -> Any:
        """Why the game ended (``result()["reason"]``, kept in English), marked for the reader's
        language where the rule set knows the sentence; as it is otherwise."""
        return reason

    def legal_orders(self, board: Any, side: str | None) -> list[str]:
        """The orders open to ``side`` now, listed on its game page, from its own view ``board``
        only (a rule set that lists them puts them in its view as ``legal_operations``; one whose
        list is costly overrides this, so the view, folded for every page and mail, stays cheap)."""
        return (board.get("legal_operations") or []) if isinstance(board, dict) else []
