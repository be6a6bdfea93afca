"""The ratings pages as served: the ladder of each family, a player's page, the leaderboard's rating
column and the links to replays; bad addresses answer 404."""

import pytest
from django.test import Client

from ratings.models import Competitor
from tests.ratings.factories import finished_tournament_game

pytestmark = pytest.mark.django_db(transaction=True)


def test_ladder_player_page_and_leaderboard_column():
    live, users = finished_tournament_game(2, bots=1, seed=41)
    client = Client()
    assert client.get("/ratings/").url == "/ratings/uno/"
    ladder = client.get("/ratings/uno/")
    people = ladder.context["people"]
    assert [c.user_id for c in people] == sorted(
        (u.pk for u in users), key=lambda pk: -Competitor.objects.get(user_id=pk).ordinal)
    assert [c.kind for c in ladder.context["bots"]] == ["house_bot"]
    assert b'href="/ratings/"' in ladder.content  # the site's navigation
    assert client.get("/ratings/ocho/").context["people"] == []
    assert client.get("/ratings/chess/").status_code == 404
    player = client.get(f"/ratings/players/{users[0].pk}/")
    assert player.status_code == 200 and b"<svg" in player.content
    assert f'href="/play/tables/{live.pk}/replay/"'.encode() in player.content
    assert client.get("/ratings/players/999999/").status_code == 404
    event = live.game.table.round.event
    board = client.get(f"/events/{event.slug}/leaderboard/").content.decode()
    rating = f"{Competitor.objects.get(user=users[0]).ordinal:.1f}"
    assert f'<td class="text-end rating">{rating}</td>' in board and 'href="/ratings/"' in board
    table = client.get(f"/events/{event.slug}/tables/{live.game.table_id}/").content.decode()
    assert f'href="/play/tournament-games/{live.game_id}/replay/"' in table
    assert client.get(f"/play/tournament-games/{live.game_id}/replay/").url == f"/play/tables/{live.pk}/replay/"
    assert client.get("/play/tournament-games/999999/replay/").status_code == 404
