"""The test suite's settings: the development profile, asked for explicitly (the project's
defaults are production's). Set in the environment, so the processes tests start
(Celery workers, manage.py) get the same."""

import os

os.environ["DEBUG"] = "true"  # pytest-django still runs each test with DEBUG off
os.environ.setdefault("SECRET_KEY", "kriegsbrief-test-suite-key-not-secret")
# Connections end with their request or task, as Django's default: production keeps them a minute
# (DATABASE_CONN_MAX_AGE), which in a test run would leave the workers' and threads' sessions open
# into later tests, where the leak guard (tests/support/dbleaks.py) cannot tell them from a leak.
# Tests of kept connections set CONN_MAX_AGE themselves.
os.environ.setdefault("DATABASE_CONN_MAX_AGE", "0")
# pytest-django runs a test inside one transaction, idle between its statements while the test
# computes or waits (a golden log re-adjudicated, a subprocess awaited): the web's idle-in-transaction
# timeout (kriegsbrief/dbtimeouts.py) would end that session mid-test. Off for the test process only;
# tests/platform/test_db_timeouts.py checks the timeouts of the web and the workers themselves.
os.environ.setdefault("DATABASE_IDLE_IN_TRANSACTION_TIMEOUT", "0")
# The web's 3 s lock timeout, in a suite whose threads and workers hold games while two busy cores
# run everything else, gave up on waits that are no fault (a snapshot rebuild beside live appends):
# the test process waits up to 30 s; tests/platform/test_db_timeouts.py shortens it where it tests it.
os.environ.setdefault("DATABASE_LOCK_TIMEOUT", "30")
# Scripted players send a seat's orders far faster than any person: the per-seat rate is off for the
# suite, and tests/platform/test_rate_limits.py sets it where it is tested.
os.environ.setdefault("ORDERS_PER_SEAT_PER_MINUTE", "0")

# Each pytest-xdist process keeps its files (the outbox folder above all) in a folder of its own.
if os.environ.get("PYTEST_XDIST_WORKER"):
    _var = os.path.join(os.path.dirname(os.path.dirname(__file__)), "var", "test-" + os.environ["PYTEST_XDIST_WORKER"])
    os.environ.setdefault("KRIEGSBRIEF_VAR_DIR", _var)

from kriegsbrief.settings import *  # noqa: F403

# Tests log in a great deal; a fast hash keeps them quick (never in production).
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Every use of a state the event store kept thawed (campaigns/log/eventstore.py, ``_Thawed``) is
# checked against a thaw of its snapshot: still the same text, and the same objects a thaw makes.
EVENTSTORE_CHECK_THAWED = True
