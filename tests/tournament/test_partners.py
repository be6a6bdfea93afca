"""Partner rotations of rules document 001: every pair partners for four hands; scoring per partnership."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.generators.partners import (
    PartnerError,
    partner_rotation,
    partner_scores,
    round_robin_pairings,
)


def partnered_hands(schedule):
    counts = Counter()
    for block in schedule.blocks:
        for a, b in block.partnerships():
            counts[frozenset((a, b))] += block.hands
    return counts


def test_four_players_play_twelve_hands_four_with_each_partner():
    # "With four players, play four hands with each of the other three players as your partner
    # (a total of 12 hands)."
    schedule = partner_rotation(["ann", "bob", "cy", "di"])
    assert schedule.hands == 12 and len(schedule.blocks) == 3
    counts = partnered_hands(schedule)
    assert len(counts) == 6 and set(counts.values()) == {4}
    for block in schedule.blocks:
        assert len(block.tables) == 1 and sorted(block.tables[0]) == ["ann", "bob", "cy", "di"]


def test_eight_players_at_two_tables_play_twenty_eight_hands():
    # "With eight players, play two seperate games at two tables, with each player having every other
    # player as a partner for four hands each (a total of 28 hands)."
    players = list("ABCDEFGH")
    schedule = partner_rotation(players)
    assert schedule.hands == 28 and len(schedule.blocks) == 7
    counts = partnered_hands(schedule)
    assert len(counts) == 28 and set(counts.values()) == {4}
    opponents = Counter()
    for block in schedule.blocks:
        assert len(block.tables) == 2
        assert sorted(p for t in block.tables for p in t) == players
        for seats in block.tables:
            for x in (seats[0], seats[2]):
                for y in (seats[1], seats[3]):
                    opponents[frozenset((x, y))] += 1
    assert len(opponents) == 28 and set(opponents.values()) == {2}, "everyone meets everyone as opponent twice"


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 30).map(lambda n: 2 * n))
def test_round_robin_pairs_every_pair_once(n):
    rounds = round_robin_pairings(list(range(n)))
    assert len(rounds) == n - 1
    pairs = [frozenset(p) for r in rounds for p in r]
    assert len(pairs) == len(set(pairs)) == n * (n - 1) // 2
    for r in rounds:
        assert sorted(p for pair in r for p in pair) == list(range(n))


def test_other_sizes_are_refused():
    for players in (list("ABC"), list("ABCDEF"), ["a", "a", "b", "c"]):
        with pytest.raises(PartnerError):
            partner_rotation(players)


def test_scores_are_kept_per_partnership():
    schedule = partner_rotation(["ann", "bob", "cy", "di"])
    hand_points = {}
    for block in schedule.blocks:
        seats = block.tables[0]
        for hand in range(block.first_hand, block.last_hand + 1):
            # The team of seats 0+2 wins every hand with 10 points: both partners score them.
            hand_points[(0, hand)] = [10, 0, 10, 0]
            assert seats  # same seats for the whole block
    scores = partner_scores(schedule, hand_points)
    assert sum(scores.hands_played.values()) == 48
    expected = Counter()
    for block in schedule.blocks:
        seats = block.tables[0]
        expected[seats[0]] += 40
        expected[seats[2]] += 40
        assert scores.by_partner[seats[0]][seats[2]] == 40
    assert scores.totals == {p: expected[p] for p in schedule.players}
    assert scores.ranking()[0][1] == max(expected.values())


def test_scoring_refuses_hands_outside_the_schedule():
    schedule = partner_rotation(list("ABCD"))
    with pytest.raises(PartnerError):
        partner_scores(schedule, {(0, 13): [0, 0, 0, 0]})
    with pytest.raises(PartnerError):
        partner_scores(schedule, {(1, 1): [0, 0, 0, 0]})
