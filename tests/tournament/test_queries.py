"""Query counts of the public pages stay constant with the number of players.

The bounds below were measured with 12 players (3 tables of 4) and must hold, unchanged, at 1,000
players (250 tables of 4, a game per table, three hands each): aggregates run in the database, never
in a per-player loop.
"""

import pytest
from django.urls import reverse

from tests.tournament.standings_data import make_event, make_players, record_games, seat_round

pytestmark = pytest.mark.django_db

HANDS = [(0, [0, 10, 15, 5]), (1, [20, 0, 10, 10]), (2, [3, 4, 0, 8])]

# Measured at 12 players; the same numbers must hold at 1,000.
LEADERBOARD_QUERIES = 5  # event, rounds, standings (3)
ROUND_LEADERBOARD_QUERIES = 5
TABLE_QUERIES = 5  # table+round+event, seats, games, hands, scores
EVENT_QUERIES = 5  # event, rounds, tables, seats+players, player count
PLAYER_QUERIES = 10  # event, player, seats, scoreboard (4), standings (3)


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
def test_pages_run_a_constant_number_of_queries(client, django_assert_max_num_queries, players_count):
    event, players, tables = build(players_count)
    assert len(tables) == players_count // 4
    for url, bound in pages(event, players, tables):
        with django_assert_max_num_queries(bound):
            response = client.get(url)
        assert response.status_code == 200, url


def test_bounds_are_the_ones_measured_at_small_scale(client, django_assert_num_queries):
    """Pins the exact counts at 12 players, so the 1,000-player test above uses the measured numbers."""
    event, players, tables = build(12)
    for url, bound in pages(event, players, tables):
        with django_assert_num_queries(bound):
            client.get(url)


def test_the_big_leaderboard_is_right(client):
    event, players, _tables = build(1000)
    html = client.get(reverse("leaderboard", args=[event.slug])).content.decode()
    # Every seat 1 (second at each table) wins 40 + game; 250 share rank 1.
    assert html.count("<td>1</td>") == 250
    assert html.count('<tr data-player-id=') == 1000
