"""Campaigns have uids now (campaigns migration 0021) and their records are hashed with them; a record
begun before is hashed with its campaign's database id and keeps that name, written down here so
that it still verifies, also after the campaign moves (export_campaign / import_campaign)."""

import django.db.models.deletion
import pgtrigger.compiler
import pgtrigger.migrations
from django.db import migrations, models

TABLE = "battles_legacyrecordname"


def name_legacy_records(apps, schema_editor):
    CampaignEvent = apps.get_model("battles", "CampaignEvent")
    LegacyRecordName = apps.get_model("battles", "LegacyRecordName")
    begun = CampaignEvent.objects.values_list("campaign_id", flat=True).distinct()
    LegacyRecordName.objects.bulk_create(
        [LegacyRecordName(campaign_id=pk, name=f"campaign:{pk}") for pk in begun], ignore_conflicts=True
    )


def sqlite_fixed(apps, schema_editor):
    """On SQLite, django-pgtrigger installs nothing: the name's triggers by hand (as 0001's)."""
    if schema_editor.connection.vendor == "sqlite":
        for op in ("UPDATE", "DELETE"):
            schema_editor.execute(
                f"CREATE TRIGGER IF NOT EXISTS {TABLE}_no_{op.lower()} BEFORE {op} ON {TABLE} "
                f"BEGIN SELECT RAISE(ABORT, '{TABLE} is fixed: {op} refused'); END;"
            )


class Migration(migrations.Migration):
    dependencies = [
        ("battles", "0001_campaign_record"),
        ("campaigns", "0021_campaign_uid"),
    ]

    operations = [
        migrations.CreateModel(
            name="LegacyRecordName",
            fields=[
                (
                    "campaign",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        primary_key=True,
                        related_name="legacy_record_name",
                        serialize=False,
                        to="campaigns.campaign",
                    ),
                ),
                ("name", models.CharField(max_length=80)),
            ],
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="legacyrecordname",
            trigger=pgtrigger.compiler.Trigger(
                name="legacy_record_name_fixed",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    func="RAISE EXCEPTION 'pgtrigger: Cannot update or delete rows from % table', TG_TABLE_NAME;",
                    hash="571d257b48c3dcc2d2ea4872aa841272b1ad9cfe",
                    operation="UPDATE OR DELETE",
                    pgid="pgtrigger_legacy_record_name_fixed_11846",
                    table="battles_legacyrecordname",
                    when="BEFORE",
                ),
            ),
        ),
        migrations.RunPython(sqlite_fixed, migrations.RunPython.noop),
        migrations.RunPython(name_legacy_records, migrations.RunPython.noop),
    ]
