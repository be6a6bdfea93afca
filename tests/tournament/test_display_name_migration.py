"""The migration that makes display names unique per event tells existing equal names apart first:
the second "Asha" (in any letter case) of an event becomes "Asha (2)", the third "Asha (3)"."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

NAME_PART = "player_claims_walk_ins_verified_email"


def _migration_names() -> tuple[tuple[str, str], tuple[str, str]]:
    """(the migration before ours, ours), found by name so renumbering does not break the test."""
    loader = MigrationExecutor(connection).loader
    (key,) = [key for key in loader.disk_migrations if key[0] == "tournament" and NAME_PART in key[1]]
    (before,) = [dep for dep in loader.disk_migrations[key].dependencies if dep[0] == "tournament"]
    return before, key


def test_equal_names_in_an_event_get_a_number_before_the_constraint():
    before, ours = _migration_names()
    executor = MigrationExecutor(connection)
    executor.migrate([before])
    apps = executor.loader.project_state([before]).apps
    Event = apps.get_model("tournament", "Event")
    Player = apps.get_model("tournament", "Player")
    User = apps.get_model("auth", "User")
    chem, other = (Event.objects.create(name=n, slug=n) for n in ("chem", "other"))
    for index, (event, name) in enumerate([(chem, "Asha"), (chem, "ASHA"), (chem, "Ravi"), (other, "asha"),
                                           (chem, "aSHa")]):
        user = User.objects.create(username=f"u{index}")
        Player.objects.create(event=event, user=user, display_name=name)

    executor = MigrationExecutor(connection)
    executor.migrate([ours])
    apps = executor.loader.project_state([ours]).apps
    Player = apps.get_model("tournament", "Player")
    names = list(Player.objects.order_by("pk").values_list("event__slug", "display_name"))
    assert names == [("chem", "Asha"), ("chem", "ASHA (2)"), ("chem", "Ravi"), ("other", "asha"),
                     ("chem", "aSHa (3)")]

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
