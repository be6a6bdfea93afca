"""The pages: a table (players, spectators, private practice games), starting a practice game with the
engine's seat rules, the play home listing a student's tables."""

import pytest
from django.urls import reverse

from games.models import LiveGame
from games.services.lifecycle import start_practice_game
from tests.games.factories import make_tournament_game
from tests.tournament.organizer_factories import make_user
from tournament.services.live_tables import live_game_for

pytestmark = [pytest.mark.django_db]


def test_the_table_page_tells_the_template_who_is_looking(client):
    game, users = make_tournament_game(3, bots=1)
    live = live_game_for(game, seed=1)
    url = reverse("games:table", args=[live.pk])
    response = client.get(url)
    assert response.status_code == 200
    assert response.context["role"] == "spectator" and response.context["seat"] is None
    assert response.context["ws_path"] == f"/ws/games/{live.pk}/"
    assert response.context["live_game"] == live
    assert response.context["seat_names"][:3] == [u.players.get().display_name for u in users]
    assert response.context["seat_names"][3] == "Bot 4"
    client.force_login(users[1])
    response = client.get(url)
    assert response.context["role"] == "player" and response.context["seat"] == 1


def test_a_practice_game_is_its_owners_only(client):
    owner, other = make_user(), make_user()
    live = start_practice_game(owner, "uno-400", 3, seed=4)
    url = reverse("games:table", args=[live.pk])
    assert client.get(url).status_code == 404
    client.force_login(other)
    assert client.get(url).status_code == 404
    client.force_login(owner)
    response = client.get(url)
    assert response.status_code == 200 and response.context["role"] == "player" and response.context["seat"] == 0
    assert client.get(reverse("games:table", args=[999999])).status_code == 404


def test_starting_a_practice_game(client):
    user = make_user()
    url = reverse("games:practice")
    assert client.get(url).status_code == 302  # log in first
    client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200 and "form" in response.context and response.context["games"] == []
    response = client.post(url, {"preset": "ocho-plato", "opponents": 3, "bot_kind": "random"})
    live = LiveGame.objects.get(owner=user)
    assert response.status_code == 302 and response.url == reverse("games:table", args=[live.pk])
    assert live.kind == "practice" and live.seat_count == 4 and live.bot_kinds == ["", "random", "random", "random"]
    assert live.version == 1 and live.preset == "ocho-plato"
    assert client.get(url).context["games"] == [live]
    # the table's title names the rules as people read them, never the preset's internal name
    assert live.title == "Practice: Ocho as played in the Plato app against 3 bots"
    table = client.get(reverse("games:table", args=[live.pk])).content.decode()
    assert "<title>Practice: Ocho as played in the Plato app against 3 bots" in table
    assert "Special cards · Ocho as played in the Plato app<" in table
    assert ": ocho-plato" not in table and "· ocho-plato" not in table


@pytest.mark.parametrize(("data", "field", "message"), [
    ({"preset": "ocho-plato", "opponents": 4, "bot_kind": "heuristic"}, "opponents",
     "ocho-plato is played by 2 to 4 players, not 5: choose 1 to 3 bots"),
    ({"preset": "uno-official", "opponents": 0, "bot_kind": "heuristic"}, "opponents", None),
    ({"preset": "poker", "opponents": 2, "bot_kind": "heuristic"}, "preset", None),
    ({"preset": "uno-official", "opponents": 2, "bot_kind": "genius"}, "bot_kind", None),
])
def test_practice_form_refusals(client, data, field, message):
    client.force_login(make_user())
    response = client.post(reverse("games:practice"), data)
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert field in errors
    if message:
        assert errors[field] == [message]
    assert not LiveGame.objects.exists()


def test_play_home_lists_my_tables_and_practice_games(client):
    game, users = make_tournament_game(3)
    live = live_game_for(game, seed=1)
    mine = start_practice_game(users[0], "uno-official", 1, seed=2)
    client.force_login(users[0])
    response = client.get(reverse("games:play"))
    assert response.context["my_tables"] == [live]
    assert response.context["practice_games"] == [mine]
    assert live.get_absolute_url().encode() in response.content
    game.status = "finished"
    game.save()
    assert client.get(reverse("games:play")).context["my_tables"] == []
