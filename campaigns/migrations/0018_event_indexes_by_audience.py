"""Indexes that let a viewer's queries reach only the events it may see (issue 34; decision 0005):
a player's or an observer's events are read audience by audience, by (game, audience, seq) in log
order or by (game, audience, turn, seq) for one turn (campaigns/turns/viewing.py, ``VisibleEvents``).
Before, (game, seq), (game, turn) and the foreign key's (game) led such scans through the other
side's private rows as well, filtered out after reading. (game, turn) and (game) go, so that no plan
can take them for a player's query again (one did, on a turn's history): (game, seq) serves the
foreign key, and the umpire, who sees every audience, reads a turn by it."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("campaigns", "0017_snapshot_format")]

    operations = [
        migrations.RemoveIndex(model_name="event", name="campaigns_e_game_id_f4f59b_idx"),
        migrations.AlterField(
            model_name="event",
            name="game",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="events",
                to="campaigns.game",
            ),
        ),
        migrations.AddIndex(
            model_name="event",
            index=models.Index(fields=["game", "audience", "seq"], name="event_game_audience_seq"),
        ),
        migrations.AddIndex(
            model_name="event",
            index=models.Index(fields=["game", "audience", "turn", "seq"], name="event_game_audience_turn_seq"),
        ),
    ]
