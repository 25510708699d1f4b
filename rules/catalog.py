"""The catalogue of rule sets: each built-in rule set by the name a game stores.

Registration points one way: this module imports each rule set's ``RULESET`` and lists
it; a rule set never imports the catalogue (nor does ``rules.core``), so a rule set is a
package that knows only ``rules.core`` and the engines it builds on. The platform asks
here (``catalog.get(game.ruleset)``, ``catalog.names()``). A new rule set is one import
and one entry in ``BUILT_IN`` (rules/README.md).

A plain module rather than package entry points: the rule sets ship inside this one
distribution, and an entry point would need the package reinstalled before a new rule
set (or a renamed one) is seen, which an editable checkout does not do by itself.
"""

from __future__ import annotations

from rules.civilwar import RULESET as CIVILWAR
from rules.core.protocol import RuleSet
from rules.kingsofwar import RULESET as KINGSOFWAR
from rules.kriegspiel import RULESET as KRIEGSPIEL
from rules.littlewars import RULESET as LITTLEWARS
from rules.napoleon import RULESET as NAPOLEON
from rules.warworlds import RULESET as WARWORLDS


def _by_name(*rulesets: RuleSet) -> dict[str, RuleSet]:
    """{name: rule set}; two rule sets claiming one name is a mistake caught at import."""
    out: dict[str, RuleSet] = {}
    for rs in rulesets:
        if rs.name in out:
            raise ValueError(f"rule set {rs.name!r} is listed twice in the catalogue")
        out[rs.name] = rs
    return out


BUILT_IN: dict[str, RuleSet] = _by_name(CIVILWAR, KINGSOFWAR, LITTLEWARS, KRIEGSPIEL, WARWORLDS, NAPOLEON)


def get(name: str, version: int | None = None) -> RuleSet:
    """The rule set a game names, as it was at ``version`` (None: the current one, which also reads
    games recorded before versions were); KeyError listing the known names if there is none,
    UnknownRulesVersion for a version this code does not keep."""
    try:
        rs = BUILT_IN[name]
    except KeyError:
        raise KeyError(f"unknown rule set {name!r} (known: {', '.join(names())})") from None
    return rs if version is None else rs.pinned(version)


def names() -> list[str]:
    return sorted(BUILT_IN)
