"""The migration that gives tokens scopes: every token made before it keeps working for play."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from access_tokens.services import authenticate, hash_token

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = ("access_tokens", "0001_personal_access_tokens")
OURS = ("access_tokens", "0002_token_scopes")


def test_tokens_made_before_scopes_may_read_and_play():
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    apps = executor.loader.project_state([BEFORE]).apps
    user = apps.get_model("auth", "User").objects.create(username="old-bot-owner")
    apps.get_model("access_tokens", "AccessToken").objects.create(
        user=user, name="old bot", token_hash=hash_token("uno_old-secret"), prefix="uno_old-")

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    token = authenticate("uno_old-secret")
    assert token is not None and token.scope_list == ["tables:read", "tables:play"]
