"""The test suite's settings: the development profile, asked for explicitly (the project's
defaults are production's). Set in the environment, so the processes tests start
(Celery workers, manage.py) get the same."""

import os

os.environ["DEBUG"] = "true"  # pytest-django still runs each test with DEBUG off
os.environ.setdefault("SECRET_KEY", "kriegsbrief-test-suite-key-not-secret")

from kriegsbrief.settings import *  # noqa: F403

# Tests log in a great deal; a fast hash keeps them quick (never in production).
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
