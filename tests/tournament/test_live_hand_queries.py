"""A hand's end at a live table writes the game's move and the tournament's rows in the move's own
transaction (tournament/services/live_results.py), on a worker's database thread: each ORM query there
costs the worker about half a millisecond of CPU, so their number is pinned here."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import engine
from games.models import LiveGame
from games.services.moves import submit_move
from games.services.seats import seat_holders, turn_game_seat
from tests.tournament.organizer_factories import make_event, make_organizer_of, make_players
from tournament.models import Game, Hand, HandScore
from tournament.services import rounds

# Committed for real: the move path keeps each game in memory after its commit, as a worker does.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_settings")]

# BEGIN; the live game locked with its tournament game; its seat holders; the tournament's seats with
# the event (one query); the last hand's number; the hand; its scores; the scores version; the round's
# time limit; the move; the live game's row; COMMIT; the scores version after the commit.
HAND_END_QUERIES = 13


def test_a_hand_played_to_its_end_live_is_written_in_a_bounded_number_of_queries():
    event = make_event(min_table_size=3, max_table_size=3, target_score=5000, turn_seconds=0)
    organizer = make_organizer_of(event)
    make_players(event, 3)
    round_ = rounds.create_first_round(event, rounds.plan_first_round(event, seed=4), organizer)
    rounds.start_round(round_, organizer)
    game = Game.objects.get(table__round=round_)
    live = LiveGame.objects.get(game=game)
    for _ in range(2000):
        live = LiveGame.objects.get(pk=live.pk)
        state = engine.Game.from_dict(live.state)
        seat = turn_game_seat(state, live.hand_seats)
        action = engine.legal_actions(state.hand, live.hand_seats.index(seat))[0].to_dict()
        del action["seat"]
        user = get_user_model().objects.get(pk=seat_holders(live)[seat].user_id)
        with CaptureQueriesContext(connection) as queries:
            submit_move(live.pk, user, live.version, action)
        if Hand.objects.filter(game=game).exists():
            break
    hand = Hand.objects.get(game=game)
    assert HandScore.objects.filter(hand=hand).count() == 3 and hand.winner_id is not None
    assert len(queries) <= HAND_END_QUERIES, "\n".join(q["sql"][:120] for q in queries)
