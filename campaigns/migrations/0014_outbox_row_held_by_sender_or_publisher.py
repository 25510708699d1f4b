from django.db import migrations


class Migration(migrations.Migration):
    """``queued_by`` becomes ``held_by``: besides the publisher that owes a row's broker message, a
    sender that started on the row holds it (campaigns/liveness.py, mailout/outbox.py)."""

    dependencies = [
        ("campaigns", "0013_outbox_composed_message"),
    ]

    operations = [
        migrations.RenameField(model_name="outboxmail", old_name="queued_by", new_name="held_by"),
    ]
