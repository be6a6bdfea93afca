"""Settings for the tournament site.

Everything that differs between a laptop and a real deployment comes from the environment:

- ``DATABASE_URL``: unset means a SQLite file in the project folder; ``postgres://…`` means PostgreSQL
  through psycopg 3, with its connection pool (``DATABASE_POOL``, ``DATABASE_POOL_MAX_SIZE``: see
  ``config/environment.py`` and docs/deploy.md).
- ``REDIS_URL``: unset means Channels' in-memory layer (one process only); set means channels-redis.
- ``SECRET_KEY``, ``DEBUG``, ``ALLOWED_HOSTS``, ``CSRF_TRUSTED_ORIGINS``: development defaults work out of
  the box; ``DEBUG=0`` refuses to start without a real ``SECRET_KEY``.
- ``EMAIL_HOST``, ``EMAIL_PORT``, ``EMAIL_HOST_USER``, ``EMAIL_HOST_PASSWORD``: SMTP; unset prints mail
  to the console.
"""

import re
from datetime import timedelta
from pathlib import Path

from csp.constants import NONCE, NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from config.environment import (
    channel_layers_from_env,
    database_from_env,
    host_list,
    number,
    secret_key_from_env,
    text,
    vapid_keys_from_env,
    whole_number,
    yes_no,
)

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = yes_no("DEBUG", True)
SECRET_KEY = secret_key_from_env(debug=DEBUG, key_file=BASE_DIR / ".secret_key")

ALLOWED_HOSTS = host_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"] if DEBUG else [])
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must be set (comma-separated) when DEBUG=0.")
CSRF_TRUSTED_ORIGINS = host_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",  # makes `runserver` an ASGI server with websockets
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "axes",  # django-axes: failed logins per account and per client address (docs/security.md)
    "crispy_forms",
    "crispy_bootstrap5",
    "csp",  # django-csp: the Content-Security-Policy header (below)
    "bootstrap",  # django-bootstrap-static: Bootstrap 5 served locally, no CDN
    "tournament",
    "games",
    "access_tokens",
    "notifications",
    "ratings",  # ratings, ladders, player pages: reads games and tournament, neither reads it
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Before WhiteNoise, so static files (SVG icons among them) carry the policy too.
    "config.csp_reports.ReportingCSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",  # a locked-out login answers 429 with the lockout page
]

ROOT_URLCONF = "config.urls"

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

WSGI_APPLICATION = None
ASGI_APPLICATION = "config.asgi.application"

DATABASES = {"default": database_from_env(BASE_DIR / "db.sqlite3")}
# Threads per process for the live tables' database work (games/db_threads.py): a pool on
# PostgreSQL so moves at different tables overlap; 0 on SQLite (one writer at a time), where the calls
# keep Channels' one thread. Each thread holds its own connection: workers x threads (+ the sweeper)
# must stay under PostgreSQL's max_connections.
# 2 by default on PostgreSQL, not more: more threads per worker make each move wait for the GIL and a
# CPU after every round trip (docs/performance.md).
LIVE_DB_THREADS = whole_number(
    "LIVE_DB_THREADS", 0 if DATABASES["default"]["ENGINE"].endswith("sqlite3") else 2, minimum=0)
# With psycopg's pool (config/environment.py, on by default on PostgreSQL) those threads take their
# connections from the process's pool, as the page requests do: a pool smaller than the threads would
# make live moves wait for one another's connections.
_POOL = DATABASES["default"].get("OPTIONS", {}).get("pool")
if _POOL and _POOL["max_size"] < LIVE_DB_THREADS:
    raise ImproperlyConfigured(
        f"DATABASE_POOL_MAX_SIZE={_POOL['max_size']} is below LIVE_DB_THREADS={LIVE_DB_THREADS}: each live "
        "database thread holds a connection during its call; raise the pool or lower LIVE_DB_THREADS.")
