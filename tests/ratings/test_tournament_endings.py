"""Tournament games rated however they end (the round's time limit, an organizer finishing them, hands
recorded on paper), from the tournament's stored results: a tie on totals is a shared place, a bot league's
uncredited points lift no place, each game is rated once, and a recompute gives the ratings kept as the
games finished."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from games.models import LiveGame
from games.services import timers
from ratings.models import RatingChange
from ratings.rating_updates import rate_live_game
from tests.games.factories import make_tournament_game
from tests.ratings.factories import finished_practice_game, finished_tournament_game, play
from tests.ratings.test_ratings import _history, _ratings
from tests.tournament.organizer_factories import make_user
from tournament.models import Game, Round, Seat
from tournament.services.game_status import change_game_status
from tournament.services.live_tables import live_game_for
from tournament.services.results import record_hand

pytestmark = pytest.mark.django_db(transaction=True)


def _places(live: LiveGame) -> dict[int, int]:
    """Seat number -> place rated (players by their user, the house bot by its seat)."""
    seats = {s.player.user_id if s.player_id else None: s.number
             for s in Seat.objects.filter(table__games=live.game_id).select_related("player")}
    return {seats[c.competitor.user_id]: c.place
            for c in RatingChange.objects.filter(live_game=live).select_related("competitor")}


def _paper_table(players: int = 2) -> tuple[Game, LiveGame, list[Seat]]:
    """A running tournament game (players then one house bot, target 500) whose live table is paused for
    hands recorded on paper."""
    game, _ = make_tournament_game(players, bots=1)
    live = live_game_for(game, seed=5)
    change_game_status(game, "pause", None)
    return game, live, list(Seat.objects.filter(table=game.table).order_by("number"))


def _hand(game: Game, number: int, seats: list[Seat], winner: int, left: dict[int, int]) -> None:
    record_hand(game, number, seats[winner].pk, {s.pk: left.get(s.number, 0) for s in seats}, None,
                "from the paper score sheet")


def finished_by_organizer_with_a_tie() -> LiveGame:
    game, live, seats = _paper_table(2)
    _hand(game, 1, seats, 0, {2: 40})
    _hand(game, 2, seats, 1, {2: 40})  # 40 - 40 - 0
    change_game_status(game, "finish", None, reason="The room closes.")
    return live


def finished_on_paper_at_the_target() -> LiveGame:
    game, live, seats = _paper_table(2)
    _hand(game, 1, seats, 1, {0: 120})
    _hand(game, 2, seats, 2, {0: 300, 1: 260})  # 0 - 120 - 560: the target is reached
    return live


def finished_by_the_time_limit() -> LiveGame:
    game, users = make_tournament_game(2, bots=1)
    Round.objects.filter(tables__games=game).update(time_limit_at=timezone.now() - timedelta(minutes=1))
    live = play(live_game_for(game, seed=9), dict(enumerate(users)))  # the first hand played ends it
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.hands.count() == 1
    return live


def test_a_game_finished_by_an_organizer_is_rated_tied_totals_sharing_a_place():
    live = finished_by_organizer_with_a_tie()
    assert _places(live) == {0: 1, 1: 1, 2: 3}
    assert not rate_live_game(live.pk)


def test_a_game_recorded_on_paper_is_rated_when_a_total_reaches_the_target():
    live = finished_on_paper_at_the_target()
    assert Game.objects.get(live=live).status == Game.Status.FINISHED
    assert _places(live) == {2: 1, 1: 2, 0: 3}


def test_a_game_ended_by_the_round_time_limit_is_rated_highest_total_first():
    live = finished_by_the_time_limit()
    totals = {s.number: sum(s.hand_scores.values_list("points_won", flat=True))
              for s in Seat.objects.filter(table__games=live.game_id)}
    assert max(totals.values()) > 0
    assert _places(live) == {n: 1 + sum(t > total for t in totals.values()) for n, total in totals.items()}

def test_a_game_without_a_stored_hand_is_not_rated():
    game, live, _ = _paper_table(2)
    change_game_status(game, "finish", None, reason="Nobody came.")
    assert not RatingChange.objects.filter(live_game=live).exists()


def test_a_silent_bots_uncredited_points_lift_no_place_in_a_bot_league():
    """Every seat silent: the server's least moves went out and scored at the table, but the tournament
    credited none of it, so all three bots share first place."""
    game, _ = make_tournament_game(players=3, entrants="bots", rules_preset="ocho-cards", turn_seconds=30,
                                   target_score=150)
    live = live_game_for(game, seed=7)
    later = timezone.now()
    while LiveGame.objects.filter(pk=live.pk, status=LiveGame.Status.RUNNING).exists():
        later += timedelta(minutes=1)  # every turn timer (30 s) and next-hand pause has run out
        assert timers.sweep_once(later) == 1
    live.refresh_from_db()
    assert len(set(live.state["totals"])) > 1  # the table's own totals would have ordered them
    changes = RatingChange.objects.filter(live_game=live)
    assert set(changes.values_list("competitor__kind", "place")) == {("bot", 1)} and changes.count() == 3


def test_recompute_equals_the_ratings_kept_with_every_kind_of_tournament_ending():
    finished_practice_game(make_user("mixed-r"), seed=3)
    at_target, _ = finished_tournament_game(2, bots=1, seed=11)
    lives = [at_target, finished_by_organizer_with_a_tie(), finished_on_paper_at_the_target(),
             finished_by_the_time_limit()]
    assert [RatingChange.objects.filter(live_game=live).count() for live in lives] == [3, 3, 3, 3]  # rated once
    kept, kept_history = _ratings(), _history()
    call_command("recompute_ratings")
    assert _ratings() == kept and _history() == kept_history
    call_command("recompute_ratings")
    assert _ratings() == kept and _history() == kept_history
