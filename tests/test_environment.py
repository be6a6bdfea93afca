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
    assert layer["BACKEND"].startswith("channels_redis.")
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
