"""A bot league: an event whose entrants are students' bots. Registering enters one's bot, the table pages
mark bot entries, and its live games take players' moves only through access tokens (the sockets side is
in tests/games/test_bot_sockets.py)."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.models import LiveGame, LiveMove
from games.services import timers
from tests.games.factories import make_tournament_game
from tests.tournament.organizer_factories import make_event, make_user
from tournament.models import Event, Game, Hand, HandScore, Player
from tournament.services.live_tables import live_game_for

pytestmark = pytest.mark.django_db


def test_registering_for_a_bot_league_enters_ones_bot():
    event = make_event(status=Event.Status.REGISTRATION, entrants=Event.Entrants.BOTS)
    client = Client()
    client.force_login(make_user("botstudent"))
    page = client.get(f"/events/{event.slug}/register/").content.decode()
    assert 'id="bot-league-note"' in page and "/account/tokens/" in page
    response = client.post(f"/events/{event.slug}/register/", {"display_name": "Greedy"}, follow=True)
    assert "Your bot is registered" in response.content.decode()
    assert Player.objects.get(event=event).display_name == "Greedy"
    people = make_event(status=Event.Status.REGISTRATION)
    assert 'id="bot-league-note"' not in client.get(f"/events/{people.slug}/register/").content.decode()


def test_bot_league_tables_mark_bot_entries_and_take_token_moves_only():
    game, users = make_tournament_game(players=3, entrants="bots")
    event = game.table.round.event
    assert event.bot_league
    live = live_game_for(game, seed=1)
    assert live.token_moves_only
    detail = Client().get(f"/events/{event.slug}/tables/{game.table_id}/").content.decode()
    assert detail.count("🤖 bot entry") == 3
    client = Client()
    client.force_login(users[0])
    table = client.get(live.get_absolute_url()).content.decode()
    assert 'id="bot-seats"' in table and "your bot plays your seat" in table
    assert "🤖 Player" in table


def test_people_events_are_unchanged():
    game, users = make_tournament_game(players=3)
    live = live_game_for(game, seed=1)
    assert not live.token_moves_only
    assert "bot entry" not in Client().get(f"/events/{game.table.round.event.slug}/tables/{game.table_id}/").content.decode()


def test_an_organizer_makes_a_bot_league_in_the_admin_and_the_field_may_be_left_out(organizer_client):
    from django.urls import reverse

    data = {"name": "Bot league", "slug": "bot-league", "status": "draft", "rules_preset": "uno-official",
            "rules_overrides": "{}", "target_score": "", "min_table_size": 2, "max_table_size": 4,
            "turn_seconds": 30, "missed_turns_before_bot": 3,
            "arrival_grace_seconds": 300, "eligibility": "open", "entrants": "bots"}
    assert organizer_client.post(reverse("admin:tournament_event_add"), data).status_code == 302
    assert Event.objects.get(slug="bot-league").bot_league
    data.update(name="People", slug="people")
    del data["entrants"]
    assert organizer_client.post(reverse("admin:tournament_event_add"), data).status_code == 302
    assert Event.objects.get(slug="people").entrants == Event.Entrants.PEOPLE


def test_a_silent_bot_that_goes_out_scores_nothing_for_its_owner():
    """Under Ocho on playing cards the least move must be a card when the seat holds a playable one, so a
    silent seat goes out and wins hands at the table; none of those points is credited to its owner, and the
    game, won at the table by silent play alone, has no winner in the tournament."""
    game, _ = make_tournament_game(players=3, entrants="bots", rules_preset="ocho-cards", turn_seconds=30)
    live = live_game_for(game, seed=7)
    later = timezone.now()
    for _ in range(5000):
        live.refresh_from_db()
        if live.status != LiveGame.Status.RUNNING:
            break
        later += timedelta(minutes=1)  # the turn timer (30 s) or the next-hand pause has run out
        assert timers.sweep_once(later) == 1
    assert live.status == LiveGame.Status.FINISHED
    table = live.state  # the engine game as the table shows it: silent seats went out and scored
    went_out = [r for r in table["results"] if max(p or 0 for p in r["points_won"]) > 0]
    assert went_out and max(table["totals"]) >= 500
    assert not LiveMove.objects.filter(live_game=live, actor=LiveMove.Actor.PLAYER).exists()
    hands = Hand.objects.filter(game=game)
    assert hands.count() == len(table["results"])
    assert not hands.filter(winner__isnull=False).exists()
    assert set(HandScore.objects.filter(hand__game=game).values_list("points_won", flat=True)) == {0}
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner is None
