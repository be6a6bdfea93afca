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
`ended_at` (now) and `move` (the `LiveMove` that ended the hand, not yet saved: its `seat`, `actor`,
`hand_number`).

Sent inside the move's transaction so that the tournament's `Hand` rows are written atomically with the
move that ended the hand. A receiver may end the live game with this change (a partner rotation's block
that has had its hands) by calling `games.services.lifecycle.end_with_this_change(live)`; the move service
then saves it finished with the move.
"""

game_finished = Signal()
"""A live game reached its target: the engine game is over (sent after `hand_scored` for its last hand).

Arguments: `live` (the locked `LiveGame`, already marked finished, not yet saved), `game` (the engine
`Game`: `winners` in game seats, `totals`), `now` and `move` (the `LiveMove` that ended it, not yet saved).

Sent inside the move's transaction so that the tournament game is finished (and its round and bracket
move on) atomically with the move that ended it. A receiver may replace `live.game` with a fresher copy of
the same tournament game (the table's snapshot then shows the game as the tournament now has it).
"""

first_own_moves = Signal()
"""Seats' first moves made by their players themselves (not the turn timer or a takeover bot) in live games.

Argument: `moves`, a list of (`LiveGame`, its tournament `game` loaded; game seat), each seat once (a batch
reads only the games' links and the tournament games' tables: any other field loads when read). Sent by
`games.services.first_moves` after the moves have committed, once per seat and game (the game row's
`seats_moved` says which move was the first; a seat given to another player is announced again at their
first own move): the game row's lock is not held for it, a refused (rolled back) move announces nothing,
and a one-statement move is acknowledged and broadcast before it is sent. The one-statement moves' seats
are announced in batches (every first move stored within a quarter of a second of the batch's first and
while the previous batch was being announced: when 500 tables start at once, a receiver does its work once
per batch, not once per seat); a move through the ORM path announces its seat alone. Sent with `send_robust`: a receiver that raises is logged. The
tournament's participation rule counts a player's own moves, so the first one can turn a "no-show" into a
player who took part before any hand is scored.
"""

sweep = Signal()
"""The sweeper is about to act on due games (every tick of `games.services.timers.sweep_once`).

Arguments: `now`. Sent outside any transaction, before the due games are swept, so that a receiver's
periodic work (a tournament round's time limit) runs in the processes that run the timers without `games`
knowing of it. Sent with `send_robust`: a receiver that raises is logged and the timers go on. A receiver
keeps its work cheap (one indexed query when there is nothing to do): it runs about twice a second.
"""

practice_started = Signal()
"""A practice game was started (`games.services.lifecycle.start_practice_game`). Argument: `live_game`.
Sent inside the transaction that stores it; a receiver that tells someone does so after the commit (the
bots' stream: a practice table for the owner's bot is ready)."""

turn_timed_out = Signal()
"""The turn timer played for a player's seat whose time ran out (`games.services.timers`): their clock runs
while they are away from the table. Arguments: `live` (the locked `LiveGame`), `seat` (the game seat) and
`user_id` (the seat's player). Sent inside the sweeper's transaction; a receiver that tells the player does
so after the commit, and decides itself whether the player is away and whether they were told already."""

latest_announcement = Signal()
"""Asked when a socket opens at a table that has an `announce_group`: a receiver answers with the latest
announcement to show there, as the message the group would carry (``{"type": "announcement", "id", "text",
"at", "ends_at", "ended"}``: `ANNOUNCEMENT_FIELDS`), or None. Argument: `live_id`. Sent in the socket's
database call (`send`, not robust: a failing receiver is a bug to see)."""

ANNOUNCEMENT_FIELDS = ("id", "text", "at", "ends_at", "ended")
"""The fields of an announcement message (the group's, and `latest_announcement`'s answer) that every socket
showing announcements forwards to its page as they are: which one (`id`), its text, when it was made, when
it stops showing by itself (ISO time or None) and whether it is over (`ended`: the page drops it)."""


def announcement_frame(message: dict) -> dict:
    """The frame a socket sends for an announcement message of the event's group (docs/protocol.md)."""
    return {"type": "announcement", **{name: message.get(name) for name in ANNOUNCEMENT_FIELDS}}
