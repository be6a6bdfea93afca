"""What the table, practice and play pages render before any JavaScript runs (no browser needed):
players get a hand and buttons, spectators neither; the socket path and seat names are in the page."""

import json
import re

import pytest
from django.urls import reverse

from games.models import LiveGame
from games.services.lifecycle import create_demo_bot_table, start_practice_game
from tests.games.factories import make_tournament_game
from tests.tournament.organizer_factories import make_user
from tournament.services.live_tables import live_game_for

pytestmark = pytest.mark.django_db

ACTIONS = ("draw", "pass", "call_uno", "challenge", "accept")


def seat_names_in(html: str) -> list[str]:
    found = re.search(r'<script id="seat-names" type="application/json">(.*?)</script>', html, re.S)
    return json.loads(found.group(1))


def test_a_player_gets_the_hand_the_buttons_and_the_colour_chooser(client):
    user = make_user("asha")
    live = start_practice_game(user, "uno-official", 2, "heuristic", seed=3)
    client.force_login(user)
    html = client.get(reverse("games:table", args=[live.pk])).content.decode()
    assert 'data-role="player"' in html
    assert f'data-ws-path="/ws/games/{live.pk}/"' in html
    assert f'data-version="{live.version}"' in html
    assert 'id="hand"' in html and 'id="colour-dialog"' in html and 'id="sound-toggle"' in html
    for action in ACTIONS:
        assert f'data-action="{action}"' in html
    assert seat_names_in(html)[0] == "asha" and len(seat_names_in(html)) == 3
    assert 'type="module"' in html and "js/table/table.js" in html


def test_a_spectator_gets_the_table_without_hand_or_buttons(client):
    live = create_demo_bot_table(seats=4, preset="ocho-plato", seed=5)
    html = client.get(live.get_absolute_url()).content.decode()
    assert 'data-role="spectator"' in html and "Watching" in html
    assert 'id="hand"' not in html and 'id="actions"' not in html and 'id="colour-dialog"' not in html
    assert "data-action=" not in html and "sound-toggle" not in html
    # The parts a spectator sees are there: seats, the felt, scores and the log.
    for part in ('id="seats"', 'id="discard"', 'id="scores-body"', 'id="log-list"'):
        assert part in html
    assert len(seat_names_in(html)) == 4


def test_a_student_watching_someone_elses_tournament_table_is_a_spectator(client):
    game, users = make_tournament_game(players=2, bots=1)
    live = live_game_for(game)
    outsider = make_user("outsider")
    client.force_login(outsider)
    html = client.get(live.get_absolute_url()).content.decode()
    assert 'data-role="spectator"' in html and 'id="hand"' not in html
    client.force_login(users[1])
    html = client.get(live.get_absolute_url()).content.decode()
    assert 'data-role="player"' in html and 'data-seat="1"' in html


def test_practice_page_form_creates_a_game_and_lists_it(client):
    user = make_user("ravi")
    client.force_login(user)
    page = client.get(reverse("games:practice"))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'name="preset"' in html and 'name="opponents"' in html and 'name="bot_kind"' in html
    response = client.post(reverse("games:practice"),
                           {"preset": "ocho-plato", "opponents": 3, "bot_kind": "random"})
    live = LiveGame.objects.get(owner=user)
    assert response.status_code == 302 and response["Location"] == live.get_absolute_url()
    html = client.get(reverse("games:practice")).content.decode()
    assert live.get_absolute_url() in html and live.title in html


def test_practice_page_shows_the_refusal_and_keeps_the_input(client):
    client.force_login(make_user("kabir"))
    response = client.post(reverse("games:practice"), {"preset": "ocho-plato", "opponents": 9, "bot_kind": "random"})
    assert response.status_code == 200
    assert not LiveGame.objects.exists()
    html = response.content.decode()
    assert "invalid-feedback" in html or "is-invalid" in html
    assert 'value="9"' in html


def test_play_home_links_to_my_table_and_my_practice_games(client):
    game, users = make_tournament_game(players=2, bots=1)
    live = live_game_for(game)
    practice = start_practice_game(users[0], "uno-400", 1, "random", seed=1)
    client.force_login(users[0])
    html = client.get(reverse("games:play")).content.decode()
    assert live.get_absolute_url() in html and "Go to the table" in html
    assert practice.get_absolute_url() in html
    assert reverse("games:practice") in html


def test_play_home_asks_visitors_to_log_in(client):
    html = client.get(reverse("games:play")).content.decode()
    assert reverse("login") in html and "practise against bots" in html
