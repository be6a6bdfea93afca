"""Settings read from the environment (config/environment.py): each variable through environs, and the
checks of settings that go together, which are ours."""

import asyncio
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.environment import (
    channel_layers_from_env,
    database_from_env,
    host_list,
    new_vapid_keys,
    secret_key_from_env,
    vapid_keys_from_env,
    yes_no,
)

ENV_NAMES = ("DATABASE_URL", "DATABASE_POOL", "DATABASE_POOL_MIN_SIZE", "DATABASE_POOL_MAX_SIZE",
             "DATABASE_POOL_TIMEOUT", "CONN_MAX_AGE", "REDIS_URL", "CHANNEL_LAYER_KEY", "CHANNEL_LAYER_PREFIX",
             "SECRET_KEY", "DEBUG", "HOSTS", "VAPID_PUBLIC_KEY", "VAPID_PRIVATE_KEY")
PG = "postgres://u@db.example:5432/ocho"


@pytest.fixture
def environ(monkeypatch):
    """``environ(NAME=value, ...)`` sets the environment for one test; the names above start unset."""
    for name in ENV_NAMES:
        monkeypatch.delenv(name, raising=False)

    def set_environ(**values: str) -> None:
        for name, value in values.items():
            monkeypatch.setenv(name, value)

    return set_environ


def test_database_defaults_to_sqlite_file(tmp_path, environ):
    config = database_from_env(tmp_path / "db.sqlite3")
    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert config["NAME"] == tmp_path / "db.sqlite3"


def test_database_url_selects_postgresql(tmp_path, environ):
    environ(DATABASE_URL="postgres://u:secret@db.example:6543/ocho")
    config = database_from_env(tmp_path / "db.sqlite3")
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["HOST"], config["PORT"], config["NAME"], config["USER"], config["PASSWORD"]) == (
        "db.example", 6543, "ocho", "u", "secret")


def test_database_url_refuses_unsupported_scheme(tmp_path, environ):
    environ(DATABASE_URL="mysql://u@h/db")
    with pytest.raises(ImproperlyConfigured, match="not supported"):
        database_from_env(tmp_path / "x")


def test_channel_layer_in_memory_without_redis(environ):
    assert channel_layers_from_env()["default"]["BACKEND"] == "channels.layers.InMemoryChannelLayer"


def test_channel_layer_uses_redis_url(environ):
    environ(REDIS_URL="redis://127.0.0.1:6379/2")
    layer = channel_layers_from_env()["default"]
    assert layer["BACKEND"] == "config.channel_layer.SharedDecodingPubSubLayer"  # channels-redis's pub/sub
    assert layer["CONFIG"]["hosts"][0]["address"] == "redis://127.0.0.1:6379/2"
    assert "symmetric_encryption_keys" not in layer["CONFIG"]


def test_secret_key_generated_once_in_development(tmp_path, environ):
    key_file = tmp_path / ".secret_key"
    first = secret_key_from_env(debug=True, key_file=key_file)
    assert len(first) >= 50
    assert secret_key_from_env(debug=True, key_file=key_file) == first


def test_production_refuses_missing_or_weak_secret(tmp_path: Path, environ):
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY must be set"):
        secret_key_from_env(debug=False, key_file=tmp_path / "k")
    environ(SECRET_KEY="short")
    with pytest.raises(ImproperlyConfigured, match="too weak"):
        secret_key_from_env(debug=False, key_file=tmp_path / "k")
    strong = "x1Y2z3" * 10
    environ(SECRET_KEY=strong)
    assert secret_key_from_env(debug=False, key_file=tmp_path / "k") == strong


def test_vapid_keys_come_from_the_environment(tmp_path, environ):
    public, private = new_vapid_keys()
    environ(VAPID_PUBLIC_KEY=public, VAPID_PRIVATE_KEY=private)
    for debug in (False, True):
        assert vapid_keys_from_env(debug=debug, key_file=tmp_path / ".vapid_keys") == (public, private)
    assert not (tmp_path / ".vapid_keys").exists(), "no development keys made when the environment has them"
    environ(VAPID_PRIVATE_KEY="")
    with pytest.raises(ImproperlyConfigured, match="VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together"):
        vapid_keys_from_env(debug=False, key_file=tmp_path / ".vapid_keys")


def test_without_vapid_keys_production_has_no_push_and_development_makes_a_pair_once(tmp_path, environ):
    key_file = tmp_path / ".vapid_keys"
    assert vapid_keys_from_env(debug=False, key_file=key_file) == ("", "")
    made = vapid_keys_from_env(debug=True, key_file=key_file)
    assert len(made[0]) == 87 and len(made[1]) == 43  # base64url of a 65-byte point and a 32-byte number
    assert key_file.stat().st_mode & 0o777 == 0o600
    assert vapid_keys_from_env(debug=True, key_file=key_file) == made


