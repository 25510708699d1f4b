"""A campaign's stable uid (issue 28, point 3): its name in its record's hashes, kept when the campaign
moves to another server (export_campaign / import_campaign). Existing campaigns get a random one;
their records, hashed with their database id before, keep that name (battles migration 0002)."""

import uuid

from django.db import migrations, models


def fill_uids(apps, schema_editor):
    Campaign = apps.get_model("campaigns", "Campaign")
    for pk in Campaign.objects.filter(uid__isnull=True).values_list("pk", flat=True).iterator():
        Campaign.objects.filter(pk=pk).update(uid=uuid.uuid4())


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0020_mail_preference"),
    ]

    operations = [
        # Nullable first (a column default would give every existing row the same uid), filled row
        # by row, then unique and required.
        migrations.AddField(
            model_name="campaign",
            name="uid",
            field=models.UUIDField(null=True, editable=False),
        ),
        migrations.RunPython(fill_uids, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="campaign",
            name="uid",
            field=models.UUIDField(default=uuid.uuid4, unique=True, editable=False),
        ),
    ]
