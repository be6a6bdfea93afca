"""Leaderboards rank everyone who played, then no-shows, then registrants never seated, and mark the last
two; a student's first own move at a table shows on a cached leaderboard before any hand is scored."""

import re

import pytest
from django.urls import reverse

from games.models import LiveGame, LiveMove
from tests.tournament import organizer_factories
from tests.tournament.participation_factories import PLAYER, move
from tests.tournament.standings_data import make_event, make_players, record_games, seat_round
from tests.tournament.test_manual_hands_live import play_one_move
from tournament.models import Event, Game, Hand, Player
from tournament.services import rounds
from tournament.standings import compute_standings

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("cold_caches")]


@pytest.fixture
def mixed_event():
    """Asha, Ravi and Meera played their table live and scored nothing; Kabir never opened it, and the bot
    that took over his seat won the hand for 30 points; Zoya registered and was never seated."""
    event = make_event(slug="mixed")
    asha, ravi, meera, kabir, zoya = make_players(event, ["Asha", "Ravi", "Meera", "Kabir", "Zoya"])
    round_, tables = seat_round(event, [asha, ravi, meera, kabir])
    (game,) = record_games(tables, [(3, [5, 10, 15, 0])], winner=3)
    Hand.objects.filter(game=game).update(source=Hand.Source.LIVE)
    for seat in (0, 1, 2):
        move(game, seat, PLAYER)
    return event, round_


def board(html: str) -> list[tuple[str, str, str]]:
    """(place, name, mark) per leaderboard row, in page order."""
    return re.findall(r'<tr data-player-id="\d+" id="player-\d+">\s*<td>([\d-]+)</td>\s*<td><a href="[^"]+">([^<]+)</a>'
                      r'(?: <span class="badge[^"]*participation">([^<]+)</span>)?', html)


def test_players_who_played_rank_above_no_shows_and_the_never_seated(mixed_event):
    event, round_ = mixed_event
    rows = compute_standings(event)
    assert [(r.rank, r.display_name, r.points_won, r.participation) for r in rows] == [
        (1, "Asha", 0, "played"), (2, "Ravi", 0, "played"), (3, "Meera", 0, "played"),
        (4, "Kabir", 30, "no_show"), (5, "Zoya", 0, "not_seated")]
    assert rows[3].as_public_dict()["participation_label"] == "no-show"
    assert [(r.display_name, r.participation) for r in compute_standings(event, round=round_)][-1] == (
        "Kabir", "no_show")


def test_the_leaderboard_pages_show_the_order_and_the_marks(client, mixed_event):
    event, _round = mixed_event
    html = client.get(reverse("leaderboard", args=[event.slug])).content.decode()
    assert board(html) == [("1", "Asha", ""), ("2", "Ravi", ""), ("3", "Meera", ""), ("4", "Kabir", "no-show"),
                           ("5", "Zoya", "not seated")]
    assert "then no-shows" in html
    html = client.get(reverse("round_leaderboard", args=[event.slug, 1])).content.decode()
    assert board(html)[-1] == ("4", "Kabir", "no-show") and "Zoya" not in html
    kabir = Player.objects.get(event=event, display_name="Kabir")
    html = client.get(reverse("player_detail", args=[event.slug, kabir.pk])).content.decode()
    assert 'participation">no-show</span>' in html


def test_a_first_own_move_shows_on_the_cached_leaderboard_before_a_hand_is_scored(
        client, live_settings, django_capture_on_commit_callbacks):
    event = organizer_factories.make_event(min_table_size=3, max_table_size=3, target_score=5000, turn_seconds=0)
    organizer = organizer_factories.make_organizer_of(event)
    organizer_factories.make_players(event, 3)
    round_ = rounds.create_first_round(event, rounds.plan_first_round(event, seed=4), organizer)
    rounds.start_round(round_, organizer)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.RUNNING)
    live = LiveGame.objects.get(game=Game.objects.get(table__round=round_))
    url = reverse("leaderboard", args=[event.slug])
    before = board(client.get(url).content.decode())
    assert [mark for _rank, _name, mark in before] == ["no-show"] * 3
    assert board(client.get(url).content.decode()) == before  # served from the cache
    with django_capture_on_commit_callbacks(execute=True):
        play_one_move(live.pk)
    mover = LiveMove.objects.get(live_game=live, actor=PLAYER)
    assert not Hand.objects.filter(game__table__round=round_).exists(), "no hand scored yet"
    name = Player.objects.get(user=mover.user, event=event).display_name
    after = board(client.get(url).content.decode())
    assert after[0] == ("1", name, "")
    assert [mark for _rank, _name, mark in after[1:]] == ["no-show"] * 2
