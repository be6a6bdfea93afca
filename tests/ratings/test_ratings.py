"""Ratings from finished live games: finishing orders, a game rated as it finishes (after its move's
commit), people and bots apart, and a recompute that gives the same ratings every time."""

import pytest
from django.core.management import call_command

from games.models import LiveGame
from games.services import lifecycle
from ratings.finishing_order import places
from ratings.models import Competitor, RatingChange
from ratings.rating_updates import rate_live_game
from tests.ratings.factories import finished_practice_game, finished_tournament_game, play
from tests.tournament.organizer_factories import make_user

pytestmark = pytest.mark.django_db(transaction=True)


def test_finishing_orders_share_tied_places():
    assert places("winner_takes", [510, 120, 300, 120], [0], 500) == [1, 3, 2, 3]
    assert places("running_total", [80, 20, 120], [1], 100) == [2, 1, 3]
    history = [[50, 10, 0], [110, 40, 0], [110, 130, 0]]  # seat 0 out after hand 2, seat 1 after hand 3
    assert places("elimination", [110, 130, 0], [2], 100, history) == [3, 2, 1]
    assert places("elimination", [110, 130, 0], [2], 100, [[110, 130, 0]]) == [2, 2, 1]


def test_a_game_is_rated_as_it_finishes_people_and_bots_apart():
    live, users = finished_tournament_game(2, bots=1)
    assert live.status == LiveGame.Status.FINISHED
    changes = list(RatingChange.objects.filter(live_game=live).select_related("competitor"))
    assert {(c.competitor.kind, c.competitor.user_id) for c in changes} == {
        ("person", users[0].pk), ("person", users[1].pk), ("house_bot", None)}
    assert all(c.competitor.family == "uno" and c.competitors == 3 for c in changes)
    winner = min(changes, key=lambda c: c.place)
    assert winner.place == 1 and winner.mu > winner.mu_before and winner.sigma < winner.sigma_before
    assert not rate_live_game(live.pk)  # rated once only
    assert RatingChange.objects.filter(live_game=live).count() == 3


def _ratings():
    return sorted((c.family, c.kind, c.user_id, c.bot_kind, c.mu, c.sigma, c.games)
                  for c in Competitor.objects.all())


def _history():
    return list(RatingChange.objects.order_by("ended_at", "live_game_id", "competitor__kind",
                                               "competitor__user_id")
                .values_list("live_game_id", "competitor__kind", "competitor__user_id", "place", "mu", "sigma"))


def test_recompute_is_deterministic_and_equals_the_ratings_kept_as_games_finished():
    asha = make_user("asha-r")
    finished_practice_game(asha, seed=3)
    finished_practice_game(asha, seed=4, preset="ocho-plato", opponents=1)
    finished_tournament_game(2, bots=1, seed=11)
    live, users = finished_tournament_game(2, bots=0, seed=12)
    kept, kept_history = _ratings(), _history()
    assert {row[0] for row in kept} == {"uno", "ocho"}
    call_command("recompute_ratings")
    first, first_history = _ratings(), _history()
    call_command("recompute_ratings")
    assert _ratings() == first and _history() == first_history
    assert first == kept and first_history == kept_history


def test_a_seat_played_through_an_access_token_is_rated_as_a_bot():
    owner = make_user("botwriter")
    live = lifecycle.start_practice_game(owner, "uno-official", 1, seed=5, turn_seconds=0, target=30,
                                         with_my_bot=True)
    play(live, {0: owner}, via_token=True)
    kinds = set(RatingChange.objects.filter(live_game=live).values_list("competitor__kind", "competitor__user_id"))
    assert kinds == {("bot", owner.pk), ("house_bot", None)}
