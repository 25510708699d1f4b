"""Production is the default: DEBUG off, HTTPS enforced, inbound mail held without our MTA's
verdict; `check --deploy` is clean with the production environment the README documents."""

import os
import subprocess
import sys
from pathlib import Path

from django.core.management.utils import get_random_secret_key

ROOT = Path(__file__).resolve().parents[2]
SHOW = (
    "from django.conf import settings as s; print(s.DEBUG, s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE, "
    "s.SECURE_HSTS_SECONDS > 0, s.MAIL_REQUIRE_AUTHENTICATION)"
)


def clean_env(tmp_path, **extra) -> dict:
    """The environment of a fresh machine: none of the test suite's or the developer's choices."""
    env = {
        k: v
        for k, v in os.environ.items()
        # DJANGO_ALLOW_ASYNC_UNSAFE: set by the browser tests (Playwright's loop) for this process only
        if k
        not in (
            "DEBUG",
            "SECRET_KEY",
            "DATABASE_URL",
            "ALLOWED_HOSTS",
            "CELERY_BROKER_URL",
            "DJANGO_ALLOW_ASYNC_UNSAFE",
        )
        and not k.startswith(("SECURE_", "MAIL_"))
    }
    return {**env, "DJANGO_SETTINGS_MODULE": "kriegsbrief.settings", "KRIEGSBRIEF_VAR_DIR": str(tmp_path), **extra}


def manage(env, *args):
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def test_defaults_are_production_and_development_is_asked_for(tmp_path):
    prod = manage(clean_env(tmp_path), "shell", "-c", SHOW)
    assert prod.returncode == 0, prod.stderr
    assert prod.stdout.splitlines()[-1].split() == ["False", "True", "True", "True", "True"]
    # With no SECRET_KEY the embedded mode makes one and keeps it (never a key known to the world).
    key = (tmp_path / "secret_key").read_text()
    assert len(key) >= 50 and oct((tmp_path / "secret_key").stat().st_mode)[-3:] == "600"
    dev = manage(clean_env(tmp_path, DEBUG="true"), "shell", "-c", SHOW)
    assert dev.stdout.splitlines()[-1].split() == ["True", "False", "False", "False", "False"]


def test_check_deploy_is_clean_with_the_documented_production_environment(tmp_path):
    env = clean_env(
        tmp_path,
        SECRET_KEY=get_random_secret_key(),
        ALLOWED_HOSTS="kriegsbrief.example.org",
        SITE_URL="https://kriegsbrief.example.org",
    )
    out = manage(env, "check", "--deploy", "--fail-level", "WARNING")
    assert out.returncode == 0 and "WARNING" not in out.stderr + out.stdout, out.stderr + out.stdout
    assert "no issues" in out.stdout


def test_the_demo_asks_for_debug():
    assert 'export DEBUG="${DEBUG:-true}"' in (ROOT / "kb").read_text()
