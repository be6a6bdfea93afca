"""Tournament games get their live tables: when the round starts, and through one link for everyone."""

import pytest
from django.urls import reverse

from games.models import LiveGame
from tests.tournament.organizer_factories import make_event, make_players, make_user
from tournament.demo_data import EVENT_SLUG, load_demo
from tournament.models import Event, Game
from tournament.services import rounds

pytestmark = pytest.mark.django_db


def _planned_round(players: int = 6):
    event = make_event(min_table_size=2, max_table_size=3, status=Event.Status.REGISTRATION)
    make_players(event, players)
    return rounds.create_first_round(event, rounds.plan_first_round(event, seed=3), make_user())


def test_starting_a_round_opens_a_live_table_for_every_game():
    round_ = _planned_round()
    assert not LiveGame.objects.exists()
    rounds.start_round(round_, make_user())
    games = Game.objects.filter(table__round=round_)
    live = LiveGame.objects.filter(game__in=games)
    assert live.count() == games.count() == 2
    assert all(game.version >= 1 and game.state["hand"] for game in live)


def test_the_game_link_leads_to_its_live_table(client):
    round_ = _planned_round()
    game = Game.objects.filter(table__round=round_).first()
    pending = client.get(reverse("play_tournament_game", args=[game.pk]))
    assert pending.status_code == 302 and pending.url.endswith(f"/tables/{game.table_id}/")
    rounds.start_round(round_, make_user())
    response = client.get(reverse("play_tournament_game", args=[game.pk]))
    assert response.status_code == 302
    assert response.url == reverse("games:table", args=[LiveGame.objects.get(game=game).pk])
    assert client.get(reverse("play_tournament_game", args=[999_999])).status_code == 404


def test_demo_plays_its_running_tables_live_and_has_bots_to_watch(client):
    logins = load_demo()
    running = Game.objects.filter(table__round__event__slug=EVENT_SLUG, status=Game.Status.RUNNING)
    finished = Game.objects.filter(table__round__event__slug=EVENT_SLUG, status=Game.Status.FINISHED)
    # round 1's six tables were recorded; round 2's bracket has two tables recorded and two playing live
    assert running.count() == 2 and finished.count() == 8
    assert LiveGame.objects.filter(game__in=running).count() == 2
    assert not LiveGame.objects.filter(game__in=finished).exists()
    exhibition = LiveGame.objects.get(kind=LiveGame.Kind.EXHIBITION)
    assert logins.exhibition_url == exhibition.get_absolute_url()
    assert client.get(logins.exhibition_url).status_code == 200
    load_demo()
    assert LiveGame.objects.count() == 3
