"""Presence after a worker dies: rows of sockets a dead worker held stop counting once its heartbeat is
missed, and any live worker deletes them and reports which tables changed (the live multi-worker test is
tests/games/test_faults_workers.py)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import LiveConnection
from games.services import presence
from tests.games.factories import make_tournament_game
from tournament.services.live_tables import live_game_for

pytestmark = [pytest.mark.django_db]


@pytest.fixture
def heartbeat(settings):
    settings.LIVE_PRESENCE_HEARTBEAT = 5
    settings.LIVE_PRESENCE_TTL = 15
    yield
    presence._local_channels.clear()


def test_a_dead_workers_rows_expire_and_a_live_worker_clears_them(heartbeat):
    tgame, _ = make_tournament_game(3)
    live = live_game_for(tgame, seed=3)
    now = timezone.now()
    assert presence.socket_opened(live.pk, 0, "ours.0") == [0]  # a socket of this worker
    # a socket of a worker that died 20 s ago, and one of a worker alive elsewhere (beat 2 s ago)
    LiveConnection.objects.create(live_game=live, seat=1, channel_name="dead.1", last_seen=now - timedelta(seconds=20))
    LiveConnection.objects.create(live_game=live, seat=2, channel_name="other.2", last_seen=now - timedelta(seconds=2))
    assert presence.connected_seats(live.pk, now) == [0, 2]  # the dead worker's seat already counts as away
    later = now + timedelta(seconds=10)
    assert presence.beat(later) == {live.pk: [0, 2]}  # the dead row is cleared; 'other' is 12 s old: kept
    assert set(LiveConnection.objects.values_list("channel_name", flat=True)) == {"ours.0", "other.2"}
    assert LiveConnection.objects.get(channel_name="ours.0").last_seen == later  # our own row refreshed
    assert presence.beat(later) == {}  # nothing more to clear
    # 'other' misses its beats too; ours goes on beating
    assert presence.beat(later + timedelta(seconds=10)) == {live.pk: [0]}
    assert set(LiveConnection.objects.values_list("channel_name", flat=True)) == {"ours.0"}
    assert presence.socket_closed(live.pk, "ours.0") == (True, [])


def test_without_heartbeats_rows_count_until_their_socket_closes(settings):
    settings.LIVE_PRESENCE_HEARTBEAT = 0
    tgame, _ = make_tournament_game(2)
    live = live_game_for(tgame, seed=3)
    LiveConnection.objects.create(live_game=live, seat=1, channel_name="old.1",
                                  last_seen=timezone.now() - timedelta(days=1))
    assert presence.connected_seats(live.pk) == [1]
    assert presence.beat() == {}
