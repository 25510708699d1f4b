"""rules/ must not import Django, Celery, the database or our apps."""

import ast
from pathlib import Path

FORBIDDEN = ("django", "celery", "rest_framework", "psycopg", "redis", "campaigns", "api", "kriegsbrief")
RULES = Path(__file__).resolve().parents[2] / "rules"


def imported_modules(path: Path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module


def test_no_rules_module_imports_the_web_task_or_database_layers():
    offenders = [
        f"{path.relative_to(RULES)}: {mod}"
        for path in RULES.rglob("*.py")
        for mod in imported_modules(path)
        if mod.split(".")[0] in FORBIDDEN
    ]
    assert list(RULES.rglob("*.py")), "no rule modules found"
    assert offenders == []
