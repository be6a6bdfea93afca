"""Partner rotations from the official UNO rules (rules document 001), as pure schedules and scoring.

    "With four players, play four hands with each of the other three players as your partner (a total of
    12 hands). Each player keeps track of his/her points scored in each partnership. [...] the person
    scoring the highest number of points declared the winner."
    "With eight players, play two separate games at two tables, with each player having every other
    player as a partner for four hands each (a total of 28 hands). Score as above."

A schedule is a list of blocks of ``hands_per_partner`` hands; in a block every table seats four
players in engine seat order, partners opposite (seats 0+2 against 1+3, as the engine's ``partners``
option plays them). Four players: the round-robin "circle" method, every pair partners in one block.
Eight players: a whist tournament (Wh(8)), so every pair partners in exactly one block and also meets
as opponents exactly twice.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field

HANDS_PER_PARTNER = 4
ROTATION_TARGET = 1_000_000  # a block's game ends after its hands, never at a target
SUPPORTED = (4, 8)


class PartnerError(ValueError):
    """The rotation cannot be made for these players; the message says why."""


@dataclass(frozen=True)
class PartnerBlock:
    number: int  # from 1
    first_hand: int  # hand numbers from 1, counted per table
    hands: int
    tables: tuple[tuple[Hashable, Hashable, Hashable, Hashable], ...]  # seats 0..3; 0+2 and 1+3 partners

    @property
    def last_hand(self) -> int:
        return self.first_hand + self.hands - 1

    def partnerships(self) -> list[tuple[Hashable, Hashable]]:
        return [pair for seats in self.tables for pair in ((seats[0], seats[2]), (seats[1], seats[3]))]


@dataclass(frozen=True)
class PartnerSchedule:
    players: tuple
    blocks: tuple[PartnerBlock, ...]

    @property
    def hands(self) -> int:
        """Hands each player plays (12 with four players, 28 with eight)."""
        return sum(block.hands for block in self.blocks)

    def block_of_hand(self, hand_number: int) -> PartnerBlock:
        for block in self.blocks:
            if block.first_hand <= hand_number <= block.last_hand:
                return block
        raise PartnerError(f"Hand {hand_number} is outside the schedule of {self.hands} hands.")


def round_robin_pairings(players: Sequence[Hashable]) -> list[list[tuple[Hashable, Hashable]]]:
    """Circle method: n-1 rounds of n/2 pairs; every pair meets exactly once (n even)."""
    players = list(players)
    if len(players) % 2:
        raise PartnerError("Partners need an even number of players.")
    fixed, rotating = players[-1], players[:-1]
    rounds = []
    for _ in range(len(players) - 1):
        pairs = [(fixed, rotating[0])]
        half = len(rotating) // 2
        for i in range(1, half + 1):
            pairs.append((rotating[i], rotating[-i]))
        rounds.append(pairs)
        rotating = rotating[1:] + rotating[:1]
    return rounds


# A whist tournament on eight players (Wh(8)): points 0..6 and "infinity" (7); the base round below is
# developed modulo 7 into seven rounds. Every pair partners exactly once and opposes exactly twice.
# Each tuple is one table in seat order: seats 0+2 partners against seats 1+3.
WHIST_8_BASE = ((7, 0, 1, 3), (2, 5, 4, 6))


def _whist_8(players: tuple) -> list[tuple[tuple, ...]]:
    def shift(point: int, by: int) -> int:
        return point if point == 7 else (point + by) % 7

    return [tuple(tuple(players[shift(p, by)] for p in table) for table in WHIST_8_BASE) for by in range(7)]


def partner_rotation(players: Sequence[Hashable], hands_per_partner: int = HANDS_PER_PARTNER) -> PartnerSchedule:
    """The rotation for four players (one table, 12 hands) or eight (two tables, 28 hands)."""
    players = tuple(players)
    if len(set(players)) != len(players):
        raise PartnerError("A player appears twice in the rotation.")
    if len(players) not in SUPPORTED:
        raise PartnerError(f"The partner rotation is played by four or eight players, not {len(players)}.")
    if hands_per_partner < 1:
        raise PartnerError("Each partnership plays at least one hand.")
    if len(players) == 4:
        table_sets = [((a[0], b[0], a[1], b[1]),) for a, b in round_robin_pairings(players)]
    else:
        table_sets = _whist_8(players)
    blocks = []
    for index, seats in enumerate(table_sets):
        blocks.append(PartnerBlock(index + 1, index * hands_per_partner + 1, hands_per_partner, seats))
    schedule = PartnerSchedule(players, tuple(blocks))
    _check(schedule)
    return schedule


def _check(schedule: PartnerSchedule) -> None:
    partnered: Counter = Counter()
    for block in schedule.blocks:
        seated = [p for seats in block.tables for p in seats]
        if sorted(map(repr, seated)) != sorted(map(repr, schedule.players)):
            raise AssertionError(f"block {block.number} does not seat every player once")
        for a, b in block.partnerships():
            partnered[frozenset((a, b))] += block.hands
    pairs = len(schedule.players) * (len(schedule.players) - 1) // 2
    if len(partnered) != pairs or len(set(partnered.values())) != 1:
        raise AssertionError("not every pair partners equally often")


@dataclass
class PartnerScores:
    """Points per player, in total and per partner (what each player 'keeps track of')."""

    totals: dict = field(default_factory=dict)
    by_partner: dict = field(default_factory=dict)
    hands_played: dict = field(default_factory=dict)

    def ranking(self) -> list[tuple[Hashable, int]]:
        return sorted(self.totals.items(), key=lambda item: -item[1])


def partner_scores(schedule: PartnerSchedule,
                   hand_points: Mapping[tuple[int, int], Sequence[int]]) -> PartnerScores:
    """Score the rotation: ``hand_points[(table index, hand number)]`` is the points won by seats 0..3
    in that hand (the winning team's two players each score the opponents' cards, as the engine does).

    Each player is credited with their seat's points, and the same points are listed under the partner
    they played that hand with.
    """
    scores = PartnerScores(totals=dict.fromkeys(schedule.players, 0),
                           by_partner={p: defaultdict(int) for p in schedule.players},
                           hands_played=dict.fromkeys(schedule.players, 0))
    for (table_index, hand_number), points in sorted(hand_points.items()):
        block = schedule.block_of_hand(hand_number)
        if not 0 <= table_index < len(block.tables):
            raise PartnerError(f"Hand {hand_number} names table {table_index + 1}, which the block does not have.")
        if len(points) != 4:
            raise PartnerError(f"Hand {hand_number} needs points for four seats, got {len(points)}.")
        seats = block.tables[table_index]
        for seat, player in enumerate(seats):
            partner = seats[(seat + 2) % 4]
            scores.totals[player] += points[seat]
            scores.by_partner[player][partner] += points[seat]
            scores.hands_played[player] += 1
    scores.by_partner = {p: dict(partners) for p, partners in scores.by_partner.items()}
    return scores
