"""Settings from environment variables, with an embedded default that needs nothing.

Embedded default (no variables set): SQLite in ./var, Celery tasks run
in-process (eager), mail written as .eml files into ./var/outbox.
Production: DATABASE_URL, CELERY_BROKER_URL, EMAIL_URL (or an anymail
backend), SECRET_KEY, ALLOWED_HOSTS.

Production is what you get unless you ask otherwise: DEBUG off, HTTPS enforced
(redirect, HSTS, secure cookies), inbound mail without our MTA's verdict held.
The demo (``./kb demo``) and the test suite (``tests/settings.py``) ask for
DEBUG=true explicitly.
"""

import ipaddress
import os
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

import environ
from django.utils.translation import gettext_lazy as _

from kriegsbrief import dbtimeouts
from kriegsbrief import queues as _queues

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(environ.Env().str("KRIEGSBRIEF_VAR_DIR", default=str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)

env = environ.Env()


def _kept_secret_key(path: Path) -> str:
    """A random key made once and kept in var/ (mode 0600), so the embedded mode needs no
    SECRET_KEY and never runs with a key known to the world. Production sets SECRET_KEY
    (every web and worker process must share it). Written whole, then linked into place:
    two processes starting at once both end up with the first one's key."""
    import tempfile

    from django.core.management.utils import get_random_secret_key

    if not path.exists():
        with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False) as tmp:  # created 0600
            tmp.write(get_random_secret_key())
        try:
            os.link(tmp.name, path)
        except FileExistsError:
            pass
        finally:
            os.unlink(tmp.name)
    return path.read_text().strip()


DEBUG = env.bool("DEBUG", default=False)
SECRET_KEY = env.str("SECRET_KEY", default="") or _kept_secret_key(VAR_DIR / "secret_key")
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
# The demo's links (`PORT=8123 ./kb demo`) point at the port it serves on (issue 31: they said 8000).
SITE_URL = env.str("SITE_URL", default=f"http://127.0.0.1:{os.environ.get('PORT', '8000')}")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "axes",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI served from here, not from a CDN
    "pgtrigger",
    "django_htmx",
    "campaigns",
    "api",
    "campaigns.mailin",
    "campaigns.battles",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "campaigns.web.busy.DatabaseBusyMiddleware",  # a timed-out database wait: 503, retry (dbtimeouts.py)
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",  # Accept-Language (or the language cookie) for everyone
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "campaigns.web.language.UserLanguageMiddleware",  # a signed-in user's own choice beats the browser's
    "django.contrib.messages.middleware.MessageMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",  # last, as django-axes requires
]

ROOT_URLCONF = "kriegsbrief.urls"
WSGI_APPLICATION = "kriegsbrief.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASE_PGBOUNCER = env.bool("DATABASE_PGBOUNCER", default=False)
DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'kriegsbrief.sqlite3'}")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL + a busy timeout let the embedded server's sweeper thread and
    # requests share the file without "database is locked" errors.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "init_command": "PRAGMA journal_mode=WAL;", "transaction_mode": "IMMEDIATE"}
    )