# Connections per process of the live moves' own (asyncpg, on the event loop: games/services/move_pool.py): on
# PostgreSQL an ordinary move is stored in one statement through it (games/services/move_sql.py); 0 sends
# every move through the ORM path on the database threads above.
LIVE_MOVE_SQL_CONNECTIONS = whole_number("LIVE_MOVE_SQL_CONNECTIONS", 8, minimum=0)
CHANNEL_LAYERS = channel_layers_from_env()
# Caches: Redis, shared by every worker process and machine, when REDIS_URL is set; else this process's
# memory. Leaderboard and bracket pages are cached per event and scores version (tournament/scores_version.py,
# tournament/standings_cache.py, tournament/public_pages.py): the version is read again at most every
# STANDINGS_VERSION_CHECK_SECONDS per process; computed standings and rendered pages are shared through the
# cache with Redis.
_REDIS_URL = text("REDIS_URL", "")
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": _REDIS_URL,
                "KEY_PREFIX": text("CACHE_KEY_PREFIX", "ocho")}
    if _REDIS_URL
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
}
STANDINGS_SHARED_CACHE = bool(_REDIS_URL)
STANDINGS_VERSION_CHECK_SECONDS = number("STANDINGS_VERSION_CHECK_SECONDS", 1.0, minimum=0)
STANDINGS_CACHE_SECONDS = number("STANDINGS_CACHE_SECONDS", 60.0, minimum=0)
# Events of at least STANDINGS_SETTLE_MIN_PLAYERS players show scores that move on at most every
# STANDINGS_SETTLE_SECONDS while hands are being scored (tournament/scores_version.py).
STANDINGS_SETTLE_SECONDS = number("STANDINGS_SETTLE_SECONDS", 2.0, minimum=0)
STANDINGS_SETTLE_MIN_PLAYERS = whole_number("STANDINGS_SETTLE_MIN_PLAYERS", 1000, minimum=1)
# Cache-Control of the public pages (tournament/public_pages.py), the same for every reader: how many
# seconds a browser and a shared cache (nginx in front, docs/deploy.md) may keep one, and how long a
# shared cache may serve it stale while it asks again (conditional GETs are answered 304).
PUBLIC_PAGE_MAX_AGE = whole_number("PUBLIC_PAGE_MAX_AGE", 1, minimum=0)
PUBLIC_PAGE_PROXY_MAX_AGE = whole_number("PUBLIC_PAGE_PROXY_MAX_AGE", 1, minimum=0)
PUBLIC_PAGE_STALE_SECONDS = whole_number("PUBLIC_PAGE_STALE_SECONDS", 30, minimum=0)
# Production runs the timer/bot sweeper as its own process (`manage.py run_sweeper`) and sets this to 0
# for the ASGI workers (games/services/timers.py).
LIVE_SWEEPER_IN_PROCESS = yes_no("LIVE_SWEEPER_IN_PROCESS", True)
# How often each worker reads the stored versions of the tables it holds sockets at, so that a change whose
# broadcast never came still reaches them (games/services/missed_changes.py); 0 turns the check off.
LIVE_MISSED_CHANGE_SECONDS = number("LIVE_MISSED_CHANGE_SECONDS", 0.5, minimum=0)
# Caps on websockets (config/socket_caps.py): openings per account (or anonymous client address) per 10 s,
# shared through the cache; sockets open at once per account, per anonymous address and (larger, for a
# campus behind one address) logged-in sockets per address, per worker.
SOCKET_OPEN_RATE = (whole_number("SOCKET_OPENS_PER_10_SECONDS", 30, minimum=1), 10)
SOCKET_MAX_OPEN_PER_ACCOUNT = whole_number("SOCKET_MAX_OPEN_PER_ACCOUNT", 12, minimum=1)
SOCKET_MAX_OPEN_PER_ADDRESS = whole_number("SOCKET_MAX_OPEN_PER_ADDRESS", 60, minimum=1)
SOCKET_MAX_OPEN_PER_ADDRESS_LOGGED_IN = whole_number("SOCKET_MAX_OPEN_PER_ADDRESS_LOGGED_IN", 400, minimum=1)
# Caps on practice games (games/services/practice_caps.py): running at once per account; starts per client
# address per minute, shared through the cache.
LIVE_PRACTICE_MAX_RUNNING = whole_number("LIVE_PRACTICE_MAX_RUNNING", 3, minimum=1)
LIVE_PRACTICE_STARTS_PER_ADDRESS = (whole_number("LIVE_PRACTICE_STARTS_PER_MINUTE", 20, minimum=1), 60)
# How often each worker checks the tokens of its token sockets (access_tokens/socket_watch.py; 0: off).
ACCESS_TOKEN_RECHECK_SECONDS = number("ACCESS_TOKEN_RECHECK_SECONDS", 5.0, minimum=0)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Failed logins (the students' login page and /admin/login/ alike) are counted by django-axes, in the
# database, per account and per client address: after LOGIN_FAILURE_LIMIT failures within
# LOGIN_LOCKOUT_MINUTES either one is refused (429: tournament/views/login_lockout.py), the right
# password too, until the time has passed since the last failure or an admin deletes the access attempt
# (admin: Axes > Access attempts; `manage.py axes_reset_username NAME`). The client address is
# REMOTE_ADDR only: behind a proxy, uvicorn's --proxy-headers puts the real address there and only for
# the proxies in FORWARDED_ALLOW_IPS, so a client cannot choose it with its own X-Forwarded-For.
# AxesBackend, not the standalone one: a session names the first backend when a login gives none (the
# test client's force_login, benchmark sessions), and only AxesBackend can load that session's user.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = whole_number("LOGIN_FAILURE_LIMIT", 10, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=number("LOGIN_LOCKOUT_MINUTES", 15.0, minimum=0.1))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_LOCKOUT_CALLABLE = "tournament.views.login_lockout.lockout_response"
AXES_IPWARE_META_PRECEDENCE_ORDER = ("REMOTE_ADDR",)
AXES_DISABLE_ACCESS_LOG = True  # successful logins are not recorded: the table would only grow
AXES_VERBOSE = False
# Requests per user to the bots' JSON API (tournament/views/api_rate_limit.py): "N/Ps", N requests per P
# seconds (also m, h); past it a 429 with Retry-After.
API_RATE_LIMIT = text("API_RATE_LIMIT", "20/10s")
if not re.fullmatch(r"[1-9]\d*/\d*[smhd]", API_RATE_LIMIT):
    raise ImproperlyConfigured(f"API_RATE_LIMIT={API_RATE_LIMIT!r}: give requests/period, e.g. 20/10s or 60/m.")
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Development serves straight from the apps' static folders; production from collectstatic's output.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Content-Security-Policy on every response (django-csp; docs/security.md): everything from the site
# itself, no inline script anywhere. Inline <style> blocks of the admin's organizer pages carry the
# request's nonce (request.csp_nonce); a nonce is only added to the header when a page used one, so the
# cached public pages (rendered without a request) need none. data: images are Bootstrap's own CSS icons
# (the navbar toggler, select arrows, close buttons). Violations go to the report endpoint
# (config/csp_reports.py), which logs them.
CSP_REPORT_PATH = "/csp-report/"
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, NONCE],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "frame-ancestors": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "report-uri": CSP_REPORT_PATH,
        "report-to": "csp",
    },
}

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"

