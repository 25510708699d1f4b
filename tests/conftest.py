"""Shared fixtures: named people (alice the umpire, bob plays red, carol plays blue,
dave holds no seat) and a Civil War game between them."""

import pytest
from django.contrib.auth import get_user_model

from campaigns.models import Campaign, Profile
from campaigns.turns import creation
from tests.support.smtp import smtp  # noqa: F401  (fixtures for every test: a real SMTP sink,
from tests.support.workers import broker, lw_worker, mail_worker, worker  # noqa: F401  a real Celery worker)

PASSWORD = "correct horse battery staple"


def make_user(username: str, tz: str = "UTC"):
    user = get_user_model().objects.create_user(username, f"{username}@example.org", PASSWORD)
    # The fixture people confirmed their addresses (campaigns.turns.mailaddress); tests of that flow make their own users.
    Profile.objects.create(user=user, timezone=tz, verified_email=user.email)
    return user


@pytest.fixture
def people(db):
    return {
        "alice": make_user("alice", "Europe/Berlin"),
        "bob": make_user("bob", "America/New_York"),
        "carol": make_user("carol", "Asia/Tokyo"),
        "dave": make_user("dave"),
    }


def new_civilwar_game(people, **settings):
    campaign = Campaign.objects.create(name="Test campaign")
    return creation.create_game(
        campaign=campaign,
        name="Test game",
        ruleset="civilwar",
        settings=settings,
        seats=[
            {"role": "umpire", "user": people["alice"], "email": "alice@example.org"},
            {"role": "player", "side": "red", "user": people["bob"], "email": "bob@example.org"},
            {"role": "player", "side": "blue", "user": people["carol"], "email": "carol@example.org"},
        ],
        operator=True,
    )


def accept_invitations(game) -> None:
    """Every invited seat of a game created on the web accepts, as its user would from the link."""
    from campaigns.models import Seat
    from campaigns.turns import invitations

    for seat in game.seats.filter(status=Seat.Status.INVITED).select_related("user"):
        invitations.accept(invitations.token_for(seat), seat.user)


@pytest.fixture
def game(people):
    return new_civilwar_game(people)


@pytest.fixture
def approval_game(people):
    return new_civilwar_game(people, require_approval=True)


@pytest.fixture(scope="session", autouse=True)
def _russian_catalogue():
    """Pages and mail in Russian read the compiled catalogue: ./kb compiles it (the .mo is not
    committed); a bare pytest run compiles it here when the .po is newer."""
    from pathlib import Path

    from django.core.management import call_command

    po = Path(__file__).resolve().parent.parent / "locale" / "ru" / "LC_MESSAGES" / "django.po"
    mo = po.with_suffix(".mo")
    if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
        call_command("compile_catalogues")


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Login throttles and the webhook's replay guard count in the cache, which outlives a test
    (in memory here): each test starts with an empty one."""
    from django.core.cache import cache

    cache.clear()
    yield


def _uses_db(request) -> bool:
    return bool(request.node.get_closest_marker("django_db") or {"db", "transactional_db"} & set(request.fixturenames))


@pytest.fixture(autouse=True)
def _no_connection_left_open(request):
    """Fails the database test that leaves a session on the test database behind it (a thread's or a
    process's connection never closed: tests/support/dbleaks.py). Set up before, so torn down
    after, the test's own fixtures (workers, brokers, threads), and before the database's."""
    from django.conf import settings

    if not _uses_db(request) or not settings.DATABASES["default"]["ENGINE"].endswith("postgresql"):
        yield
        return
    request.getfixturevalue("_django_db_helper")
    yield
    from django.db import DatabaseError

    from campaigns import liveness
    from tests.support import dbleaks

    # A test that queued mail for a real broker started this process's heartbeat thread, whose
    # beat (every few seconds) opens a session of its own: it is ended here, as a process's would be.
    liveness.stop()

    try:
        rows = dbleaks.leaked()
    except DatabaseError:  # the test broke its own connection inside its transaction: nothing to ask with
        return
    assert not rows, f"the test left sessions on the test database open: {rows}"


@pytest.fixture(autouse=True)
def _sqlite_event_triggers(request):
    """Keep SQLite's append-only triggers in place for every test, yet let
    pytest-django empty the database after a transactional test.

    Django flushes SQLite with DELETE, which the triggers refuse (PostgreSQL
    uses TRUNCATE, which row triggers do not see). This fixture sets up after
    the database fixture, so its teardown runs before the flush.
    """
    from django.conf import settings

    if not _uses_db(request) or settings.DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3":
        yield
        return
    request.getfixturevalue("_django_db_helper")
    from django.db import connection

    from campaigns.log import sqlite_triggers

    transactional = not connection.in_atomic_block
    with connection.cursor() as cur:
        for sql in sqlite_triggers.create_sql():
            cur.execute(sql)
    yield
    if transactional:
        with connection.cursor() as cur:
            for sql in sqlite_triggers.drop_sql():
                cur.execute(sql)
