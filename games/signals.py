"""What the live-match layer announces: a hand scored, a game finished at its target, a player's first own
move, a sweeper tick; and what it asks (the latest announcement to show at a table).

`games` never imports `tournament`; it sends these signals and whoever keeps scores listens (the tournament
app's receivers, `tournament.receivers`, connected in `TournamentConfig.ready()`). Both are sent for every
kind of live game with `sender=LiveGame`; a receiver that only cares about tournament games checks
`live.kind` (practice and exhibition games have no `live.game`).

Both are sent by the move service (`games.services.moves.store_change`) inside the transaction that stores
the move, with the live game row locked, before the move row and the game's new columns are saved. A
receiver's writes therefore commit or roll back with the move: a hand shown at the table is a hand in the
standings, and a game that ended at the table is finished in the tournament, or neither. A receiver that
raises rolls the move back (the player's move is refused, nothing is stored). Anything a receiver wants to
happen only after the commit (telling other sockets, refreshing caches) it registers with
`transaction.on_commit` itself.
"""

from __future__ import annotations

from django.dispatch import Signal

hand_scored = Signal()
"""A hand of a live game is over and scored.

Arguments: `live` (the locked `LiveGame`, its `version` already the new one, not yet saved), `result` (the
engine's `HandResult`: hand `number` from 0, `dealer`, `winner` and per game seat `points_left` /
`points_won`, None for a seat not dealt in), `started_at` (when the hand was dealt; None if unknown) and
`ended_at` (now).

Sent inside the move's transaction so that the tournament's `Hand` rows are written atomically with the
move that ended the hand. A receiver may end the live game with this change (a partner rotation's block
that has had its hands) by calling `games.services.lifecycle.end_with_this_change(live)`; the move service
then saves it finished with the move.
"""

game_finished = Signal()
"""A live game reached its target: the engine game is over (sent after `hand_scored` for its last hand).

Arguments: `live` (the locked `LiveGame`, already marked finished, not yet saved), `game` (the engine
`Game`: `winners` in game seats, `totals`) and `now`.

Sent inside the move's transaction so that the tournament game is finished (and its round and bracket
move on) atomically with the move that ended it. A receiver may replace `live.game` with a fresher copy of
the same tournament game (the table's snapshot then shows the game as the tournament now has it).
"""

first_own_move = Signal()
"""A seat's first move made by its player themselves (not the turn timer or a takeover bot) in a live game.

Arguments: `live_game` (the `LiveGame`, its tournament `game` loaded) and `seat` (the game seat). Sent by
`games.services.first_moves` after the move has committed, at most once per seat and process: the game
row's lock is not held for it, and a refused (rolled back) move announces nothing. The tournament's
participation rule counts a player's own moves, so the first one can turn a "no-show" into a player who
took part before any hand is scored.
"""

sweep = Signal()
"""The sweeper is about to act on due games (every tick of `games.services.timers.sweep_once`).

Arguments: `now`. Sent outside any transaction, before the due games are swept, so that a receiver's
periodic work (a tournament round's time limit) runs in the processes that run the timers without `games`
knowing of it. Sent with `send_robust`: a receiver that raises is logged and the timers go on. A receiver
keeps its work cheap (one indexed query when there is nothing to do): it runs about twice a second.
"""

latest_announcement = Signal()
"""Asked when a socket opens at a table that has an `announce_group`: a receiver answers with the latest
announcement to show there, as the message the group would carry (``{"type": "announcement", "text": ...,
"at": ...}``), or None. Argument: `live_id`. Sent in the socket's database call (`send`, not robust: a
failing receiver is a bug to see)."""
