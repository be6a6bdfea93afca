"""A silent bot never scores for its owner (docs/rules.md, "Bot leagues: a silent bot").

At a table whose seats take moves only through their owners' tokens (`LiveGame.token_moves_only`: a bot
league), the server makes the least move for a bot whose turn time ran out. Under some rules the least
move has to be a card (Ocho on playing cards forbids drawing while holding a playable card), so a silent
seat can go out. The rule, applied where the live table's results are written into the tournament
(`live_results`):

- a hand the seat went out in, when the server made any of that seat's moves in the hand (the move that
  went out included), is recorded with no winner and 0 points won for the winning side (the seat, and its
  partner in a partnership game); the other seats' rows stay as scored;
- the tournament game's winner is then decided by the totals without those points (winner-takes scoring:
  the highest total wins, none on a tie).

People's events are unchanged: there a player's absence is judged by the participation rule.
"""

from __future__ import annotations

from games import engine
from games.models import LiveGame, LiveMove

STAND_INS = (LiveMove.Actor.TIMER, LiveMove.Actor.BOT)


def stood_in(live: LiveGame, ending: LiveMove | None) -> set[tuple[int, int]]:
    """(hand number, game seat) of every hand and seat the server made a move for at ``live``, including
    ``ending`` (the move being stored, not yet saved). Empty unless the table is a bot league's."""
    if not live.token_moves_only:
        return set()
    pairs = set(LiveMove.objects.filter(live_game_id=live.pk, actor__in=STAND_INS, seat__isnull=False)
                .values_list("hand_number", "seat"))
    if ending is not None and ending.actor in STAND_INS and ending.seat is not None:
        pairs.add((ending.hand_number, ending.seat))
    return pairs


def uncredited_seats(result: engine.HandResult, server_moved: set[tuple[int, int]]) -> set[int]:
    """The game seats whose points won in ``result`` are not credited: the winning side, when the server
    moved for the seat that went out in that hand; else none. A partnership's sides are the parities of
    the hand's seats (the game seats dealt in, in order)."""
    winner = result.winner
    if winner is None or winner < 0 or (result.number, winner) not in server_moved:
        return set()
    side = {winner}
    if result.team is not None:
        dealt_in = [seat for seat, left in enumerate(result.points_left) if left is not None]
        side |= {game_seat for hand_seat, game_seat in enumerate(dealt_in) if hand_seat % 2 == result.team}
    return side


def credited_winners(game: engine.Game, server_moved: set[tuple[int, int]]) -> list[int] | None:
    """The game's winners (game seats) by the totals without uncredited points, or None when nothing was
    uncredited (the engine's winners stand) or the scoring is not winner-takes (a silent seat that goes
    out scores nothing there anyway)."""
    if not server_moved or game.rules.scoring != "winner_takes":
        return None
    totals = list(game.totals)
    changed = False
    for result in game.results:
        for seat in uncredited_seats(result, server_moved):
            totals[seat] -= result.points_won[seat] or 0
            changed = True
    if not changed:
        return None
    best = max(totals)
    return [seat for seat, total in enumerate(totals) if total == best]