# Mail: printed on the console unless an SMTP host is configured.
EMAIL_HOST = text("EMAIL_HOST", "")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = whole_number("EMAIL_PORT", 587, minimum=1)
    EMAIL_HOST_USER = text("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = text("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = yes_no("EMAIL_USE_TLS", True)
    DEFAULT_FROM_EMAIL = text("DEFAULT_FROM_EMAIL", "tournaments@localhost")
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    DEFAULT_FROM_EMAIL = "tournaments@localhost"

# Notifications to students' phones (notifications/): Web Push signed with the site's VAPID keys, and e-mail
# for students without push, at most one mail of a kind per event every NOTIFICATION_MAIL_INTERVAL seconds.
VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY = vapid_keys_from_env(debug=DEBUG, key_file=BASE_DIR / ".vapid_keys")
VAPID_SUBJECT = text("VAPID_SUBJECT", f"mailto:{DEFAULT_FROM_EMAIL}")
# 0 tells nobody anything (the demo command builds its event with it off: its students are made up).
NOTIFY_STUDENTS = yes_no("NOTIFY_STUDENTS", True)
# The site's address as students reach it: the links in notification mails (no request to take it from).
SITE_URL = text("SITE_URL", "http://127.0.0.1:8000")
# Threads per process that send notifications (notifications/background.py; each holds a database
# connection while it works).
NOTIFICATION_THREADS = whole_number("NOTIFICATION_THREADS", 4, minimum=1)
NOTIFICATION_MAIL_INTERVAL = whole_number("NOTIFICATION_MAIL_INTERVAL", 300, minimum=0)

if not DEBUG:
    # Production: HTTPS everywhere, cookies only over TLS. SECURE_SSL_REDIRECT can be switched off
    # when a proxy in front terminates TLS and redirects itself.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = yes_no("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = whole_number("SECURE_HSTS_SECONDS", 31536000, minimum=0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
    "loggers": {
        "django": {"handlers": ["console"], "level": "INFO", "propagate": False},
        "games": {"handlers": ["console"], "level": "INFO", "propagate": False},
        "tournament": {"handlers": ["console"], "level": "INFO", "propagate": False},
    },
}
