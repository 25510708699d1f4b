"""The large text written on every turn is compressed with lz4, not PostgreSQL's default pglz
(campaigns/migrations/0015): a fraction of the server's CPU for a little more room. The composed
message (mostly base64 of a PNG) is not compressed at all (0013)."""

import pytest
from django.db import connection

from campaigns.models import OutboxMail
from tests.services import postgres_only

pytestmark = [postgres_only, pytest.mark.django_db]


def column(table: str, name: str) -> tuple[str, str]:
    """(compression, storage) of a column: 'l' for lz4 ('' the server's default); 'e' for external."""
    with connection.cursor() as cur:
        cur.execute(
            "SELECT attcompression, attstorage FROM pg_attribute WHERE attrelid = %s::regclass AND attname = %s",
            [table, name],
        )
        return cur.fetchone()


@pytest.mark.parametrize(
    "table,name",
    [
        ("campaigns_outboxmail", "body"),
        ("campaigns_outboxmail", "html"),
        ("campaigns_outboxmail", "svg"),
        ("campaigns_snapshot", "state"),
    ],
)
def test_the_columns_take_lz4(table, name):
    assert column(table, name)[0] == "l"


def test_the_composed_message_is_kept_uncompressed():
    assert column("campaigns_outboxmail", "composed")[1] == "e"


def test_a_report_map_is_stored_compressed_with_lz4(game):
    # The game's start mail carries each seat's map: tens of kB of SVG, past the TOAST threshold.
    rows = OutboxMail.objects.filter(game=game).exclude(svg="")
    assert rows.exists()
    with connection.cursor() as cur:
        cur.execute(
            "SELECT octet_length(svg), pg_column_size(svg), pg_column_compression(svg) FROM campaigns_outboxmail "
            "WHERE id = ANY(%s)",
            [list(rows.values_list("pk", flat=True))],
        )
        for raw, stored, method in cur.fetchall():
            assert method == "lz4" and stored < raw / 3, (raw, stored, method)