@pytest.mark.parametrize("raw,expected", [("1", True), ("0", False), ("yes", True), ("off", False)])
def test_yes_no_words(environ, raw, expected):
    environ(DEBUG=raw)
    assert yes_no("DEBUG", not expected) is expected


def test_a_yes_no_value_that_is_neither_is_refused_naming_the_variable(environ):
    environ(DEBUG="maybe")
    with pytest.raises(ImproperlyConfigured, match="DEBUG='maybe': Not a valid boolean"):
        yes_no("DEBUG", True)


def test_host_lists_split_commas_and_drop_blanks(environ):
    environ(HOSTS="a.example, b.example,")
    assert host_list("HOSTS", []) == ["a.example", "b.example"]


def test_channel_layer_key_turns_on_encryption_and_allows_rotation(environ):
    old, new = "o" * 20 + "ld-key-0123456789ab", "n" * 20 + "ew-key-0123456789ab"
    environ(REDIS_URL="redis://r:6379/0", CHANNEL_LAYER_KEY=f"{new}, {old}")
    assert channel_layers_from_env()["default"]["CONFIG"]["symmetric_encryption_keys"] == [new, old]


def test_channel_layer_refuses_a_short_key(environ):
    environ(REDIS_URL="redis://r:6379/0", CHANNEL_LAYER_KEY="short")
    with pytest.raises(ImproperlyConfigured, match="CHANNEL_LAYER_KEY"):
        channel_layers_from_env()


async def _through_redis(config: dict, redis_url: str) -> tuple[dict, list[bytes]]:
    """Send one group message through a layer of `config`; (what the member received, the raw payloads
    Redis carried on the layer's channels)."""
    import redis.asyncio as aioredis

    from config.channel_layer import SharedDecodingPubSubLayer

    layer = SharedDecodingPubSubLayer(**config)
    spy = aioredis.from_url(redis_url)
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
async def test_encrypted_layer_delivers_decrypted_and_redis_sees_no_plain_message(monkeypatch):
    redis_url = os.environ["REDIS_URL"]
    prefix = f"enc-test-{secrets.token_hex(4)}"
    monkeypatch.setenv("CHANNEL_LAYER_PREFIX", prefix)
    monkeypatch.setenv("CHANNEL_LAYER_KEY", secrets.token_urlsafe(40))
    received, raw = await _through_redis(channel_layers_from_env()["default"]["CONFIG"], redis_url)
    assert received == {"type": "game.changed", "version": 41, "note": "plain-marker"}
    assert raw and all(b"plain-marker" not in payload and b"game.changed" not in payload for payload in raw)

    # The same message without a key travels readable (msgpack): the check above can see the difference.
    monkeypatch.delenv("CHANNEL_LAYER_KEY")
    monkeypatch.setenv("CHANNEL_LAYER_PREFIX", prefix + "-plain")
    received, raw = await _through_redis(channel_layers_from_env()["default"]["CONFIG"], redis_url)
    assert received["note"] == "plain-marker"
    assert raw and any(b"plain-marker" in payload for payload in raw)


def test_postgresql_uses_the_connection_pool_by_default(tmp_path, environ):
    environ(DATABASE_URL=PG)
    config = database_from_env(tmp_path / "x")
    assert config["CONN_MAX_AGE"] == 0
    assert config["OPTIONS"]["pool"] == {"min_size": 2, "max_size": 20, "timeout": 10.0}


def test_pool_sizes_and_timeout_from_env(tmp_path, environ):
    environ(DATABASE_URL=PG, DATABASE_POOL="1", DATABASE_POOL_MIN_SIZE="0", DATABASE_POOL_MAX_SIZE=" 12 ",
            DATABASE_POOL_TIMEOUT="2.5")
    assert database_from_env(tmp_path / "x")["OPTIONS"]["pool"] == {"min_size": 0, "max_size": 12, "timeout": 2.5}


def test_a_min_size_above_the_default_max_raises_the_max_with_it(tmp_path, environ):
    environ(DATABASE_URL=PG, DATABASE_POOL_MIN_SIZE="30")
    assert database_from_env(tmp_path / "x")["OPTIONS"]["pool"]["max_size"] == 30


def test_persistent_connections_mean_no_pool(tmp_path, environ):
    environ(DATABASE_URL=PG, CONN_MAX_AGE="60")
    config = database_from_env(tmp_path / "x")
    assert config["CONN_MAX_AGE"] == 60
    assert "pool" not in config.get("OPTIONS", {})


def test_pool_can_be_turned_off(tmp_path, environ):
    environ(DATABASE_URL=PG, DATABASE_POOL="0")
    config = database_from_env(tmp_path / "x")
    assert config["CONN_MAX_AGE"] == 0
    assert "pool" not in config.get("OPTIONS", {})


def test_sqlite_never_gets_a_pool(tmp_path, environ):
    assert "pool" not in database_from_env(tmp_path / "x")["OPTIONS"]
    environ(DATABASE_URL="sqlite:///x.db")
    assert "pool" not in database_from_env(tmp_path / "x").get("OPTIONS", {})


