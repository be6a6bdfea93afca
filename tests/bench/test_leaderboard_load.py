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



def test_builds_a_started_round_two_bracket_through_the_bracket_services(client):
    from tournament.models import BracketEntry, Game, Round

    path = leaderboard_load.build(players=40, hands=2)
    slug = path.split("/")[2]
    bracket = leaderboard_load.build_bracket(slug, hands=2)
    round_two = Round.objects.get(event__slug=slug, number=2, kind=Round.Kind.BRACKET)
    assert Round.objects.get(event__slug=slug, number=1).status == Round.Status.FINISHED
    assert BracketEntry.objects.filter(round=round_two).count() == 32  # the proposed field: 8 tables of 4
    stage_one = Game.objects.filter(table__round=round_two, table__stage=1)
    assert stage_one.count() == 8 and all(g.status == Game.Status.RUNNING for g in stage_one)
    assert HandScore.objects.filter(hand__game__table__round=round_two).count() == 32 * 2
    page = client.get(bracket)
    assert page.status_code == 200 and page.content.decode().count('class="bracket-table') >= 8


def test_prints_logged_in_cookies_the_site_accepts(client):
    import re

    path = leaderboard_load.build(players=10, hands=1)
    slug = path.split("/")[2]
    cookies = leaderboard_load.player_sessions(slug, 3)
    assert len(set(cookies)) == 3
    names = set()
    for line in cookies:
        assert re.fullmatch(r"sessionid=\w+; csrftoken=[A-Za-z0-9]{32}", line)
        client.cookies.load(line)
        names.add(client.get("/me.json", {"event": slug}).json()["user"]["name"])
    assert len(names) == 3  # three players, each logged in
