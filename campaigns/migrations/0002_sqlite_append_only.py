"""On SQLite, django-pgtrigger installs nothing: add the append-only triggers by hand."""

from django.db import migrations

from campaigns.log import sqlite_triggers


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        for sql in sqlite_triggers.create_sql():
            schema_editor.execute(sql)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        for sql in sqlite_triggers.drop_sql():
            schema_editor.execute(sql)


class Migration(migrations.Migration):
    dependencies = [("campaigns", "0001_initial")]
    operations = [migrations.RunPython(forwards, backwards)]
