"""Query counts of the public pages stay constant with the number of players.

The bounds below were measured with 12 players (3 tables of 4) and must hold, unchanged, at 1,000
players (250 tables of 4, a game per table, three hands each): aggregates run in the database, never
in a per-player loop. Leaderboards are cached per scores version (tournament/standings_cache.py): the
first read computes them, the next ones make only the version check.
"""

import re

import pytest
from django.urls import reverse

from tests.tournament.standings_data import make_event, make_players, record_games, seat_round

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("cold_caches")]

HANDS = [(0, [0, 10, 15, 5]), (1, [20, 0, 10, 10]), (2, [3, 4, 0, 8])]

# Measured at 12 players; the same numbers must hold at 1,000.
LEADERBOARD_QUERIES = 7  # event + scores version, rounds, standings (3), the bracket round (places), ratings column (1)
ROUND_LEADERBOARD_QUERIES = 5  # event + version, standings (3), ratings column (1): rounds cached by the first
TABLE_QUERIES = 5  # table+round+event, seats, games, hands, scores
EVENT_QUERIES = 5  # event, rounds, tables, seats+players, player count
PLAYER_QUERIES = 7  # event + version, player, seats, scoreboard (4); standings cached by the first page
CACHED_LEADERBOARD_QUERIES = 1  # the version check (none while the version read is fresh: below)


def build(players_count: int):
    event = make_event(slug=f"big{players_count}")
    names = [f"P{i:04d}" for i in range(players_count)]
    players = make_players(event, names)
    round_, tables = seat_round(event, players, table_size=4)
    record_games(tables, HANDS, winner=1)
    return event, players, tables


def pages(event, players, tables):
    return [
        (reverse("leaderboard", args=[event.slug]), LEADERBOARD_QUERIES),
        (reverse("round_leaderboard", args=[event.slug, 1]), ROUND_LEADERBOARD_QUERIES),
        (reverse("table_detail", args=[event.slug, tables[-1].table.pk]), TABLE_QUERIES),
        (reverse("event_detail", args=[event.slug]), EVENT_QUERIES),
        (reverse("player_detail", args=[event.slug, players[-1].pk]), PLAYER_QUERIES),
    ]


@pytest.mark.parametrize("players_count", [12, 1000])
def test_pages_run_a_constant_number_of_queries(client, django_assert_max_num_queries, settings, players_count):
    settings.STANDINGS_VERSION_CHECK_SECONDS = 0  # every page reads the version (the counts below)
    event, players, tables = build(players_count)
    assert len(tables) == players_count // 4
    for url, bound in pages(event, players, tables):
        with django_assert_max_num_queries(bound):
            response = client.get(url)
        assert response.status_code == 200, url


def test_bounds_are_the_ones_measured_at_small_scale(client, django_assert_num_queries, settings):
    """Pins the exact counts at 12 players, so the 1,000-player test above uses the measured numbers."""
    settings.STANDINGS_VERSION_CHECK_SECONDS = 0
    event, players, tables = build(12)
    for url, bound in pages(event, players, tables):
        with django_assert_num_queries(bound):
            client.get(url)



@pytest.mark.parametrize("players_count", [12, 1000])
@pytest.mark.parametrize("check_seconds,cached", [(0, CACHED_LEADERBOARD_QUERIES), (60, 0)],
                         ids=["version-read", "version-known"])
def test_a_cached_leaderboard_page_costs_only_the_version_check(client, django_assert_num_queries, settings,
                                                                players_count, check_seconds, cached):
    """After the first reader, the stored page: the version's query, or none while the version read is
    less than STANDINGS_VERSION_CHECK_SECONDS old (and no change was made here since)."""
    settings.STANDINGS_VERSION_CHECK_SECONDS = check_seconds
    event, _players, _tables = build(players_count)
    url = reverse("leaderboard", args=[event.slug])
    with django_assert_num_queries(LEADERBOARD_QUERIES):
        assert client.get(url).status_code == 200
    for _ in range(2):
        with django_assert_num_queries(cached):
            assert client.get(url).status_code == 200


def test_the_big_leaderboard_is_right(client):
    event, players, _tables = build(1000)
    url = reverse("leaderboard", args=[event.slug])
    rows = []
    for page in range(1, 11):
        html = client.get(url, {"page": page}).content.decode()
        rows += re.findall(r'<tr data-player-id="(\d+)" id="player-\d+">\s*<td>([\d-]+)</td>', html)
    assert client.get(url, {"page": 11}).status_code == 404
    # Every seat 1 (second at each table) wins 40 + game: 250 share place 1-250 and fill pages 1-3.
    assert len(rows) == 1000 and len({pid for pid, _ in rows}) == 1000
    assert [place for _, place in rows].count("1-250") == 250 and rows[249][1] == "1-250"
    assert rows[250][1].split("-")[0] == "251"
