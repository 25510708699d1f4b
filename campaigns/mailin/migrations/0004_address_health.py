"""A seat's address health (issue 30, point 4): its return path's token and the bounces that came
back to it (campaigns/mailout/health.py)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0018_event_indexes_by_audience"),
        ("mailin", "0003_one_row_per_delivery"),
    ]

    operations = [
        migrations.CreateModel(
            name="AddressHealth",
            fields=[
                (
                    "seat",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="mail_health",
                        serialize=False,
                        to="campaigns.seat",
                    ),
                ),
                (
                    "token",
                    models.CharField(help_text="The seat's return path: bounces+<token>@…", max_length=64, unique=True),
                ),
                (
                    "email",
                    models.CharField(blank=True, help_text="The address the bounces below are about.", max_length=320),
                ),
                ("hard_bounces", models.IntegerField(default=0)),
                (
                    "soft_bounces",
                    models.JSONField(blank=True, default=list, help_text="When temporary failures came back (ISO)"),
                ),
                ("last_status", models.CharField(blank=True, max_length=32)),
                ("last_diagnostic", models.CharField(blank=True, max_length=500)),
                ("last_bounce_at", models.DateTimeField(blank=True, null=True)),
                ("failing_since", models.DateTimeField(blank=True, null=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
            ],
            options={
                "verbose_name_plural": "address health",
            },
        ),
    ]
