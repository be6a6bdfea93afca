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

from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from config.environment import (
    channel_layers_from_env,
    database_from_env,
    host_list,
    number,
    secret_key_from_env,
    text,
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
    "crispy_forms",
    "crispy_bootstrap5",
    "bootstrap",  # django-bootstrap-static: Bootstrap 5 served locally, no CDN
    "tournament",
    "games",
    "access_tokens",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
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

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
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
