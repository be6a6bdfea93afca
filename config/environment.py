"""Reading settings from the environment: small parsers kept apart from settings.py so tests can call them."""

import os
import secrets
import tempfile
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off", ""}


def env_bool(name: str, *, default: bool, environ=os.environ) -> bool:
    raw = environ.get(name)
    if raw is None:
        return default
    word = raw.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a yes/no value; use 1 or 0.")


def env_list(name: str, *, default: list[str], environ=os.environ) -> list[str]:
    raw = environ.get(name)
    if raw is None:
        return list(default)
    return [part.strip() for part in raw.split(",") if part.strip()]


def secret_key_from_env(*, debug: bool, key_file: Path, environ=os.environ) -> str:
    """The real key in production; in development a generated key kept in a git-ignored file."""
    key = environ.get("SECRET_KEY", "").strip()
    if key:
        if not debug and (len(key) < 50 or len(set(key)) < 5 or key.startswith("django-insecure")):
            raise ImproperlyConfigured("SECRET_KEY is too weak for production: use 50+ random characters.")
        return key
    if not debug:
        raise ImproperlyConfigured("SECRET_KEY must be set in the environment when DEBUG=0.")
    if key_file.exists():
        return key_file.read_text().strip()
    key = secrets.token_urlsafe(60)
    key_file.write_text(key)
    key_file.chmod(0o600)
    return key


def env_number(name: str, *, default: float, minimum: float, environ=os.environ, whole: bool = True):
    """A number from the environment (a whole one unless `whole=False`), at least `minimum`."""
    raw = environ.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        value = int(raw) if whole else float(raw)
    except ValueError:
        value = None
    if value is None or value != value or value < minimum:  # value != value: NaN
        kind = "a whole number" if whole else "a number"
        raise ImproperlyConfigured(f"{name}={raw!r} is not {kind} of at least {minimum:g}.")
    return value


def database_from_env(sqlite_path: Path, environ=os.environ) -> dict:
    """``DATABASE_URL`` through dj-database-url, or the embedded SQLite file; on PostgreSQL with
    psycopg's connection pool unless persistent connections (``CONN_MAX_AGE``) are asked for."""
    url = environ.get("DATABASE_URL", "").strip()
    if not url:
        database_pool_from_env("django.db.backends.sqlite3", 0, environ)  # refuses pool settings
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": sqlite_path,
            # Several async consumers write at once: wait for the lock instead of failing.
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
            # Tests get a file, not SQLite's in-memory database, so that a live ASGI server process
            # (tests/live_asgi.py) can share it; one file per test run, removed when the run ends.
            "TEST": {"NAME": str(Path(tempfile.gettempdir()) / f"ocho-test-{os.getpid()}.sqlite3")},
        }
    # No health check (a `SELECT 1` before every database call of a socket: one more round trip for
    # each, about 10% of the move threads' waiting in a profile): a connection that broke fails one call
    # (answered `unavailable`) and is then replaced.
    max_age = env_number("CONN_MAX_AGE", default=0, minimum=0, environ=environ)
    config = dj_database_url.parse(url, conn_max_age=max_age, conn_health_checks=False)
    if config["ENGINE"] not in ("django.db.backends.postgresql", "django.db.backends.sqlite3"):
        raise ImproperlyConfigured(f"DATABASE_URL scheme not supported here: {config['ENGINE']}")
    pool = database_pool_from_env(config["ENGINE"], max_age, environ)
    if pool:
        config.setdefault("OPTIONS", {})["pool"] = pool
    return config


POOL_DEFAULTS = {"min_size": 2, "max_size": 20, "timeout": 10.0}