else:
    # Behind PgBouncer in transaction mode (DATABASE_PGBOUNCER=true) a session is not ours from one
    # transaction to the next: no prepared statements (another client's server connection does
    # not have them: "prepared statement _pg3_N does not exist"), no server-side cursors (Django's
    # QuerySet.iterator() keeps one open across fetches), and no startup options (PgBouncer
    # refuses them; the timeouts are set on the database roles instead: README, operations).
    # Django turns psycopg's prepared statements off; the event store's append
    # (a server-side-binding cursor) is prepared after this many runs.
    threshold = env.str("DATABASE_PREPARE_THRESHOLD", default="off" if DATABASE_PGBOUNCER else "5")
    DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = (
        None if DATABASE_PGBOUNCER or threshold.lower() in ("off", "none", "") else int(threshold)
    )
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = DATABASE_PGBOUNCER
    # Timeouts by role (kriegsbrief/dbtimeouts.py): the web's here, the workers' set as Celery starts.
    if not DATABASE_PGBOUNCER:
        dbtimeouts.apply(DATABASES["default"], os.environ, "web")
    # A connection kept per web thread and worker for this many seconds (0: one per request, as
    # Django does by default): opening one costs the server a backend process and the client a
    # handshake, and under load bench/load.py found a poll spending about a quarter of its time on
    # it (issue 18). The health check looks at a kept connection once a request before using it, so
    # one broken by a database restart is replaced instead of failing the request.
    DATABASES["default"]["CONN_MAX_AGE"] = env.int("DATABASE_CONN_MAX_AGE", default=60)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    # Django's backend, its health check asking the server only when the socket says something
    # (kriegsbrief/postgresql/base.py): Django's SELECT 1 was a round trip on every request.
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        DATABASES["default"]["ENGINE"] = "kriegsbrief.postgresql"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]
# --- Logins ---------------------------------------------------------------
# django-axes: a username tried from one address is locked out after AXES_FAILURE_LIMIT
# failures for AXES_COOLOFF_MINUTES (web login, admin and /api/auth/token/ alike); a success
# resets the count. The lock is by the (username, address) pair, so nobody can lock another
# player out from elsewhere. Attempts are kept in the database: shared by every process.
AUTHENTICATION_BACKENDS = [
    "campaigns.accounts.LoginLockoutBackend",  # first: refuses a locked-out pair before any password check
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("AXES_COOLOFF_MINUTES", default=30))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_HTTP_RESPONSE_CODE = 429
# Where the client's address comes from. Behind a proxy that overwrites X-Forwarded-For, set
# AXES_IPWARE_META_PRECEDENCE_ORDER=HTTP_X_FORWARDED_FOR,REMOTE_ADDR (and API_NUM_PROXIES=1).
AXES_IPWARE_META_PRECEDENCE_ORDER = env.list("AXES_IPWARE_META_PRECEDENCE_ORDER", default=["REMOTE_ADDR"])
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "my_games"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en"
# The players read Russian and English; catalogues in locale/ (compiled by ./kb and .ci/run).
LANGUAGES = [("en", _("English")), ("ru", _("Russian"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)
# Serve app static files (admin, Swagger UI) even before collectstatic has run;
# deploy/ runs collectstatic at release, where this can be turned off.
WHITENOISE_USE_FINDERS = env.bool("WHITENOISE_USE_FINDERS", default=True)


# --- Celery -------------------------------------------------------------
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="")
# No broker configured means the embedded mode: run tasks in-process.
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not CELERY_BROKER_URL)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Celery's Django fixup closes a worker's database connections around every task, unless this is set:
# then only once every this many tasks. Between, the connections live as the web's do,
# by DATABASE_CONN_MAX_AGE and the health check (kriegsbrief/celery.py: keep_healthy_connections).
CELERY_DB_REUSE_MAX = env.int("CELERY_DB_REUSE_MAX", default=1000)
# Queues by kind (kriegsbrief/queues.py): adjudication, mail, render, maintenance; a worker started
# without -Q consumes them all. CELERY_QUEUE_PREFIX keeps a run's queues apart (tests).
CELERY_QUEUE_PREFIX = env.str("CELERY_QUEUE_PREFIX", default="")
CELERY_TASK_DEFAULT_QUEUE = env.str(
    "CELERY_TASK_DEFAULT_QUEUE", default=_queues.name("maintenance", CELERY_QUEUE_PREFIX)
)
CELERY_TASK_ROUTES = _queues.routes(CELERY_QUEUE_PREFIX)
CELERY_TASK_QUEUES = _queues.queues(CELERY_QUEUE_PREFIX, CELERY_TASK_DEFAULT_QUEUE)
# A publish that meets a broker outage gives up within about a second (the request or task that
# published goes on; the rescue queues the work again when the broker is back).
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.3, "interval_max": 0.5}
# Workers reconnect to a broker that came back within a second or two (kriegsbrief/celery.py).
CELERY_WORKER_CONSUMER = "kriegsbrief.celery:QuickReconnectConsumer"
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=3600)}
SWEEP_INTERVAL_SECONDS = env.int("SWEEP_INTERVAL_SECONDS", default=30)
# The rescue queues work no one holds (a lease expired or released after a failed hand-off):
# a cheap indexed query, so it runs often and a short outage costs seconds, not minutes.
RESCUE_INTERVAL_SECONDS = env.float("RESCUE_INTERVAL_SECONDS", default=5.0)
# How long a queued adjudication or mail is owned by its broker message before the rescue
# assumes the message lost (Redis here keeps messages across restarts: appendonly).
QUEUED_LEASE_SECONDS = env.int("QUEUED_LEASE_SECONDS", default=300)
# Shorter for adjudications: a worker killed whole leaves its message unacknowledged in Redis until
# the visibility timeout (an hour); a running adjudication holds the game row, which the rescue
# skips (SKIP LOCKED), so the lease only covers the wait in the queue (normally under a second).
ADJUDICATION_LEASE_SECONDS = env.int("ADJUDICATION_LEASE_SECONDS", default=30)
# A queued adjudication whose message has left the queue this long ago and was never started (its
# lease not cut to the work lease) was taken by a consumer that died holding it (a worker killed
# between taking and starting): the rescue queues it again (campaigns/queued.py).
ADJUDICATION_TAKEN_SECONDS = env.float("ADJUDICATION_TAKEN_SECONDS", default=5.0)
# The same for a queued mail (its send or send-many message): a started send cuts the row's queued
# lease to the send lease (campaigns/mailout/outbox.py).
MAIL_TAKEN_SECONDS = env.float("MAIL_TAKEN_SECONDS", default=5.0)
# While a worker runs an adjudication or an SMTP conversation, its lease is this short and a
# heartbeat thread renews it every third of it (campaigns/leases.py): a killed worker's work is
# free for the rescue within seconds; a live one, however slow, keeps it.
WORK_LEASE_SECONDS = env.float("WORK_LEASE_SECONDS", default=6.0)
# A sender's lease on an outbox row, renewed the same way. Longer than the adjudication's: a send
# cannot be undone, and a database outage longer than this lease (no renewal gets through) while an
# SMTP conversation goes on could let the rescue send the row a second time.
SEND_LEASE_SECONDS = env.float("SEND_LEASE_SECONDS", default=20.0)
# A mail's map kept as PNG (campaigns.MapPicture) that no unsent mail needs is deleted once no send
# or render has used it for this long (hourly, on the maintenance queue).
MAP_PICTURE_KEEP_HOURS = env.float("MAP_PICTURE_KEEP_HOURS", default=24.0)
# Processes that queue work say they live every PROCESS_BEAT_SECONDS (campaigns/liveness.py); one
# silent for PROCESS_STALE_SECONDS, or gone from this host's process table, is dead, and the rescue
# takes at once the queued work whose broker publish it still owed.
PROCESS_BEAT_SECONDS = env.float("PROCESS_BEAT_SECONDS", default=3.0)
PROCESS_STALE_SECONDS = env.float("PROCESS_STALE_SECONDS", default=15.0)
CELERY_BEAT_SCHEDULE = {
    "sweep-turns": {"task": "campaigns.tasks.sweep", "schedule": float(SWEEP_INTERVAL_SECONDS)},
    "rescue-unleased-work": {"task": "campaigns.tasks.rescue", "schedule": RESCUE_INTERVAL_SECONDS},
    "forget-unused-map-pictures": {"task": "campaigns.tasks.forget_map_pictures", "schedule": 3600.0},
}
# 0.1.0 sent every task to Celery's default queue, "celery", which no worker of this release reads:
# the maintenance worker takes its messages over (campaigns/legacyqueue.py), also those an old
# worker held, which come back into it after the visibility timeout.
LEGACY_CELERY_QUEUES = env.list("LEGACY_CELERY_QUEUES", default=[_queues.name("celery", CELERY_QUEUE_PREFIX)])
LEGACY_QUEUE_INTERVAL_SECONDS = env.float("LEGACY_QUEUE_INTERVAL_SECONDS", default=30.0)
CELERY_BEAT_SCHEDULE["take-over-legacy-queue"] = {
    "task": "campaigns.tasks.take_over_legacy_queue",
    "schedule": LEGACY_QUEUE_INTERVAL_SECONDS,
}

