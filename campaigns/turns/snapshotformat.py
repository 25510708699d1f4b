"""Snapshots rebuilt when the fold's format changes, once, by ``migrate``.

A snapshot is a cache of the fold (campaigns/log/eventstore.py): the log is what counts. When a
release folds an old log into another state (a setting's default added to every game, a key the
rules' state gained), the snapshots the old release wrote are no longer what a replay gives: the
verification says so, and a load would carry on from a state this code would never make. So the
fold's format has a number, ``SNAPSHOT_FORMAT``, bumped with every such change; the database keeps
the number its snapshots were written with (SnapshotFormat), and ``migrate`` (its post-migrate
signal, after every migration ran, with this code's models) rebuilds every game's snapshots when
the database's number is older, then records the new one. A database that never had a row (one
made before this existed, 0.1.0's) is rebuilt once.

Bump ``SNAPSHOT_FORMAT`` whenever a game's replayed state under the new code differs from what the
previous release wrote for the same log (tests/golden/test_golden_logs.py finds such a change:
its stored snapshots stop matching a replay).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import transaction
from django.utils import timezone

from campaigns.models import Game, SnapshotFormat

from . import gamelog

log = logging.getLogger(__name__)

# 1: 0.1.0 (2c3e6be). 2: settings gained umpire_plays, absence_days and grace_hours; Little Wars'
# and Kriegspiel's states gained per-side ids and (for new games) the game's turn number.
SNAPSHOT_FORMAT = 2


def stored_format() -> int:
    """The format the database's snapshots were written with (0: never recorded, as in 0.1.0)."""
    row = SnapshotFormat.objects.order_by("-version").first()
    return row.version if row else 0


def rebuild_if_stale(say: Callable[[str], object] = log.info) -> list[int]:
    """Rebuild every game's snapshots if they were written by an older fold; the games rebuilt.

    A game whose log this code cannot fold is named (``say``) and left as it is: the others are
    rebuilt all the same, and the format is recorded only when every game was."""
    if stored_format() >= SNAPSHOT_FORMAT:
        return []
    rebuilt, failed = [], []
    for game_id in Game.objects.order_by("pk").values_list("pk", flat=True):
        try:
            made = gamelog.rebuild_snapshots(game_id)
        except Exception as exc:  # one game's old log must not stop the others' rebuild
            failed.append(game_id)
            say(f"game {game_id}: snapshots NOT rebuilt: {type(exc).__name__}: {exc}")
            continue
        rebuilt.append(game_id)
        say(f"game {game_id}: {made} snapshots rebuilt (snapshot format {SNAPSHOT_FORMAT})")
    if not failed:
        with transaction.atomic():
            SnapshotFormat.objects.all().delete()
            SnapshotFormat.objects.create(version=SNAPSHOT_FORMAT, rebuilt_at=timezone.now())
    return rebuilt


def after_migrate(sender, app_config=None, verbosity=1, plan=None, **kwargs) -> None:
    """post_migrate: once the campaigns app's tables are all there."""
    if app_config is None or app_config.label != "campaigns":
        return
    from django.db import connection

    if "campaigns_snapshotformat" not in connection.introspection.table_names():
        return  # migrated backwards past the table
    rebuild_if_stale(say=print if verbosity else log.info)
