import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.environment import (
    channel_layers_from_env,
    database_from_env,
    env_bool,
    env_list,
    secret_key_from_env,
)


def test_database_defaults_to_sqlite_file(tmp_path):
    config = database_from_env(tmp_path / "db.sqlite3", environ={})
    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert config["NAME"] == tmp_path / "db.sqlite3"


def test_database_url_selects_postgresql(tmp_path):
    config = database_from_env(
        tmp_path / "db.sqlite3", environ={"DATABASE_URL": "postgres://u:secret@db.example:6543/ocho"}
    )
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["HOST"], config["PORT"], config["NAME"], config["USER"], config["PASSWORD"]) == (
        "db.example",
        6543,
        "ocho",
        "u",
        "secret",
    )


def test_database_url_refuses_unsupported_scheme(tmp_path):
    with pytest.raises(ImproperlyConfigured):
        database_from_env(tmp_path / "x", environ={"DATABASE_URL": "mysql://u@h/db"})


def test_channel_layer_in_memory_without_redis():
    assert channel_layers_from_env({})["default"]["BACKEND"] == "channels.layers.InMemoryChannelLayer"


def test_channel_layer_uses_redis_url():
    layer = channel_layers_from_env({"REDIS_URL": "redis://127.0.0.1:6379/2"})["default"]
    assert layer["BACKEND"] == "config.channel_layer.SharedDecodingPubSubLayer"  # channels-redis's pub/sub
    assert layer["CONFIG"]["hosts"][0]["address"] == "redis://127.0.0.1:6379/2"


def test_secret_key_generated_once_in_development(tmp_path):
    key_file = tmp_path / ".secret_key"
    first = secret_key_from_env(debug=True, key_file=key_file, environ={})
    assert len(first) >= 50
    assert secret_key_from_env(debug=True, key_file=key_file, environ={}) == first


def test_production_refuses_missing_or_weak_secret(tmp_path: Path):
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY must be set"):
        secret_key_from_env(debug=False, key_file=tmp_path / "k", environ={})
    with pytest.raises(ImproperlyConfigured, match="too weak"):
        secret_key_from_env(debug=False, key_file=tmp_path / "k", environ={"SECRET_KEY": "short"})
    strong = "x1Y2z3" * 10
    assert secret_key_from_env(debug=False, key_file=tmp_path / "k", environ={"SECRET_KEY": strong}) == strong


@pytest.mark.parametrize("raw,expected", [("1", True), ("0", False), ("yes", True), ("off", False)])
def test_env_bool(raw, expected):
    assert env_bool("DEBUG", default=not expected, environ={"DEBUG": raw}) is expected


def test_env_bool_refuses_nonsense():
    with pytest.raises(ImproperlyConfigured, match="DEBUG"):
        env_bool("DEBUG", default=True, environ={"DEBUG": "maybe"})


def test_env_list_splits_commas():
    assert env_list("H", default=[], environ={"H": "a.example, b.example,"}) == ["a.example", "b.example"]


def test_channel_layer_is_redis_pubsub_without_key_by_default():
    config = channel_layers_from_env({"REDIS_URL": "redis://r:6379/0"})["default"]
    assert config["BACKEND"] == "config.channel_layer.SharedDecodingPubSubLayer"
    assert "symmetric_encryption_keys" not in config["CONFIG"]


def test_channel_layer_key_turns_on_encryption_and_allows_rotation():
    old, new = "o" * 20 + "ld-key-0123456789ab", "n" * 20 + "ew-key-0123456789ab"
    config = channel_layers_from_env({"REDIS_URL": "redis://r:6379/0", "CHANNEL_LAYER_KEY": f"{new}, {old}"})
    assert config["default"]["CONFIG"]["symmetric_encryption_keys"] == [new, old]


def test_channel_layer_refuses_a_short_key():
    with pytest.raises(ImproperlyConfigured, match="CHANNEL_LAYER_KEY"):
        channel_layers_from_env({"REDIS_URL": "redis://r:6379/0", "CHANNEL_LAYER_KEY": "short"})


