from django.db import migrations, models


def no_compression(apps, schema_editor):
    # A composed message is mostly base64 of a PNG: PostgreSQL's pglz finds nothing to gain in it,
    # and trying costs the writer (the render worker) CPU on every row. EXTERNAL: kept out of line,
    # uncompressed.
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE campaigns_outboxmail ALTER COLUMN composed SET STORAGE EXTERNAL")


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0012_liveness_registry_for_queued_mail"),
    ]

    operations = [
        migrations.AddField(
            model_name="outboxmail",
            name="composed",
            field=models.BinaryField(blank=True, editable=False, null=True),
        ),
        migrations.RunPython(no_compression, migrations.RunPython.noop),
    ]