# --- Cache ----------------------------------------------------------------
# Shared by every process when there is a Redis: API throttles and the inbound webhook's
# replay guard must see every worker's requests. CACHE_URL, else the Celery broker when it is
# Redis; the embedded mode (one process) keeps it in memory.
_CACHE_URL = env.str("CACHE_URL", default="") or (
    CELERY_BROKER_URL if CELERY_BROKER_URL.startswith(("redis://", "rediss://")) else ""
)
CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": _CACHE_URL, "KEY_PREFIX": "kb-cache"}
        if _CACHE_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}

CELERY_BROKER_URL = CELERY_BROKER_URL or "memory://localhost/"

# Rate limits (campaigns/ratelimit.py; 0: none): orders one seat may send a minute, on every
# channel; confirmation mails an hour to one address and asked for by one user.
ORDERS_PER_SEAT_PER_MINUTE = env.int("ORDERS_PER_SEAT_PER_MINUTE", default=20)
CONFIRMATIONS_PER_ADDRESS_PER_HOUR = env.int("CONFIRMATIONS_PER_ADDRESS_PER_HOUR", default=3)
CONFIRMATIONS_PER_USER_PER_HOUR = env.int("CONFIRMATIONS_PER_USER_PER_HOUR", default=5)

# --- Mail ---------------------------------------------------------------
OUTBOX_DIR = Path(env.str("OUTBOX_DIR", default=str(VAR_DIR / "outbox")))
if env.str("EMAIL_URL", default=""):
    _email = env.email_url("EMAIL_URL")
    if _email["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend":
        # The same, with a cheaper DATA for large messages (campaigns/mailout/smtp_backend.py).
        _email["EMAIL_BACKEND"] = "campaigns.mailout.smtp_backend.EmailBackend"
    vars().update(_email)
else:
    EMAIL_BACKEND = env.str("EMAIL_BACKEND", default="campaigns.mailout.eml_backend.EmlFileBackend")
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Kriegsbrief <umpire@kriegsbrief.localhost>")
# The domain of our Message-IDs (<…@domain>): a real one, the site's host unless told otherwise.


def _is_domain(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return bool(host)
    return False


# An address literal (127.0.0.1, ::1) is no domain (rspamd's MID_RHS_NOT_FQDN): the local name instead.
_SITE_HOST = urlsplit(SITE_URL).hostname or ""
MAIL_MESSAGE_ID_DOMAIN = env.str(
    "MAIL_MESSAGE_ID_DOMAIN", default=_SITE_HOST if _is_domain(_SITE_HOST) else "kriegsbrief.localhost"
)
# Outbox retries back off from this base, doubling per failure (campaigns.mailout.outbox.backoff).
OUTBOX_RETRY_BASE_SECONDS = env.int("OUTBOX_RETRY_BASE_SECONDS", default=30)
# How long a hung SMTP connection holds a sender (its lease is renewed meanwhile: SEND_LEASE_SECONDS).
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=60)

# --- Mail in (campaigns.mailin) -------------------------------------------
# Seat reply addresses are INBOUND_LOCAL_PART+<token>@INBOUND_DOMAIN.
INBOUND_DOMAIN = env.str("INBOUND_DOMAIN", default="kriegsbrief.localhost")
INBOUND_LOCAL_PART = env.str("INBOUND_LOCAL_PART", default="orders")
# Authentication-Results are trusted only when our own MTA wrote them.
MAIL_AUTHSERV_ID = env.str("MAIL_AUTHSERV_ID", default="mx.kriegsbrief.localhost")
# The authserv-id of the server that delivers into the polled IMAP mailbox (mx.google.com, say):
# over IMAP only its Authentication-Results are read. Unset: none is (no server of ours is on the way).
MAIL_IMAP_AUTHSERV_ID = env.str("MAIL_IMAP_AUTHSERV_ID", default="")
# A message our MTA has not vouched for (no Authentication-Results with MAIL_AUTHSERV_ID on top)
# is held for the umpire instead of applied, whichever way it came in. On in production.
MAIL_REQUIRE_AUTHENTICATION = env.bool("MAIL_REQUIRE_AUTHENTICATION", default=not DEBUG)
MAIL_MAX_BYTES = env.int("MAIL_MAX_BYTES", default=1024 * 1024)
# The hard cap on the bytes kept of one inbound message (every message is kept up to it, an oversized one too).
MAIL_KEEP_MAX_BYTES = env.int("MAIL_KEEP_MAX_BYTES", default=16 * 1024 * 1024)
# Request bodies are capped so nobody can flood us. Orders are small, but the inbound webhook
# posts a whole message: the cap leaves room for one as large as the store keeps (and the form
# around it), so a message that is too large still arrives, is recorded and gets a reply saying so
# (as by pipe or IMAP) instead of an HTTP 400 that nobody reads.
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int(
    "DATA_UPLOAD_MAX_MEMORY_SIZE", default=max(4 * MAIL_MAX_BYTES, MAIL_KEEP_MAX_BYTES + 1024 * 1024)
)
MAIL_MAX_PARTS = env.int("MAIL_MAX_PARTS", default=20)
MAIL_REPLIES_PER_THREAD_HOUR = env.int("MAIL_REPLIES_PER_THREAD_HOUR", default=10)  # suspect/automatic traffic
MAIL_ACKS_PER_THREAD_HOUR = env.int("MAIL_ACKS_PER_THREAD_HOUR", default=60)  # a person's acknowledgements
# IMAP poller (Celery beat); unset host means no polling.
MAIL_IMAP_URL = env.str("MAIL_IMAP_URL", default="")  # imap://user:pw@host:143/INBOX or imaps://
MAIL_IMAP_INTERVAL_SECONDS = env.int("MAIL_IMAP_INTERVAL_SECONDS", default=60)
CELERY_BEAT_SCHEDULE["mail-imap-poll"] = {
    "task": "campaigns.mailin.tasks.poll_imap",
    "schedule": float(MAIL_IMAP_INTERVAL_SECONDS),
}
CELERY_BEAT_SCHEDULE["mail-retry-inbound"] = {"task": "campaigns.mailin.tasks.retry_inbound", "schedule": 120.0}
# Inbound webhook (anymail, Mailgun raw MIME): refused while either is unset.
ANYMAIL = {
    "MAILGUN_WEBHOOK_SIGNING_KEY": env.str("MAILGUN_WEBHOOK_SIGNING_KEY", default=""),
    "WEBHOOK_SECRET": env.str("ANYMAIL_WEBHOOK_SECRET", default=""),  # "user:password" for basic auth
}
# A webhook post signed further than this from now is refused, and so is a signature token seen before.
MAILGUN_WEBHOOK_MAX_AGE_SECONDS = env.int("MAILGUN_WEBHOOK_MAX_AGE_SECONDS", default=300)

# --- API ----------------------------------------------------------------
REST_FRAMEWORK = {
    # Token first, so an API client without credentials gets 401 with
    # WWW-Authenticate; browsers still authenticate by session. Tokens are django-rest-knox's
    # (hashed, expiring, revoked at logout and password change), sent as "Authorization: Token <t>".
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "api.tokens.TokenAuthentication",  # knox's, in one query (api/tokens.py)
        "rest_framework.authentication.SessionAuthentication",
    ],
    # Attempts at /api/auth/token/ per client address, whatever the username (axes locks pairs).
    "DEFAULT_THROTTLE_RATES": {"login": env.str("API_LOGIN_RATE", default="30/minute")},
    # Throttles key on REMOTE_ADDR unless told how many proxies put their address in X-Forwarded-For.
    "NUM_PROXIES": env.int("API_NUM_PROXIES", default=0),
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PARSER_CLASSES": ["api.parsers.JSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
}
REST_KNOX = {
    "TOKEN_TTL": timedelta(hours=env.int("API_TOKEN_TTL_HOURS", default=10)),
    "AUTH_HEADER_PREFIX": "Token",
    "TOKEN_LIMIT_PER_USER": env.int("API_TOKENS_PER_USER", default=20),
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Kriegsbrief API",
    "DESCRIPTION": "Play-by-email wargame campaigns: games, seats, orders and per-viewer views.",
    "VERSION": "1",
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # a battle's status beside a game's: each its own enum, named
    "ENUM_NAME_OVERRIDES": {
        "BattleStatusEnum": ["joined", "fighting", "finished", "resolved"],
        "StatusEnum": "campaigns.models.Seat.Status",  # the name it had before battles had a status
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        "celery.app.trace": {"level": "WARNING"},
        "pyvips": {"level": "WARNING"},  # libvips narrates every picture at INFO ("threadpool completed")
    },
}

# --- HTTPS ----------------------------------------------------------------
# On unless DEBUG (manage.py check --deploy is clean with these); each can be set on its own.
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=not DEBUG)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=not DEBUG)
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=not DEBUG)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # load balancers probe over plain HTTP
# /healthz gives its counts and ages only to staff or to a monitor sending this bearer token.
HEALTHZ_TOKEN = env.str("HEALTHZ_TOKEN", default="")
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0 if DEBUG else 365 * 24 * 3600)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=not DEBUG)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=not DEBUG)
# The proxy in front (deploy/) terminates TLS and says so in X-Forwarded-Proto.
if env.bool("SECURE_PROXY_SSL", default=not DEBUG):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
