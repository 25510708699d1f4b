"""One row per delivery (issue 30): the dedupe key names the envelope recipient too, so the same
message delivered to two seat addresses is two messages, each read by its own game.

The stored keys are rewritten to the new form, so that a redelivery of a message stored before
this migration is still recognised: ``<id>`` becomes ``<id> to <recipient>`` and
``<id>#<body hash>`` becomes ``<id> to <recipient>#<body hash>`` (``ingest.delivery_key``);
a row without an envelope recipient keeps its key.
"""

from django.db import migrations, models

FORWARD_PG = r"""
UPDATE mailin_inboundmessage SET dedupe_key = CASE
    WHEN message_id <> '' AND dedupe_key = message_id || '#' || right(dedupe_key, 16)
        THEN message_id || ' to ' || lower(envelope_to) || '#' || right(dedupe_key, 16)
    ELSE dedupe_key || ' to ' || lower(envelope_to)
END
WHERE envelope_to <> ''
"""


def _new_key(key: str, message_id: str, envelope_to: str) -> str:
    to = f" to {envelope_to.lower()}"
    if message_id and key == f"{message_id}#{key[-16:]}":
        return f"{message_id}{to}#{key[-16:]}"
    return key + to


def _old_key(key: str, message_id: str, envelope_to: str) -> str:
    to = f" to {envelope_to.lower()}"
    if message_id and key == f"{message_id}{to}#{key[-16:]}":
        return f"{message_id}#{key[-16:]}"
    return key[: -len(to)] if key.endswith(to) else key


def _rewrite(apps, schema_editor, new_key) -> None:
    if new_key is _new_key and schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FORWARD_PG)  # one statement; the loop below for other databases and for going back
        return
    model = apps.get_model("mailin", "InboundMessage")
    rows = model.objects.exclude(envelope_to="").only("dedupe_key", "message_id", "envelope_to")
    changed = []
    for row in rows.iterator(chunk_size=2000):
        row.dedupe_key = new_key(row.dedupe_key, row.message_id, row.envelope_to)
        changed.append(row)
        if len(changed) >= 2000:
            model.objects.bulk_update(changed, ["dedupe_key"])
            changed = []
    model.objects.bulk_update(changed, ["dedupe_key"])


def forward(apps, schema_editor) -> None:
    _rewrite(apps, schema_editor, _new_key)


def backward(apps, schema_editor) -> None:
    _rewrite(apps, schema_editor, _old_key)


class Migration(migrations.Migration):
    dependencies = [
        ("mailin", "0002_imap_cursor"),
    ]

    operations = [
        migrations.AlterField(
            model_name="inboundmessage",
            name="dedupe_key",
            field=models.CharField(
                help_text=(
                    "One delivery: the Message-ID (or sha256 of the raw bytes when there is none) and the envelope "
                    "recipient; '#' and a body hash when another body came under the same Message-ID."
                ),
                max_length=600,
                unique=True,
            ),
        ),
        migrations.RunPython(forward, backward),
    ]
