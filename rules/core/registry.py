"""Rule sets by name. A game stores the name, never the mechanics."""
from __future__ import annotations

from .protocol import RuleSet

_REGISTRY: dict[str, RuleSet] = {}


def register(ruleset: RuleSet) -> RuleSet:
    if ruleset.name in _REGISTRY and _REGISTRY[ruleset.name] is not ruleset:
        raise ValueError(f"rule set {ruleset.name!r} is already registered")
    _REGISTRY[ruleset.name] = ruleset
    return ruleset


def get(name: str) -> RuleSet:
    _load_builtin()
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY)) or "none"
        raise KeyError(f"unknown rule set {name!r} (known: {known})") from None


def names() -> list[str]:
    _load_builtin()
    return sorted(_REGISTRY)


def _load_builtin() -> None:
    # Imported lazily so that importing the registry never drags every game in.
    from rules import civilwar  # noqa: F401
    from rules import kingsofwar  # noqa: F401
    from rules import littlewars  # noqa: F401
    from rules.littlewars import kriegspiel  # noqa: F401  (Little Wars as Kriegspiel, a variant on its engine)
    from rules import warworlds  # noqa: F401  (War of the Worlds, on the hex engine)
    from rules import napoleon  # noqa: F401  (Napoleon's War II alternative rules, on the hex engine)
