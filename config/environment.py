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


def database_from_env(sqlite_path: Path, environ=os.environ) -> dict:
    """``DATABASE_URL`` through dj-database-url, or the embedded SQLite file."""
    url = environ.get("DATABASE_URL", "").strip()
    if not url:
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": sqlite_path,
            # Several async consumers write at once: wait for the lock instead of failing.
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
            # Tests get a file, not SQLite's in-memory database, so that a live ASGI server process
            # (tests/live_asgi.py) can share it; one file per test run, removed when the run ends.
            "TEST": {"NAME": str(Path(tempfile.gettempdir()) / f"ocho-test-{os.getpid()}.sqlite3")},
        }
    # Persistent connections are opt-in (CONN_MAX_AGE seconds): consumers run ORM calls in worker
    # threads, and a connection kept open there outlives the call that opened it. No health check
    # (a `SELECT 1` before every database call of a socket: one more round trip for each, about 10%
    # of the move threads' waiting in a profile): a connection that broke fails one call (answered
    # `unavailable`) and is then replaced.
    max_age = int(environ.get("CONN_MAX_AGE", "0"))
    config = dj_database_url.parse(url, conn_max_age=max_age, conn_health_checks=False)
    if config["ENGINE"] not in ("django.db.backends.postgresql", "django.db.backends.sqlite3"):
        raise ImproperlyConfigured(f"DATABASE_URL scheme not supported here: {config['ENGINE']}")
    return config


def channel_layers_from_env(environ=os.environ) -> dict:
    """Channels' in-memory layer for one process, or channels-redis for several workers.

    With Redis, channels-redis 4.3's pub/sub layer: it keeps no per-channel queues in Redis (a message
    for a socket that went away is simply dropped) and each worker process holds one subscribing and
    one publishing connection per Redis host (publishes are serialised by a lock; the layer has no
    connection-pool size to tune, unlike the list-based ``RedisChannelLayer``).

    ``CHANNEL_LAYER_KEY`` (comma-separated for a rotation: the first encrypts, all decrypt) turns on
    the layer's Fernet encryption of every message. Our table messages carry no card ("changed,
    version N" and presence), but nothing in Redis should be readable by whoever can read Redis.
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
    return {"default": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer", "CONFIG": config}}
