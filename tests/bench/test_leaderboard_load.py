"""bench/leaderboard_load.py builds a scored event the leaderboard page can show."""

import pytest
from django.db.models import F

from bench import leaderboard_load
from tournament.models import HandScore, Player

pytestmark = [pytest.mark.django_db]


def test_builds_players_tables_and_scored_hands_the_leaderboard_shows(client):
    path = leaderboard_load.build(players=10, hands=2)
    slug = path.split("/")[2]
    assert Player.objects.filter(event__slug=slug).count() == 10
    scores = HandScore.objects.filter(hand__game__table__round__event__slug=slug)
    assert scores.count() == 10 * 2  # tables of 4, 4 and 2: every seat scored in both hands
    assert all(s.points_left == 0 for s in scores.filter(hand__winner=F("seat")))
    response = client.get(path)
    assert response.status_code == 200
    assert response.content.count(b"Student ") >= 10

