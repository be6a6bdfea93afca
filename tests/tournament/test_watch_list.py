"""Per event, the live tables to watch with how many watch each: the page and its fragment, counts that
follow real spectator sockets (players do not count), rows of a worker that died that stop counting, and
two workers on PostgreSQL + Redis sharing the count."""

import os
import re
import signal
import time
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import LiveWatcher
from games.services import watchers
from tests.games.factories import Socket, login_socket, make_tournament_game, session_cookie
from tests.games.test_faults_restart import RawSocket
from tests.live_asgi import live_asgi_workers  # noqa: F401 (fixture)
from tournament.models import Game
from tournament.services.live_tables import live_game_for


def watching(html: str) -> dict[int, int]:
    """{tournament game id: the count shown} from the page or its fragment."""
    rows = re.findall(r'id="watch-game-(\d+)".*?data-watchers="(\d+)"', html, re.S)
    return {int(game): int(count) for game, count in rows}


@database_sync_to_async
def fragment(game) -> dict[int, int]:
    response = Client().get(reverse("watch_fragment", args=[game.table.round.event.slug]))
    assert response.status_code == 200
    return watching(response.content.decode())


async def opened(sock: Socket) -> dict:
    """Connect, then wait for a pong: the server has finished handling the connect (its messages are
    handled one at a time), so the socket's row is written."""
    state = await sock.connect()
    await sock.send({"type": "ping", "echo": "opened"})
    await sock.receive_until(lambda m: m["type"] == "pong")
    return state


@pytest.mark.django_db(transaction=True)
async def test_the_count_follows_spectator_sockets_as_they_open_and_close(live_settings):
    game, users = await database_sync_to_async(make_tournament_game)(2, bots=1)
    live = await database_sync_to_async(live_game_for)(game, seed=5)
    other, _ = await database_sync_to_async(make_tournament_game)(2)  # same kind of table, another event
    assert await fragment(game) == {game.pk: 0}

    first, second = Socket(live.pk), Socket(live.pk)  # anonymous viewers: no seat
    await opened(first)
    assert await fragment(game) == {game.pk: 1}
    await opened(second)
    player = await login_socket(live.pk, users[0])
    assert (await opened(player))["seat"] == 0
    assert await fragment(game) == {game.pk: 2}  # a player at the table is not a watcher
    await first.close()
    assert await fragment(game) == {game.pk: 1}
    await second.close()
    await player.close()
    assert await fragment(game) == {game.pk: 0}
    assert await database_sync_to_async(LiveWatcher.objects.count)() == 0
    assert await fragment(other) == {other.pk: 0}


@pytest.mark.django_db
def test_the_page_lists_games_in_play_with_links_and_is_linked_from_the_event(client):
    game, _ = make_tournament_game(3, bots=1)
    live = live_game_for(game, seed=5)
    event = game.table.round.event
    elsewhere, _ = make_tournament_game(2)  # another event's game: not on this event's list
    LiveWatcher.objects.create(live_game=live, channel_name="elsewhere.1", last_seen=timezone.now())
    html = client.get(reverse("watch", args=[event.slug])).content.decode()
    assert watching(html) == {game.pk: 1} and "1 watching" in html and elsewhere.pk not in watching(html)
    assert reverse("play_tournament_game", args=[game.pk]) in html
    assert reverse("table_detail", args=[event.slug, game.table_id]) in html
    assert "Bot 4" in html and "0 hands played" in html and "js/watch_list.js" in html
    # linked from the event page, its leaderboard and its table pages (the event's navigation)
    for page in (reverse("event_detail", args=[event.slug]), reverse("leaderboard", args=[event.slug]),
                 reverse("table_detail", args=[event.slug, game.table_id])):
        assert f'href="{reverse("watch", args=[event.slug])}"' in client.get(page).content.decode(), page

    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    html = client.get(reverse("watch_fragment", args=[event.slug])).content.decode()
    assert watching(html) == {} and "No table is playing right now." in html
    event.status = "draft"
    event.save(update_fields=["status"])
    assert client.get(reverse("watch", args=[event.slug])).status_code == 404
    assert client.get(reverse("watch_fragment", args=[event.slug])).status_code == 404
    assert client.get("/events/no-such-event/watch/").status_code == 404


