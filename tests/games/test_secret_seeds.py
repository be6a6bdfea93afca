"""Every table people play or watch outside the tests is shuffled with secret per-hand seeds: the tournament
tables (opened by the round start or the first visit), practice games, and the demo's exhibition table.
Only a game created with an explicit seed (tests) derives its hands from that seed."""

import pytest
from django.test import Client
from django.urls import reverse

from games import engine
from games.models import LiveGame
from games.services import fairness
from tests.games.factories import make_tournament_game
from tests.tournament.organizer_factories import make_user
from tournament.services.live_tables import live_game_for

pytestmark = [pytest.mark.django_db]


def assert_secret(live: LiveGame) -> None:
    """The game has a shuffle key, its first hand was dealt with the key's seed (not the engine's
    seed-derived one) and the published record carries no seed."""
    assert live.shuffle_key, live
    record = live.shuffles[0]
    seed, salt = fairness.hand_secret(live.shuffle_key, 0)
    assert (record["seed"], record["salt"]) == (str(seed), salt)
    assert int(record["seed"]) != engine.Game.from_dict(live.state).hand_seed(0)
    shown = fairness.public_shuffles(live.shuffles, 0, False)
    assert shown[0]["seed"] is None and shown[0]["salt"] is None


def test_the_demo_exhibition_table_and_its_live_tables_use_secret_seeds():
    from tournament.demo_data import load_demo

    load_demo()
    exhibition = LiveGame.objects.get(kind=LiveGame.Kind.EXHIBITION)
    assert_secret(exhibition)
    tournament_tables = LiveGame.objects.filter(kind=LiveGame.Kind.TOURNAMENT)
    assert tournament_tables.exists()
    for live in tournament_tables:
        assert_secret(live)


def test_a_table_opened_by_its_first_visit_and_a_practice_game_use_secret_seeds():
    tgame, users = make_tournament_game(2)
    client = Client()
    client.force_login(users[0])
    response = client.get(reverse("play_tournament_game", args=[tgame.pk]))
    assert response.status_code == 302
    assert_secret(LiveGame.objects.get(game=tgame))
    client.force_login(make_user("practiser-seeds"))
    response = client.post(reverse("games:practice"), {"preset": "uno-official", "opponents": 2,
                                                       "bot_kind": "heuristic"})
    assert response.status_code == 302
    assert_secret(LiveGame.objects.get(kind=LiveGame.Kind.PRACTICE, owner__username="practiser-seeds"))


def test_an_explicit_seed_is_reproducible_and_has_no_key():
    tgame, _ = make_tournament_game(2)
    live = live_game_for(tgame, seed=5)
    assert live.shuffle_key == ""
    assert int(live.shuffles[0]["seed"]) == engine.Game.from_dict(live.state).hand_seed(0)
