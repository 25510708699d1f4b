"""Migration campaigns.0016 drops 0.1.0's plaintext token table (rest_framework.authtoken's
``authtoken_token``) and the app's migration records; reversed, it does nothing. The table is made
by DRF's own migrations, as 0.1.0's ``migrate`` made it, with a token in it; the migration is run by
Django's MigrationExecutor (PostgreSQL or SQLite: whichever the suite runs on)."""

from importlib import import_module

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.recorder import MigrationRecorder

from campaigns.models import Game

pytestmark = pytest.mark.django_db(transaction=True)  # SQLite alters its schema only outside a transaction

APP, NAME = "campaigns", "0016_drop_legacy_authtoken_table"
DRF_MIGRATIONS = ("0001_initial", "0002_auto_20160226_1747", "0003_tokenproxy", "0004_alter_tokenproxy_options")


def tables() -> list[str]:
    with connection.cursor() as cursor:
        return connection.introspection.table_names(cursor)


def authtoken_records() -> list[str]:
    return sorted(MigrationRecorder(connection).migration_qs.filter(app="authtoken").values_list("name", flat=True))


def make_0_1_0_token_table(user) -> None:
    """rest_framework.authtoken's migrations applied as 0.1.0's migrate applied them, and a token."""
    state = MigrationExecutor(connection).loader.project_state()
    recorder = MigrationRecorder(connection)
    for name in DRF_MIGRATIONS:
        migration = import_module(f"rest_framework.authtoken.migrations.{name}").Migration(name, "authtoken")
        with connection.schema_editor() as editor:
            state = migration.apply(state, editor)
        recorder.record_applied("authtoken", name)
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO authtoken_token (key, created, user_id) VALUES (%s, CURRENT_TIMESTAMP, %s)",
            ["9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b", user.pk],
        )


def run_0016(backwards: bool = False) -> None:
    executor = MigrationExecutor(connection)
    migration = executor.loader.get_migration(APP, NAME)
    executor.migrate(None, plan=[(migration, backwards)])


@pytest.fixture
def restored():
    """Whatever a test does to the migration records, the suite's database keeps 0016 applied and
    no trace of authtoken (the flush after a test empties tables, not the migration records)."""
    yield
    recorder = MigrationRecorder(connection)
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS {connection.ops.quote_name('authtoken_token')}")
    recorder.migration_qs.filter(app="authtoken").delete()
    recorder.record_applied(APP, NAME)


def test_the_old_token_table_and_its_records_are_dropped(people, restored):
    make_0_1_0_token_table(people["bob"])
    assert "authtoken_token" in tables() and authtoken_records() == sorted(DRF_MIGRATIONS)
    MigrationRecorder(connection).record_unapplied(APP, NAME)  # as before an upgrade's migrate
    run_0016()
    assert "authtoken_token" not in tables()
    assert authtoken_records() == []
    assert (APP, NAME) in MigrationRecorder(connection).applied_migrations()
    assert "knox_authtoken" in tables()  # the tokens of this release are not touched
    assert people["bob"].__class__.objects.filter(pk=people["bob"].pk).exists()


def test_reversed_it_brings_nothing_back(people, restored):
    make_0_1_0_token_table(people["bob"])
    MigrationRecorder(connection).record_unapplied(APP, NAME)
    run_0016()
    run_0016(backwards=True)
    assert "authtoken_token" not in tables() and authtoken_records() == []
    assert (APP, NAME) not in MigrationRecorder(connection).applied_migrations()


def test_a_database_that_never_had_the_table_is_left_as_it_is(game, restored):
    assert "authtoken_token" not in tables()
    before = set(tables())
    MigrationRecorder(connection).record_unapplied(APP, NAME)
    run_0016()
    assert set(tables()) == before and Game.objects.filter(pk=game.pk).exists()
