from django.db import migrations

# The large text columns written on every turn: each seat's report (SVG map ~36 kB, HTML, text) and
# the game's snapshot (~11 kB of JSON). PostgreSQL compresses them when they pass ~2 kB (TOAST), by
# default with pglz; lz4 (PostgreSQL 14+, where the server was built with it) costs a fraction of
# the CPU for a little more room: 500 real outbox rows took 260-357 ms with pglz and 57-80 ms with
# lz4 on this project's test machine, about 0.5 ms of the server's CPU less per report (issue 18:
# the database's share of a turn limits how far adjudication workers scale), and a 34 kB map is
# kept in 5.6 kB instead of 4.4 kB.
# Rows already written keep their compression; each new value takes the column's.
COLUMNS = {
    "campaigns_outboxmail": ("body", "html", "svg"),
    "campaigns_snapshot": ("state",),
}


def lz4_available(schema_editor) -> bool:
    with schema_editor.connection.cursor() as cur:
        cur.execute("SELECT enumvals FROM pg_settings WHERE name = 'default_toast_compression'")
        row = cur.fetchone()
    return bool(row) and "lz4" in (row[0] or [])


def set_compression(method: str):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql" or not lz4_available(schema_editor):
            return  # SQLite compresses nothing; a server without lz4 keeps pglz
        for table, columns in COLUMNS.items():
            changes = ", ".join(f"ALTER COLUMN {c} SET COMPRESSION {method}" for c in columns)
            schema_editor.execute(f"ALTER TABLE {table} {changes}")

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0014_outbox_row_held_by_sender_or_publisher"),
    ]

    operations = [
        migrations.RunPython(set_compression("lz4"), set_compression("default")),
    ]
