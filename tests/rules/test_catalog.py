"""The catalogue lists every rule set one way, and each declares the optional capabilities it has."""

import ast
from pathlib import Path

import pytest

from rules import catalog
from rules.core.protocol import SelfCheck, SeveralCommands, UmpireDesk

RULES = Path(__file__).resolve().parents[2] / "rules"


def test_names_are_the_rule_sets_own_and_unknown_names_list_the_known():
    assert catalog.names() == ["civilwar", "kingsofwar", "kriegspiel", "littlewars", "napoleon", "warworlds"]
    assert all(catalog.get(name).name == name for name in catalog.names())
    with pytest.raises(KeyError, match="unknown rule set 'chess' \\(known: civilwar, kingsofwar, kriegspiel"):
        catalog.get("chess")


@pytest.mark.parametrize(
    "name,desk,commands",
    [
        ("civilwar", False, False),
        ("kingsofwar", False, False),
        ("kriegspiel", True, True),
        ("littlewars", False, True),
        ("napoleon", False, False),
        ("warworlds", False, False),
    ],
)
def test_optional_capabilities_are_declared_protocols(name, desk, commands):
    rs = catalog.get(name)
    assert isinstance(rs, UmpireDesk) is desk
    assert isinstance(rs, SeveralCommands) is commands
    if desk:
        events, errors = rs.umpire_orders(rs.initial_state(), "note all: rain")  # before the game is set up
        assert (
            rs.umpire_help
            and events == []
            and [e.message for e in errors] == ["the umpire's desk rules on a game in play"]
        )


def test_the_table_top_rule_sets_check_their_own_states():
    assert [n for n in catalog.names() if isinstance(catalog.get(n), SelfCheck)] == [
        "civilwar",
        "kingsofwar",
        "kriegspiel",
        "littlewars",
    ]


def _imports(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
    return out


def test_registration_points_one_way():
    """Only the catalogue imports the rule sets by name; no rule set and nothing in rules/core imports it,
    and rules/core imports no rule set."""
    offenders = [
        str(p.relative_to(RULES))
        for p in RULES.rglob("*.py")
        if p.name != "catalog.py" and any(m.startswith("rules.catalog") for m in _imports(p))
    ]
    assert offenders == []
    core = [
        f"{p.name}: {m}"
        for p in (RULES / "core").glob("*.py")
        for m in _imports(p)
        if m.startswith("rules.") and not m.startswith("rules.core")
    ]
    assert core == []
