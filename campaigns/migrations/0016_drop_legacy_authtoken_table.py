"""Drops 0.1.0's plaintext API token table (authtoken_token) and its migration records, if present.

0.1.0 authenticated the API with rest_framework.authtoken, which keeps each token's key in clear in
``authtoken_token``. Since 0.2.0 tokens are django-rest-knox's (``knox_authtoken``, only a hash is
kept), so nothing reads the old table, and whoever can read the database could still use its keys
against any service that took them. An upgraded database loses the table; a fresh one never had it.
The app's rows in ``django_migrations`` go too, so that no tool (``showmigrations``, a later
``migrate`` with the app installed again) believes the table is still there.

Reversing it is a no-op: the keys are not brought back (clients ask for new knox tokens).
"""

from django.db import migrations
from django.db.migrations.recorder import MigrationRecorder

# The tables this migration drops by SQL, named for `./kb upgrade-check` (which finds a DeleteModel's
# table by itself, but cannot read a RunPython's).
DROPS_TABLES = ("authtoken_token",)
APP_LABEL = "authtoken"


def drop_legacy_tokens(apps, schema_editor):
    connection = schema_editor.connection
    with connection.cursor() as cursor:
        present = set(connection.introspection.table_names(cursor))
    for table in DROPS_TABLES:
        if table in present:
            # No CASCADE: nothing of ours refers to it, and a foreign key someone else added should
            # stop the migration rather than be dropped unseen.
            schema_editor.execute(f"DROP TABLE {schema_editor.quote_name(table)}")
    recorder = MigrationRecorder(connection)
    if recorder.has_table():
        recorder.migration_qs.filter(app=APP_LABEL).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0015_lz4_for_large_text"),
    ]

    operations = [
        migrations.RunPython(drop_legacy_tokens, migrations.RunPython.noop),
    ]
