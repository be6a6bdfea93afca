"""The migration that adds `LiveGame.seats_moved` sets each seat's bit where its player made an own move
since the seat last got another player, so that no seat is announced a second time after it."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

NAME_PART = "live_game_seats_moved"


def _migration_names() -> tuple[tuple[str, str], tuple[str, str]]:
    """(the migration before ours, ours), found by name so renumbering does not break the test."""
    loader = MigrationExecutor(connection).loader
    (key,) = [key for key in loader.disk_migrations if key[0] == "games" and NAME_PART in key[1]]
    (before,) = [dep for dep in loader.disk_migrations[key].dependencies if dep[0] == "games"]
    return before, key


def test_the_bits_come_from_the_players_own_moves_since_the_seat_last_changed_hands():
    before, ours = _migration_names()
    executor = MigrationExecutor(connection)
    executor.migrate([before])
    apps = executor.loader.project_state([before]).apps
    LiveGame, LiveMove = apps.get_model("games", "LiveGame"), apps.get_model("games", "LiveMove")

    def table(moves):
        live = LiveGame.objects.create(kind="exhibition", title="t", preset="uno-official", seat_count=4,
                                       checkpoint={})
        for version, (actor, seat, kind) in enumerate(moves, start=1):
            LiveMove.objects.create(live_game=live, version=version, hand_number=0, seat=seat, actor=actor,
                                    events=[{"kind": kind, "data": {}}], hand_seats=[0, 1, 2, 3])
        return live.pk

    played = table([("system", None, "deal"), ("player", 0, "play"), ("timer", 1, "draw"), ("player", 2, "play"),
                    ("bot", 3, "play"), ("player", 0, "play")])
    replaced = table([("system", 0, "seat_changed"), ("player", 1, "play"), ("player", 0, "play"),
                      ("system", 1, "seat_changed"), ("system", 2, "takeover_ended"), ("player", 2, "draw")])
    untouched = table([("system", None, "deal")])

    executor = MigrationExecutor(connection)
    executor.migrate([ours])
    LiveGame = executor.loader.project_state([ours]).apps.get_model("games", "LiveGame")
    bits = dict(LiveGame.objects.values_list("pk", "seats_moved"))
    assert bits == {played: 0b101, replaced: 0b101, untouched: 0}

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
