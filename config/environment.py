"""Reading settings from the environment, kept apart from settings.py so tests can call the parts.

Every variable is read one way: through environs, which parses and validates with marshmallow, by the
readers below (`text`, `yes_no`, `whole_number`, `number`, `host_list`), which refuse a bad value naming
the variable and its value. What is ours is only what no library knows: which settings go
together (the connection pool and persistent connections, the channel layer's key), the secret key
kept in a file for development, and the database and channel layer configurations they build.
"""

import os
import secrets
import tempfile
from base64 import urlsafe_b64encode
from pathlib import Path

import dj_database_url
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.exceptions import ImproperlyConfigured
from environs import Env, EnvValidationError
from marshmallow.validate import Range

env = Env()


def _parsed(parse, name: str, default, **options):
    """``parse(name, default)`` through environs; a bad value is refused naming the variable and its value."""
    try:
        return parse(name, default, **options)
    except EnvValidationError as error:
        raise ImproperlyConfigured(f"{name}={os.environ.get(name)!r}: {' '.join(error.error_messages)}") from error


def text(name: str, default: str = "") -> str:
    return _parsed(env.str, name, default).strip()


def yes_no(name: str, default: bool) -> bool:
    return _parsed(env.bool, name, default)


def whole_number(name: str, default: int, *, minimum: int) -> int:
    return _parsed(env.int, name, default, validate=Range(min=minimum))


def number(name: str, default: float, *, minimum: float) -> float:
    """A finite number (environs refuses NaN and infinity) of at least ``minimum``."""
    return _parsed(env.float, name, default, validate=Range(min=minimum))


def host_list(name: str, default: list[str]) -> list[str]:
    """A comma-separated list, with spaces around items and empty items dropped."""
    return [item.strip() for item in _parsed(env.list, name, default) if item.strip()]


def secret_key_from_env(*, debug: bool, key_file: Path) -> str:
    """The real key in production; in development a generated key kept in a git-ignored file."""
    key = text("SECRET_KEY")
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


def vapid_keys_from_env(*, debug: bool, key_file: Path) -> tuple[str, str]:
    """(public, private) VAPID keys of Web Push, base64url: the uncompressed P-256 point a browser
    subscribes with, and the raw 32-byte private number that signs each push. From ``VAPID_PUBLIC_KEY`` and
    ``VAPID_PRIVATE_KEY``; in development a pair is generated once into a git-ignored file. In production
    without them push is off (("", "")) and students who want notifications get e-mail."""
    public, private = text("VAPID_PUBLIC_KEY"), text("VAPID_PRIVATE_KEY")
    if bool(public) != bool(private):
        raise ImproperlyConfigured("VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together: set both or neither.")
    if public:
        return public, private
    if not debug:
        return "", ""
    if key_file.exists():
        public, private = key_file.read_text().split()
        return public, private
    public, private = new_vapid_keys()
    key_file.write_text(f"{public}\n{private}\n")
    key_file.chmod(0o600)
    return public, private


def new_vapid_keys() -> tuple[str, str]:
    """A fresh (public, private) VAPID pair, base64url without padding (`manage.py vapid_keys` prints one)."""
    key = ec.generate_private_key(ec.SECP256R1())
    point = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    number = key.private_numbers().private_value.to_bytes(32, "big")
    return tuple(urlsafe_b64encode(raw).rstrip(b"=").decode() for raw in (point, number))


def database_from_env(sqlite_path: Path) -> dict:
    """``DATABASE_URL`` through dj-database-url, or the embedded SQLite file; on PostgreSQL with
    psycopg's connection pool unless persistent connections (``CONN_MAX_AGE``) are asked for."""
    url = text("DATABASE_URL")
    if not url:
        database_pool_from_env("django.db.backends.sqlite3", 0)  # refuses pool settings
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
    # each): a connection that broke fails one call (answered `unavailable`) and is then replaced.
    max_age = whole_number("CONN_MAX_AGE", 0, minimum=0)
    config = dj_database_url.parse(url, conn_max_age=max_age, conn_health_checks=False)
    if config["ENGINE"] not in ("django.db.backends.postgresql", "django.db.backends.sqlite3"):
        raise ImproperlyConfigured(f"DATABASE_URL scheme not supported here: {config['ENGINE']}")
    pool = database_pool_from_env(config["ENGINE"], max_age)
    if pool:
        config.setdefault("OPTIONS", {})["pool"] = pool
    return config


POOL_DEFAULTS = {"min_size": 2, "max_size": 20, "timeout": 10.0}


def database_pool_from_env(engine: str, max_age: int) -> dict | None:
    """Options of psycopg's connection pool (Django's ``OPTIONS["pool"]``), or None for none.

    Under ASGI each page request runs its database work in a thread of its own, and a thread's
    connection is its own: with ``CONN_MAX_AGE`` > 0 every request leaves one open. With the pool, a
    request or database call gives its connection back when it ends and the next one takes it,
    whatever its thread; at most ``max_size`` per process, a caller beyond that waits up to ``timeout``
    seconds and then fails (``OperationalError``). On by default on PostgreSQL; ``CONN_MAX_AGE`` > 0
    (persistent connections per thread, which Django cannot combine with a pool) means no pool, as does
    ``DATABASE_POOL=0``.
    """
    possible = engine == "django.db.backends.postgresql" and not max_age
    wanted = yes_no("DATABASE_POOL", possible)
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
                       if text(f"DATABASE_POOL_{key.upper()}"))
        if sizes:
            raise ImproperlyConfigured(f"{', '.join(sizes)} set, but there is no pool: {off_because}.")
        return None
    min_size = whole_number("DATABASE_POOL_MIN_SIZE", POOL_DEFAULTS["min_size"], minimum=0)
    max_size = whole_number("DATABASE_POOL_MAX_SIZE", max(POOL_DEFAULTS["max_size"], min_size), minimum=1)
    if max_size < min_size:
        raise ImproperlyConfigured(f"DATABASE_POOL_MAX_SIZE={max_size} is below DATABASE_POOL_MIN_SIZE={min_size}.")
    timeout = number("DATABASE_POOL_TIMEOUT", POOL_DEFAULTS["timeout"], minimum=0.1)
    return {"min_size": min_size, "max_size": max_size, "timeout": timeout}


def channel_layers_from_env() -> dict:
    """Channels' in-memory layer for one process, or channels-redis for several workers.

    With Redis, channels-redis's pub/sub layer: it keeps no per-channel queues in Redis (a message
    for a socket that went away is simply dropped) and each worker process holds one subscribing and
    one publishing connection per Redis host.

    ``CHANNEL_LAYER_KEY`` (comma-separated for a rotation: the first encrypts, all decrypt) turns on
    the layer's Fernet encryption of every message. It is required in production (deploy check
    games.E001): a table's change travels with its signal, every hand included.
    """
    url = text("REDIS_URL")
    if not url:
        return {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    host: dict = {"address": url}
    config: dict = {"hosts": [host], "prefix": text("CHANNEL_LAYER_PREFIX", "asgi") or "asgi"}
    keys = host_list("CHANNEL_LAYER_KEY", [])
    if keys:
        if any(len(key) < 32 for key in keys):
            raise ImproperlyConfigured("CHANNEL_LAYER_KEY must be 32+ random characters "
                                       "(python -c 'import secrets; print(secrets.token_urlsafe(40))').")
        config["symmetric_encryption_keys"] = keys
    # channels-redis's pub/sub layer, decoding a group message once per process (config/channel_layer.py)
    return {"default": {"BACKEND": "config.channel_layer.SharedDecodingPubSubLayer", "CONFIG": config}}
