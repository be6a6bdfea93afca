"""Table seating (pure, no database): sizes within bounds and even, everyone once, replayable by seed."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.generators.seating import BOT, SeatingError, build_tables, swap_players, table_sizes


@st.composite
def seatable(draw):
    min_size = draw(st.integers(2, 10))
    max_size = draw(st.integers(min_size, 10))
    count = draw(st.integers(2, 1000))
    return count, min_size, max_size


@settings(max_examples=300, deadline=None)
@given(seatable(), st.integers(0, 2**63 - 1))
def test_everyone_seated_once_within_bounds_and_even(case, seed):
    count, min_size, max_size = case
    players = list(range(100, 100 + count))
    try:
        tables = build_tables(players, min_size, max_size, seed)
    except SeatingError:
        # Only when no number of tables fits: ceil(count / max) tables are then still too few players.
        assert -(-count // max_size) * min_size > count
        with_bots = build_tables(players, min_size, max_size, seed, fill_with_bots=True)
        assert all(len(table) == min_size for table in with_bots)
        assert sorted(p for t in with_bots for p in t if p is not BOT) == players
        return
    seated = [p for table in tables for p in table]
    assert sorted(seated) == players
    sizes = [len(table) for table in tables]
    assert min(sizes) >= min_size and max(sizes) <= max_size
    assert max(sizes) - min(sizes) <= 1
    assert len(tables) == -(-count // max_size), "as few tables as the largest size allows"
    assert build_tables(players, min_size, max_size, seed) == tables, "same seed, same tables"


@settings(max_examples=100, deadline=None)
@given(seatable(), st.integers(0, 1000))
def test_seeding_keeps_the_bounds(case, seed):
    count, min_size, max_size = case
    players = list(range(count))
    seeding = {p: (p % 7 if p % 3 else None) for p in players}
    tables = build_tables(players, min_size, max_size, seed, seeding=seeding, fill_with_bots=True)
    assert sorted(p for t in tables for p in t if p is not BOT) == players
    sizes = [len(t) for t in tables]
    assert min(sizes) >= min_size and max(sizes) <= max_size and max(sizes) - min(sizes) <= 1


def test_different_seeds_shuffle_differently():
    players = list(range(40))
    assert build_tables(players, 4, 4, 1) != build_tables(players, 4, 4, 2)


def test_seeding_spreads_the_strongest_in_snake_order():
    players = ["a", "b", "c", "d", "e", "f", "g", "h"]
    seeding = {p: 100 - i for i, p in enumerate(players)}  # a strongest, h weakest
    tables = build_tables(players, 4, 4, seed=5, seeding=seeding)
    # Two tables: a→1, b→2, c→2, d→1, e→1, f→2, g→2, h→1
    assert tables == [["a", "d", "e", "h"], ["b", "c", "f", "g"]]


def test_one_player_with_min_two_is_a_clear_error():
    with pytest.raises(SeatingError, match="1 player cannot be seated at tables of 2 to 4"):
        build_tables([7], 2, 4, seed=1)


def test_bots_bring_a_short_table_up_to_its_minimum():
    assert build_tables([7], 2, 4, seed=1, fill_with_bots=True) == [[7, BOT]]
    tables = build_tables(list(range(5)), 3, 4, seed=3, fill_with_bots=True)
    assert [len(t) for t in tables] == [3, 3]
    assert sum(p is BOT for t in tables for p in t) == 1


def test_sizes_for_the_first_customer():
    assert table_sizes(24, 4, 4) == [4] * 6
    assert table_sizes(25, 3, 4) == [4] * 4 + [3] * 3
    assert table_sizes(10, 2, 10) == [10]


@pytest.mark.parametrize(
    ("count", "low", "high", "message"),
    [(0, 2, 4, "no players"), (5, 4, 3, "cannot be larger"), (5, 1, 3, "at least 2")],
)
def test_bad_requests_are_explained(count, low, high, message):
    with pytest.raises(SeatingError, match=message):
        table_sizes(count, low, high)


def test_duplicate_player_is_refused():
    with pytest.raises(SeatingError, match="twice"):
        build_tables([1, 1, 2], 2, 4, seed=0)


def test_swapping_two_players_keeps_sizes_and_everyone_else():
    tables = [[1, 2, 3], [4, 5, BOT]]
    assert swap_players(tables, 2, 5) == [[1, 5, 3], [4, 2, BOT]]
    assert tables == [[1, 2, 3], [4, 5, BOT]], "the input is not changed"


@pytest.mark.parametrize(("first", "second", "message"), [
    (1, 3, "Both already sit at table 1"),
    (1, 99, "two players who are seated"),
    (BOT, 4, "two players who are seated"),
])
def test_a_swap_that_cannot_be_done_is_explained(first, second, message):
    with pytest.raises(SeatingError, match=message):
        swap_players([[1, 2, 3], [4, 5, BOT]], first, second)