@pytest.mark.parametrize("values,message", [
    ({"DATABASE_POOL": "1"}, "SQLite has no connection pool"),
    ({"DATABASE_URL": "sqlite:///x.db", "DATABASE_POOL": "1"}, "SQLite has no connection pool"),
    ({"DATABASE_POOL_MAX_SIZE": "10"}, "DATABASE_POOL_MAX_SIZE set, but there is no pool: SQLite"),
    ({"DATABASE_URL": PG, "DATABASE_POOL": "1", "CONN_MAX_AGE": "60"}, "CONN_MAX_AGE=60 means persistent"),
    ({"DATABASE_URL": PG, "CONN_MAX_AGE": "60", "DATABASE_POOL_MAX_SIZE": "10"}, "set CONN_MAX_AGE=0"),
    ({"DATABASE_URL": PG, "DATABASE_POOL": "0", "DATABASE_POOL_TIMEOUT": "3"},
     "DATABASE_POOL_TIMEOUT set, but there is no pool: DATABASE_POOL=0"),
    ({"DATABASE_URL": PG, "DATABASE_POOL_MIN_SIZE": "5", "DATABASE_POOL_MAX_SIZE": "4"},
     "DATABASE_POOL_MAX_SIZE=4 is below DATABASE_POOL_MIN_SIZE=5"),
])
def test_settings_that_do_not_go_together_are_refused_clearly(tmp_path, environ, values, message):
    environ(**values)
    with pytest.raises(ImproperlyConfigured, match=re.escape(message)):
        database_from_env(tmp_path / "x")


@pytest.mark.parametrize("values,message", [
    ({"DATABASE_URL": PG, "DATABASE_POOL": "sometimes"}, "DATABASE_POOL='sometimes': Not a valid boolean"),
    ({"DATABASE_URL": PG, "DATABASE_POOL_MAX_SIZE": "0"}, "DATABASE_POOL_MAX_SIZE='0': Must be greater than or equal to 1"),
    ({"DATABASE_URL": PG, "DATABASE_POOL_MAX_SIZE": "ten"}, "DATABASE_POOL_MAX_SIZE='ten': Not a valid integer"),
    ({"DATABASE_URL": PG, "DATABASE_POOL_MAX_SIZE": "2.5"}, "DATABASE_POOL_MAX_SIZE='2.5': Not a valid integer"),
    ({"DATABASE_URL": PG, "DATABASE_POOL_MIN_SIZE": "-1"}, "DATABASE_POOL_MIN_SIZE='-1': Must be greater than or equal to 0"),
    ({"DATABASE_URL": PG, "DATABASE_POOL_TIMEOUT": "0"}, "DATABASE_POOL_TIMEOUT='0': Must be greater than or equal to 0.1"),
    ({"DATABASE_URL": PG, "DATABASE_POOL_TIMEOUT": "nan"}, "DATABASE_POOL_TIMEOUT='nan': Special numeric values"),
    ({"DATABASE_URL": PG, "CONN_MAX_AGE": "a minute"}, "CONN_MAX_AGE='a minute': Not a valid integer"),
])
def test_bad_values_are_refused_naming_the_variable(tmp_path, environ, values, message):
    environ(**values)
    with pytest.raises(ImproperlyConfigured, match=re.escape(message)):
        database_from_env(tmp_path / "x")


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
    assert "STANDINGS_SETTLE_SECONDS='soon': Not a valid number" in _settings_error(
        STANDINGS_SETTLE_SECONDS="soon")
    assert "STANDINGS_SETTLE_MIN_PLAYERS='0': Must be greater than or equal to 1" in _settings_error(
        STANDINGS_SETTLE_MIN_PLAYERS="0")


def test_public_page_cache_times_come_from_the_environment_and_bad_values_are_refused():
    assert _settings_error(PUBLIC_PAGE_MAX_AGE="0", PUBLIC_PAGE_PROXY_MAX_AGE="5", PUBLIC_PAGE_STALE_SECONDS="60") == ""
    assert "PUBLIC_PAGE_PROXY_MAX_AGE='-1': Must be greater than or equal to 0" in _settings_error(
        PUBLIC_PAGE_PROXY_MAX_AGE="-1")
    assert "PUBLIC_PAGE_STALE_SECONDS='soon': Not a valid integer" in _settings_error(
        PUBLIC_PAGE_STALE_SECONDS="soon")


@pytest.mark.parametrize("name,raw", [("STANDINGS_CACHE_SECONDS", "a while"), ("LIVE_DB_THREADS", "-2"),
                                      ("STANDINGS_VERSION_CHECK_SECONDS", "inf"), ("DEBUG", "perhaps")])
def test_every_setting_is_read_one_way_and_a_bad_value_names_it(name, raw):
    assert f"ImproperlyConfigured: {name}={raw!r}: " in _settings_error(**{name: raw})
