"""Append-only triggers for SQLite, where django-pgtrigger installs nothing."""

TABLE = "campaigns_event"
OPERATIONS = ("UPDATE", "DELETE")


def create_sql() -> list[str]:
    return [
        f"CREATE TRIGGER IF NOT EXISTS {TABLE}_no_{op.lower()} BEFORE {op} ON {TABLE} "
        f"BEGIN SELECT RAISE(ABORT, '{TABLE} is append-only: {op} refused'); END;"
        for op in OPERATIONS
    ]


def drop_sql() -> list[str]:
    return [f"DROP TRIGGER IF EXISTS {TABLE}_no_{op.lower()}" for op in OPERATIONS]
