"""``load_bracket``: a fixed number of queries, and a seat's player shared with the entries (not joined in a
second time), including the player of a seat who is not among the entries."""

import pytest

from tests.tournament.bracket_factories import played_first_round
from tournament.models import BracketEntry, Player, Seat
from tournament.services import bracket_stages, bracket_view, next_round
from tournament.services.next_round import NextRoundOptions

pytestmark = pytest.mark.django_db

LOAD_QUERIES = 9  # stages, entries with players, tables, seats, games, hand scores, draws, open-place
# decisions, the seats whose player took part


def bracket_round():
    event, organizer, _ = played_first_round(24)
    options = NextRoundOptions(field=16, draw_seed=11)
    plan = next_round.plan_next_round(event, options)
    assert plan.confirmable, plan.problems
    round_two = next_round.create_bracket_round(event, options, plan.field_ids, organizer)
    bracket_stages.start_stage(round_two, 1, organizer)
    return event, round_two


def test_seats_hold_the_entries_players_in_a_fixed_number_of_queries(django_assert_num_queries):
    _, round_two = bracket_round()
    with django_assert_num_queries(LOAD_QUERIES):
        state = bracket_view.load_bracket(round_two)
    with django_assert_num_queries(0):  # names, statuses and seeds need no more queries
        seats = [s for stage in state.stages for t in stage.tables for s in t.seats]
        labels = {s.seat.player_id: (s.seat.label, s.active, s.seed) for s in seats}
    entries = BracketEntry.objects.filter(round=round_two).select_related("player")
    assert labels == {e.player_id: (e.player.display_name, True, e.seed) for e in entries}
    assert all(s.seat.player is state.players[s.seat.player_id] for s in seats)


def test_a_seat_outside_the_entries_still_shows_its_player(django_assert_num_queries):
    event, round_two = bracket_round()
    outsider = Player.objects.filter(event=event).exclude(bracket_entries__round=round_two).first()
    seat = Seat.objects.filter(table__round=round_two).order_by("table__number", "number").first()
    Seat.objects.filter(pk=seat.pk).update(player=outsider)
    with django_assert_num_queries(LOAD_QUERIES + 1):  # the one player outside the entries
        state = bracket_view.load_bracket(round_two)
    first = state.stages[0].tables[0].seats[0]
    assert (first.seat.label, first.seed, first.active) == (outsider.display_name, None, True)
    assert state.players[outsider.pk] == outsider
