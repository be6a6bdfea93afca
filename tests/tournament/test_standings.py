"""Leaderboard ranking (pure, no database) and the standings query against a hand-computed example."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.tournament.standings_data import make_event, make_players, record_games, seat_round
from tournament.models import Player
from tournament.standings import StandingRow, compute_standings, rank_standings


def row(pid, name, won=0, games=0, hands=0, left=0):
    return StandingRow(player_id=pid, display_name=name, points_won=won, games_won=games, hands_won=hands, points_left=left)


def names_and_ranks(rows):
    return [(r.display_name, r.rank) for r in rows]


# --- pure ranking -------------------------------------------------------------------------------


def test_most_points_won_ranks_first():
    ranked = rank_standings([row(1, "Asha", won=10), row(2, "Ravi", won=50), row(3, "Meera", won=30)])
    assert names_and_ranks(ranked) == [("Ravi", 1), ("Meera", 2), ("Asha", 3)]


def test_equal_points_then_more_games_won():
    ranked = rank_standings([row(1, "Asha", won=50, games=0), row(2, "Ravi", won=50, games=1)])
    assert names_and_ranks(ranked) == [("Ravi", 1), ("Asha", 2)]


def test_equal_points_and_games_then_more_hands_won():
    ranked = rank_standings([row(1, "Asha", won=50, games=1, hands=2), row(2, "Ravi", won=50, games=1, hands=3)])
    assert names_and_ranks(ranked) == [("Ravi", 1), ("Asha", 2)]


def test_then_fewest_points_left_in_hand():
    ranked = rank_standings(
        [row(1, "Asha", won=50, games=1, hands=3, left=40), row(2, "Ravi", won=50, games=1, hands=3, left=12)]
    )
    assert names_and_ranks(ranked) == [("Ravi", 1), ("Asha", 2)]


def test_all_tiebreaks_equal_share_a_rank_listed_by_name():
    ranked = rank_standings(
        [
            row(1, "ravi", won=50, games=1, hands=3, left=12),
            row(2, "Asha", won=50, games=1, hands=3, left=12),
            row(3, "Kabir", won=10),
        ]
    )
    # Shared rank 1, then the next rank is 3 (standard competition ranking); names sort case-insensitively.
    assert names_and_ranks(ranked) == [("Asha", 1), ("ravi", 1), ("Kabir", 3)]


def test_empty_board():
    assert rank_standings([]) == []


rows_strategy = st.lists(
    st.builds(
        StandingRow,
        player_id=st.integers(1, 10_000),
        display_name=st.text(min_size=1, max_size=8),
        points_won=st.integers(0, 500),
        games_won=st.integers(0, 3),
        hands_won=st.integers(0, 10),
        points_left=st.integers(0, 300),
    ),
    max_size=30,
)


@given(rows_strategy)
def test_ranks_are_consistent_with_the_tiebreak_order(rows):
    ranked = rank_standings(rows)
    assert len(ranked) == len(rows)
    for position, (before, after) in enumerate(zip(ranked, ranked[1:], strict=False), start=2):
        assert before.tiebreak_key() <= after.tiebreak_key()
        if before.tiebreak_key() == after.tiebreak_key():
            assert after.rank == before.rank
        else:
            assert after.rank == position
    if ranked:
        assert ranked[0].rank == 1


# --- the query ----------------------------------------------------------------------------------

# Hand-computed example, one table of four (seats 0-3 = Asha, Ravi, Meera, Kabir):
#   hand 1: Asha goes out; cards left 0/10/15/5  -> Asha scores 30
#   hand 2: Ravi goes out; cards left 20/0/10/10 -> Ravi scores 40; Ravi wins the game.
# Totals (won, games, hands, left): Asha 30/0/1/20, Ravi 40/1/1/10, Meera 0/0/0/25, Kabir 0/0/0/15.
EXAMPLE_HANDS = [(0, [0, 10, 15, 5]), (1, [20, 0, 10, 10])]


@pytest.fixture
def example(db):
    event = make_event()
    players = make_players(event, ["Asha", "Ravi", "Meera", "Kabir"])
    round_, tables = seat_round(event, players)
    record_games(tables, EXAMPLE_HANDS, winner=1)
    return event, round_, players


def test_standings_match_the_hand_computed_example(example):
    event, _round, _players = example
    standings = compute_standings(event)
    assert [(r.rank, r.display_name, r.points_won, r.games_won, r.hands_won, r.points_left) for r in standings] == [
        (1, "Ravi", 40, 1, 1, 10),
        (2, "Asha", 30, 0, 1, 20),
        (3, "Kabir", 0, 0, 0, 15),
        (4, "Meera", 0, 0, 0, 25),
    ]


def test_round_standings_count_only_that_round(example):
    event, round1, players = example
    round2, tables = seat_round(event, players[:2], table_size=2, number=2)
    record_games(tables, [(0, [0, 7])], winner=0)  # Asha beats Ravi: 7 points
    event_board = {r.display_name: r for r in compute_standings(event)}
    assert (event_board["Asha"].points_won, event_board["Asha"].games_won, event_board["Asha"].hands_won) == (37, 1, 2)
    assert event_board["Ravi"].points_left == 17
    round2_board = compute_standings(event, round=round2)
    assert [(r.display_name, r.points_won, r.rank) for r in round2_board] == [("Asha", 7, 1), ("Ravi", 0, 2)]
    round1_board = {r.display_name: r.points_won for r in compute_standings(event, round=round1)}
    assert round1_board == {"Ravi": 40, "Asha": 30, "Kabir": 0, "Meera": 0}


def test_registered_players_without_a_seat_are_listed_with_zeros_and_withdrawn_ones_are_not(example):
    event, _round, players = example
    waiting, gone = make_players(event, ["Zoya", "Dev"], prefix="late-")
    Player.objects.filter(pk=gone.pk).update(status=Player.Status.WITHDRAWN)
    Player.objects.filter(pk=players[3].pk).update(status=Player.Status.WITHDRAWN)  # Kabir played, then left
    board = {r.display_name: r for r in compute_standings(event)}
    assert "Dev" not in board
    assert board["Zoya"].points_won == 0
    assert board["Kabir"].points_left == 15 and board["Kabir"].status == "withdrawn"


def test_other_events_do_not_leak_in(example):
    event, _round, _players = example
    other = make_event(slug="other")
    others = make_players(other, ["Asha", "Ravi"])
    _r, tables = seat_round(other, others, table_size=2)
    record_games(tables, [(0, [0, 99])], winner=0)
    assert max(r.points_won for r in compute_standings(event)) == 40


def test_standings_use_three_queries(example, django_assert_num_queries):
    event, round_, _players = example
    with django_assert_num_queries(3):
        compute_standings(event)
    with django_assert_num_queries(3):
        compute_standings(event, round=round_)
