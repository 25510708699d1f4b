"""A seat's "mail me less" setting (issue 30, point 6): what the one-click unsubscribe of its mail
(List-Unsubscribe, RFC 8058) sets: no reminders and no waiting notices (campaigns/mailout/unsubscribe.py)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0019_calendar_feed"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="mail",
            field=models.CharField(choices=[("all", "All"), ("less", "Less")], default="all", max_length=10),
        ),
    ]
