"""A finished game's finishing order: each game seat's 1-based place, tied seats sharing a place.

Pure (no Django). By the rule set's scoring (docs/ratings.md):
- 'winner_takes' (the game to 500): the final totals, highest first; equal totals share a place.
- 'running_total': the final totals, lowest first (the lowest total wins).
- 'elimination': the last player left first, then the others by the hand they were knocked out in, later
  first; players knocked out in the same hand share a place.
Places are "competition" places: two seats tied for 2nd are both 2nd and the next is 4th.
"""

from __future__ import annotations

from collections.abc import Sequence


def shared_places(keys: Sequence[float]) -> list[int]:
    """1-based places of `keys` (lower key = better place), equal keys sharing the better place."""
    return [1 + sum(1 for other in keys if other < key) for key in keys]


def places(scoring: str, totals: Sequence[int], winners: Sequence[int], target: int,
           totals_after_each_hand: Sequence[Sequence[int]] = ()) -> list[int]:
    seats = range(len(totals))
    if scoring == "running_total":
        return shared_places([0 if s in winners else 1 + totals[s] for s in seats])
    if scoring == "elimination":
        hands = len(totals_after_each_hand)

        def out_in(seat: int) -> int:  # the hand a seat was knocked out in (later = better)
            return next((i for i, row in enumerate(totals_after_each_hand) if row[seat] >= target), hands)

        return shared_places([-(hands + 1) if s in winners else -out_in(s) for s in seats])
    return shared_places([-totals[s] for s in seats])