def database_pool_from_env(engine: str, max_age: int, environ=os.environ) -> dict | None:
    """Options of psycopg's connection pool (Django's ``OPTIONS["pool"]``), or None for none.

    Under ASGI each page request runs its database work in a thread of its own, and a thread's
    connection is its own: with ``CONN_MAX_AGE`` > 0 every request left one open (70-82 for 20 readers,
    and "too many clients"). With the pool, a request or database call gives its connection back when
    it ends and the next one takes it, whatever its thread; at most ``max_size`` per process, a caller
    beyond that waits up to ``timeout`` seconds and then fails (``OperationalError``). On by default on
    PostgreSQL; ``CONN_MAX_AGE`` > 0 (persistent connections per thread, which Django cannot combine
    with a pool) means no pool, as does ``DATABASE_POOL=0``.
    """
    possible = engine == "django.db.backends.postgresql" and not max_age
    wanted = env_bool("DATABASE_POOL", default=possible, environ=environ)
    if engine != "django.db.backends.postgresql":
        off_because = "SQLite has no connection pool"
    elif max_age:
        off_because = (f"CONN_MAX_AGE={max_age} means persistent connections per thread, which Django's pool "
                       "does not go with (the pool keeps the connections); set CONN_MAX_AGE=0 to use the pool")
    else:
        off_because = "DATABASE_POOL=0"
    if wanted and not possible:
        raise ImproperlyConfigured(f"DATABASE_POOL=1, but {off_because}.")
    if not wanted:
        sizes = sorted(f"DATABASE_POOL_{key.upper()}" for key in POOL_DEFAULTS
                       if environ.get(f"DATABASE_POOL_{key.upper()}", "").strip())
        if sizes:
            raise ImproperlyConfigured(f"{', '.join(sizes)} set, but there is no pool: {off_because}.")
        return None
    min_size = env_number("DATABASE_POOL_MIN_SIZE", default=POOL_DEFAULTS["min_size"], minimum=0, environ=environ)
    max_size = env_number("DATABASE_POOL_MAX_SIZE", default=max(POOL_DEFAULTS["max_size"], min_size),
                          minimum=1, environ=environ)
    if max_size < min_size:
        raise ImproperlyConfigured(f"DATABASE_POOL_MAX_SIZE={max_size} is below DATABASE_POOL_MIN_SIZE={min_size}.")
    timeout = env_number("DATABASE_POOL_TIMEOUT", default=POOL_DEFAULTS["timeout"], minimum=0.1,
                         environ=environ, whole=False)
    return {"min_size": min_size, "max_size": max_size, "timeout": timeout}


def channel_layers_from_env(environ=os.environ) -> dict:
    """Channels' in-memory layer for one process, or channels-redis for several workers.

    With Redis, channels-redis 4.3's pub/sub layer: it keeps no per-channel queues in Redis (a message
    for a socket that went away is simply dropped) and each worker process holds one subscribing and
    one publishing connection per Redis host (publishes are serialised by a lock; the layer has no
    connection-pool size to tune, unlike the list-based ``RedisChannelLayer``).

    ``CHANNEL_LAYER_KEY`` (comma-separated for a rotation: the first encrypts, all decrypt) turns on
    the layer's Fernet encryption of every message. It is required in production (deploy check
    games.E001): a table's change travels with its signal, every hand included.
    """
    url = environ.get("REDIS_URL", "").strip()
    if not url:
        return {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    host: dict = {"address": url}
    config: dict = {"hosts": [host], "prefix": environ.get("CHANNEL_LAYER_PREFIX", "asgi").strip() or "asgi"}
    keys = env_list("CHANNEL_LAYER_KEY", default=[], environ=environ)
    if keys:
        if any(len(key) < 32 for key in keys):
            raise ImproperlyConfigured("CHANNEL_LAYER_KEY must be 32+ random characters "
                                       "(python -c 'import secrets; print(secrets.token_urlsafe(40))').")
        config["symmetric_encryption_keys"] = keys
    # channels-redis's pub/sub layer, decoding a group message once per process (config/channel_layer.py)
    return {"default": {"BACKEND": "config.channel_layer.SharedDecodingPubSubLayer", "CONFIG": config}}
