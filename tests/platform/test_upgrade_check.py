"""./kb upgrade-check on real PostgreSQL: the migrations still to apply with their purpose, the
tables they drop, every game's rule set and verification; exit 1 only when a game's log fails;
and not one row or table changed by it."""

import os
import subprocess
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.recorder import MigrationRecorder

from campaigns.models import Event
from tests.services import database_url, postgres_only
from tests.support.games import play_one

pytestmark = [postgres_only, pytest.mark.django_db]
ROOT = Path(__file__).resolve().parents[2]


def check() -> tuple[str, int]:
    out = StringIO()
    try:
        call_command("upgrade_check", stdout=out)
    except CommandError as exc:
        return out.getvalue(), exc.returncode
    return out.getvalue(), 0


def line_of(out: str, game) -> str:
    """The game's line: "game <id> '<name>': <rule set>[, rules version N]: <verdict>"."""
    (line,) = [line for line in out.splitlines() if line.startswith(f"  game {game.pk} ")]
    assert line.startswith(f"  game {game.pk} 'Test game': civilwar"), line
    return line


def fingerprint() -> dict:
    """Every table of the database with its rows' digest: what a write anywhere would change."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1")
        out = {}
        for (table,) in cursor.fetchall():
            cursor.execute(
                f"SELECT count(*), md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM \"{table}\" t"
            )
            out[table] = cursor.fetchone()
    return out


def as_if_not_yet_migrated(since: str = "0016") -> list[str]:
    """The campaigns migrations from ``since`` on recorded as not applied (the test's transaction
    undoes it), as before an upgrade's migrate."""
    names = sorted(
        n for app, n in MigrationExecutor(connection).loader.graph.nodes if app == "campaigns" and n >= since
    )
    recorder = MigrationRecorder(connection)
    for name in names:
        recorder.record_unapplied("campaigns", name)
    return names


def tamper_first_close(game) -> None:
    """One byte of a stored event changed, as someone with the database's owner role could."""
    event = Event.objects.filter(game=game, type="turn.closed").first()
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # the test's transaction: no trigger left pending
        cursor.execute("ALTER TABLE campaigns_event DISABLE TRIGGER USER")
        cursor.execute(
            "UPDATE campaigns_event SET payload = jsonb_set(payload, '{reason}', to_jsonb('x'::text)) WHERE id = %s",
            [event.pk],
        )
        cursor.execute("ALTER TABLE campaigns_event ENABLE TRIGGER USER")


def play(game, turns: int, django_capture_on_commit_callbacks) -> None:
    """Turns played to their adjudication (queued on commit: run here, in the test's transaction)."""
    for _ in range(turns):
        with django_capture_on_commit_callbacks(execute=True):
            play_one(game)


def test_a_migrated_database_with_sound_games_passes_and_nothing_is_changed(game, django_capture_on_commit_callbacks):
    play(game, 2, django_capture_on_commit_callbacks)
    before = fingerprint()
    out, status = check()
    assert status == 0, out
    assert "Migrations to apply: none" in out and "Tables dropped: none" in out
    assert ": verifies (" in line_of(out, game) and "2 adjudications re-run" in line_of(out, game)
    assert "no Redis broker configured" in out  # the suite's default: tasks in-process
    assert out.rstrip().splitlines()[-1].startswith("Summary: 0 migration(s) to apply")
    assert out.rstrip().endswith("Nothing blocks the upgrade.")
    assert fingerprint() == before


def test_pending_migrations_are_listed_with_their_purpose_and_the_old_token_table_with_its_rows(game, people):
    names = as_if_not_yet_migrated()
    with connection.cursor() as cursor:  # 0.1.0's rest_framework.authtoken table, with one token
        cursor.execute(
            "CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, created timestamptz NOT NULL, "
            "user_id integer NOT NULL UNIQUE REFERENCES auth_user (id) DEFERRABLE INITIALLY DEFERRED)"
        )
        cursor.execute(
            "INSERT INTO authtoken_token VALUES ('9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b', now(), %s)",
            [people["bob"].pk],
        )
    before = fingerprint()
    out, status = check()
    assert status == 0, out
    assert f"Migrations to apply: {len(names)}" in out
    assert (
        "  campaigns.0016_drop_legacy_authtoken_table: Drops 0.1.0's plaintext API token table (authtoken_token) "
        "and its migration records, if present." in out
    )
    assert "  authtoken_token (1 row): by campaigns.0016_drop_legacy_authtoken_table" in out
    assert f"Summary: {len(names)} migration(s) to apply; tables dropped: authtoken_token (1 row)" in out
    assert ": verifies (" in out  # the models still match the tables: verified now
    assert fingerprint() == before  # the table and the migration records are still there


def test_a_game_whose_log_fails_verification_blocks_with_exit_1(game, people, django_capture_on_commit_callbacks):
    from tests.conftest import new_civilwar_game

    sound = new_civilwar_game(people)
    play(game, 1, django_capture_on_commit_callbacks)
    play(sound, 1, django_capture_on_commit_callbacks)
    tamper_first_close(game)
    out, status = check()
    assert status == 1
    assert ": FAILS (" in line_of(out, game) and "hash mismatch" in out
    assert ": verifies (" in line_of(out, sound)
    assert "2 game(s), 1 verify, 1 fail. BLOCKED" in out
    with pytest.raises(CommandError, match=rf"1 game\(s\) fail verification under this code: {game.pk} "):
        call_command("upgrade_check", stdout=StringIO())


def test_models_ahead_of_the_database_wait_for_migrate_and_the_rest_is_still_reported(game):
    """As a 0.1.0 database looks to this code: a column the models need is not there yet."""
    as_if_not_yet_migrated("0008")
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("ALTER TABLE campaigns_game DROP COLUMN adjudication_leased_until")
    before = fingerprint()
    out, status = check()
    assert status == 0, out
    assert "verification runs after migrate" in out and "campaigns_game lacks adjudication_leased_until" in out
    assert line_of(out, game) and "verifies" not in out
    assert "campaigns.0008_work_leases_for_one_owner_per_retry: Add field adjudication_leased_until to game" in out
    assert "1 game(s), verified after migrate. Nothing blocks the upgrade." in out
    assert fingerprint() == before


def test_it_cannot_write_even_if_it_tried(game):
    """The transaction it reads in is read-only: a write inside it is refused by PostgreSQL itself."""
    from django.db import DatabaseError

    from campaigns.management.commands.upgrade_check import read_only
    from campaigns.models import Game

    with pytest.raises(DatabaseError, match="read-only transaction"), read_only():
        Game.objects.filter(pk=game.pk).update(name="changed")
    game.refresh_from_db()
    assert game.name == "Test game"


def test_kb_upgrade_check_runs_the_command():
    env = {**os.environ, "DATABASE_URL": database_url()}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    env.pop("CELERY_BROKER_URL", None)
    done = subprocess.run(["./kb", "upgrade-check"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Migrations to apply: none" in done.stdout and "Nothing blocks the upgrade." in done.stdout