async def _through_redis(environ: dict) -> tuple[dict, list[bytes]]:
    """Send one group message through the layer configured from `environ`; (what the member received,
    the raw payloads Redis carried on the layer's channels)."""
    import asyncio

    import redis.asyncio as aioredis

    from config.channel_layer import SharedDecodingPubSubLayer

    config = channel_layers_from_env(environ)["default"]["CONFIG"]
    layer = SharedDecodingPubSubLayer(**config)
    spy = aioredis.from_url(environ["REDIS_URL"])
    pubsub = spy.pubsub()
    await pubsub.psubscribe(f"{config['prefix']}*")
    try:
        channel = await layer.new_channel()
        await layer.group_add("table-7", channel)
        await layer.group_send("table-7", {"type": "game.changed", "version": 41, "note": "plain-marker"})
        received = await asyncio.wait_for(layer.receive(channel), 5)
        raw = []
        for _ in range(50):
            message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=0.1)
            if message:
                raw.append(message["data"])
                break
        return received, raw
    finally:
        await pubsub.aclose()
        await spy.aclose()
        await layer.flush()


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis: set REDIS_URL (CI's second run does)")
async def test_encrypted_layer_delivers_decrypted_and_redis_sees_no_plain_message():
    import secrets

    prefix = f"enc-test-{secrets.token_hex(4)}"
    environ = {"REDIS_URL": os.environ["REDIS_URL"], "CHANNEL_LAYER_PREFIX": prefix,
               "CHANNEL_LAYER_KEY": secrets.token_urlsafe(40)}
    received, raw = await _through_redis(environ)
    assert received == {"type": "game.changed", "version": 41, "note": "plain-marker"}
    assert raw and all(b"plain-marker" not in payload and b"game.changed" not in payload for payload in raw)

    # The same message without a key travels readable (msgpack): the check above can see the difference.
    environ.pop("CHANNEL_LAYER_KEY")
    environ["CHANNEL_LAYER_PREFIX"] = prefix + "-plain"
    received, raw = await _through_redis(environ)
    assert received["note"] == "plain-marker"
    assert raw and any(b"plain-marker" in payload for payload in raw)


PG = "postgres://u@db.example:5432/ocho"


def test_postgresql_uses_the_connection_pool_by_default(tmp_path):
    config = database_from_env(tmp_path / "x", environ={"DATABASE_URL": PG})
    assert config["CONN_MAX_AGE"] == 0
    assert config["OPTIONS"]["pool"] == {"min_size": 2, "max_size": 20, "timeout": 10.0}


def test_pool_sizes_and_timeout_from_env(tmp_path):
    config = database_from_env(tmp_path / "x", environ={
        "DATABASE_URL": PG, "DATABASE_POOL": "1", "DATABASE_POOL_MIN_SIZE": "0",
        "DATABASE_POOL_MAX_SIZE": " 12 ", "DATABASE_POOL_TIMEOUT": "2.5"})
    assert config["OPTIONS"]["pool"] == {"min_size": 0, "max_size": 12, "timeout": 2.5}


def test_a_min_size_above_the_default_max_raises_the_max_with_it(tmp_path):
    config = database_from_env(tmp_path / "x", environ={"DATABASE_URL": PG, "DATABASE_POOL_MIN_SIZE": "30"})
    assert config["OPTIONS"]["pool"]["max_size"] == 30


def test_persistent_connections_mean_no_pool(tmp_path):
    config = database_from_env(tmp_path / "x", environ={"DATABASE_URL": PG, "CONN_MAX_AGE": "60"})
    assert config["CONN_MAX_AGE"] == 60
    assert "pool" not in config.get("OPTIONS", {})


def test_pool_can_be_turned_off(tmp_path):
    config = database_from_env(tmp_path / "x", environ={"DATABASE_URL": PG, "DATABASE_POOL": "0"})
    assert config["CONN_MAX_AGE"] == 0
    assert "pool" not in config.get("OPTIONS", {})


def test_sqlite_never_gets_a_pool(tmp_path):
    assert "pool" not in database_from_env(tmp_path / "x", environ={})["OPTIONS"]
    assert "pool" not in database_from_env(tmp_path / "x", environ={"DATABASE_URL": "sqlite:///x.db"}).get("OPTIONS", {})


@pytest.mark.parametrize("environ,message", [
    ({"DATABASE_POOL": "1"}, "SQLite has no connection pool"),
    ({"DATABASE_URL": "sqlite:///x.db", "DATABASE_POOL": "1"}, "SQLite has no connection pool"),
    ({"DATABASE_POOL_MAX_SIZE": "10"}, "DATABASE_POOL_MAX_SIZE set, but there is no pool: SQLite"),
    ({"DATABASE_URL": PG, "DATABASE_POOL": "1", "CONN_MAX_AGE": "60"}, "CONN_MAX_AGE=60 means persistent"),
    ({"DATABASE_URL": PG, "CONN_MAX_AGE": "60", "DATABASE_POOL_MAX_SIZE": "10"}, "set CONN_MAX_AGE=0"),
    ({"DATABASE_URL": PG, "DATABASE_POOL": "0", "DATABASE_POOL_TIMEOUT": "3"},
     "DATABASE_POOL_TIMEOUT set, but there is no pool: DATABASE_POOL=0"),
    ({"DATABASE_URL": PG, "DATABASE_POOL": "sometimes"}, "DATABASE_POOL='sometimes' is not a yes/no value"),
    ({"DATABASE_URL": PG, "DATABASE_POOL_MAX_SIZE": "0"}, "DATABASE_POOL_MAX_SIZE='0' is not a whole number of at least 1"),
    ({"DATABASE_URL": PG, "DATABASE_POOL_MAX_SIZE": "ten"}, "DATABASE_POOL_MAX_SIZE='ten' is not a whole number"),
    ({"DATABASE_URL": PG, "DATABASE_POOL_MAX_SIZE": "2.5"}, "DATABASE_POOL_MAX_SIZE='2.5' is not a whole number"),
    ({"DATABASE_URL": PG, "DATABASE_POOL_MIN_SIZE": "-1"}, "DATABASE_POOL_MIN_SIZE='-1' is not a whole number of at least 0"),
    ({"DATABASE_URL": PG, "DATABASE_POOL_MIN_SIZE": "5", "DATABASE_POOL_MAX_SIZE": "4"},
     "DATABASE_POOL_MAX_SIZE=4 is below DATABASE_POOL_MIN_SIZE=5"),
    ({"DATABASE_URL": PG, "DATABASE_POOL_TIMEOUT": "0"}, "DATABASE_POOL_TIMEOUT='0' is not a number of at least 0.1"),
    ({"DATABASE_URL": PG, "DATABASE_POOL_TIMEOUT": "nan"}, "DATABASE_POOL_TIMEOUT='nan' is not a number"),
    ({"DATABASE_URL": PG, "CONN_MAX_AGE": "a minute"}, "CONN_MAX_AGE='a minute' is not a whole number of at least 0"),
])
def test_bad_database_settings_are_refused_clearly(tmp_path, environ, message):
    with pytest.raises(ImproperlyConfigured, match=re.escape(message)):
        database_from_env(tmp_path / "x", environ=environ)


def _settings_error(**environ) -> str:
    """What importing the settings prints to stderr with `environ` (empty: it imported)."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("DATABASE_", "CONN_MAX_AGE", "LIVE_DB_THREADS", "DJANGO_SETTINGS_MODULE"))}
    result = subprocess.run([sys.executable, "-c", "import config.settings"], env={**env, **environ},
                            cwd=Path(__file__).resolve().parent.parent, capture_output=True, text=True)
    return result.stderr


def test_settings_refuse_a_pool_smaller_than_the_live_threads():
    assert "DATABASE_POOL_MAX_SIZE=4 is below LIVE_DB_THREADS=8" in _settings_error(
        DATABASE_URL=PG, DATABASE_POOL_MAX_SIZE="4", LIVE_DB_THREADS="8")
    assert _settings_error(DATABASE_URL=PG, DATABASE_POOL_MAX_SIZE="4", LIVE_DB_THREADS="4") == ""
    assert _settings_error(DATABASE_URL=PG, DATABASE_POOL_MAX_SIZE="2") == ""  # the default: 2 threads


def test_settle_settings_come_from_the_environment_and_bad_values_are_refused():
    assert _settings_error(STANDINGS_SETTLE_SECONDS="5", STANDINGS_SETTLE_MIN_PLAYERS="200") == ""
    assert "STANDINGS_SETTLE_SECONDS='soon' is not a number" in _settings_error(STANDINGS_SETTLE_SECONDS="soon")
    assert "STANDINGS_SETTLE_MIN_PLAYERS='0' is not a whole number of at least 1" in _settings_error(
        STANDINGS_SETTLE_MIN_PLAYERS="0")


def test_the_reader_session_time_comes_from_the_environment_and_bad_values_are_refused():
    assert _settings_error(PAGE_CACHE_READER_SECONDS="2.5") == ""
    assert _settings_error(PAGE_CACHE_READER_SECONDS="0") == ""  # every logged-in request through Django
    assert "PAGE_CACHE_READER_SECONDS='-1' is not a number of at least 0" in _settings_error(
        PAGE_CACHE_READER_SECONDS="-1")
