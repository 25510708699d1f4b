"""The snapshots' format, one row: absent until ``migrate``'s post-migrate step has rebuilt every
game's snapshots with this code's fold (campaigns/snapshotformat.py). A database upgraded from 0.1.0
has no row, so its snapshots (written by 0.1.0's fold) are rebuilt once, right after this migration."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("campaigns", "0016_drop_legacy_authtoken_table")]

    operations = [
        migrations.CreateModel(
            name="SnapshotFormat",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("version", models.IntegerField()),
                ("rebuilt_at", models.DateTimeField()),
            ],
        ),
    ]
