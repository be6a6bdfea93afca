"""A finished tournament game's finishing order, from the tournament's stored results (its `Hand` and
`HandScore` rows), however the game ended: at its target at the live table, by the round's time limit, by
an organizer finishing it, or by a hand recorded on paper.

The stored scores are the ones the tournament counts: a hand recorded by hand is in them, and in a bot
league a hand a silent seat went out in scores nothing for it (`tournament.services.silent_seats`), so
those points never lift its place. A game with no hand stored (finished before any was played) has no
finishing order.
"""

from __future__ import annotations

from collections import defaultdict

from ratings import finishing_order
from tournament.models import Game, HandScore, Seat


def places(game: Game, scoring: str, target: int) -> list[int] | None:
    """Each game seat's 1-based place (game seat order: `Game.seat_order`, else the table's seats by
    number), or None when no hand of `game` is stored."""
    numbers = game.game_seat_numbers(Seat.objects.filter(table_id=game.table_id).values_list("number", flat=True))
    index = {number: i for i, number in enumerate(numbers)}
    won: dict[int, dict[int, int]] = defaultdict(dict)  # hand number -> game seat -> points won
    for hand, seat_number, points in (HandScore.objects.filter(hand__game=game)
                                      .values_list("hand__number", "seat__number", "points_won")):
        if seat_number in index:
            won[hand][index[seat_number]] = points
    if not won:
        return None
    totals = [0] * len(numbers)
    after_each_hand = []
    for hand in sorted(won):
        for seat, points in won[hand].items():
            totals[seat] += points
        after_each_hand.append(list(totals))
    winner = game.winner.number if game.winner_id else None
    winners = [index[winner]] if winner in index else []
    return finishing_order.places(scoring, totals, winners, target, after_each_hand)