@pytest.mark.django_db
def test_a_dead_workers_watchers_stop_counting_and_are_cleared(settings):
    settings.LIVE_PRESENCE_HEARTBEAT = 5
    settings.LIVE_PRESENCE_TTL = 15
    game, _ = make_tournament_game(2)
    live = live_game_for(game, seed=3)
    now = timezone.now()
    try:
        watchers.watcher_opened(live.pk, "ours.1")  # a socket of this worker
        LiveWatcher.objects.create(live_game=live, channel_name="dead.1", last_seen=now - timedelta(seconds=20))
        LiveWatcher.objects.create(live_game=live, channel_name="other.1", last_seen=now - timedelta(seconds=2))
        assert watchers.watcher_counts([live.pk], now) == {live.pk: 2}  # the dead worker's no longer counts
        later = now + timedelta(seconds=10)
        assert watchers.beat(later) == 1
        assert set(LiveWatcher.objects.values_list("channel_name", flat=True)) == {"ours.1", "other.1"}
        assert LiveWatcher.objects.get(channel_name="ours.1").last_seen == later  # our own row refreshed
        assert watchers.beat(later + timedelta(seconds=10)) == 1  # 'other' missed its beats too
        assert watchers.watcher_counts([live.pk], later + timedelta(seconds=10)) == {live.pk: 1}
    finally:
        watchers.watcher_closed("ours.1")
    assert watchers.watcher_counts([live.pk]) == {live.pk: 0}


WORKER_SETTINGS = {"LIVE_PRESENCE_HEARTBEAT": 0.2, "LIVE_PRESENCE_TTL": 1.5, "LIVE_SWEEP_INTERVAL": 0.05}


def until(check, seconds: float = 10.0):
    deadline = time.monotonic() + seconds
    while True:
        value = check()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.1)


@pytest.mark.django_db(transaction=True)
def test_two_workers_share_the_count_and_a_killed_workers_watchers_go(live_asgi_workers):  # noqa: F811
    from django.db import connection

    if connection.vendor != "postgresql" or not os.environ.get("REDIS_URL"):
        pytest.skip("several workers need a shared database and channel layer: run with DATABASE_URL=postgres://... "
                    "and REDIS_URL=redis://... (CI's PostgreSQL + Redis run does)")
    environ = {"CHANNEL_LAYER_PREFIX": f"watchers-{os.getpid()}"}
    a = live_asgi_workers(WORKER_SETTINGS, environ)
    b = live_asgi_workers(WORKER_SETTINGS, environ)
    game, (p0, _p1) = make_tournament_game(2, bots=1)
    live = live_game_for(game, seed=7)
    url = f"{a.url}{reverse('watch_fragment', args=[game.table.round.event.slug])}"

    def shown() -> int:
        import urllib.request

        with urllib.request.urlopen(url, timeout=10) as response:  # served by worker A
            return watching(response.read().decode())[game.pk]

    sockets = [RawSocket(a.host, a.port, live.ws_path, ""), RawSocket(b.host, b.port, live.ws_path, ""),
               RawSocket(b.host, b.port, live.ws_path, ""),
               RawSocket(a.host, a.port, live.ws_path, session_cookie(p0).decode())]  # a player: not counted
    for sock in sockets:
        sock.receive()  # the first state: the socket is registered
    assert until(lambda: shown() == 3), shown()
    time.sleep(2 * WORKER_SETTINGS["LIVE_PRESENCE_TTL"])  # live workers' heartbeats keep their rows counting
    assert shown() == 3
    os.kill(b.process.pid, signal.SIGKILL)  # B's two watchers never say goodbye
    b.process.wait(timeout=10)
    assert until(lambda: shown() == 1), shown()
    assert until(lambda: LiveWatcher.objects.count() == 1)  # A's heartbeat deleted B's rows
    sockets[0].close()
    assert until(lambda: shown() == 0), shown()
    sockets[3].close()


WATCH_QUERIES = 4  # event, games in play (with their live game and hands played), seats + players, watchers


@pytest.mark.django_db
@pytest.mark.parametrize("players_count", [12, 400])
def test_the_list_runs_a_constant_number_of_queries(client, django_assert_num_queries, players_count):
    from tests.tournament.standings_data import make_event, make_players, record_games, seat_round

    event = make_event(slug=f"watch{players_count}")
    _round, tables = seat_round(event, make_players(event, [f"P{i:04d}" for i in range(players_count)]))
    games = record_games(tables, [(0, [0, 10, 15, 5])])  # running: one hand played at each table
    for game in games[:3]:
        LiveWatcher.objects.create(live_game=live_game_for(game, seed=1), channel_name=f"w.{game.pk}",
                                   last_seen=timezone.now())
    with django_assert_num_queries(WATCH_QUERIES):
        html = client.get(reverse("watch_fragment", args=[event.slug])).content.decode()
    shown = watching(html)
    assert len(shown) == players_count // 4 and sum(shown.values()) == 3
    assert "1 hand played" in html
