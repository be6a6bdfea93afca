"""What the tournament announces to whoever listens (the notifications app tells the students, the ratings
app rates finished games): a round or stage started, the field of a bracket changed (through or out), a game
paused, resumed or ended, an announcement.

The tournament never imports who listens. Each signal is sent with `sender=Event` inside the service's
transaction; a receiver that wants to act only once the change is stored registers `transaction.on_commit`
itself, and keeps its own work cheap there (no I/O inside the transaction).
"""

from __future__ import annotations

from django.dispatch import Signal

round_started = Signal()
"""A round's games started (`rounds.start_round`). Arguments: `round_`."""

stage_started = Signal()
"""A later stage of a bracket round started (`bracket_stages.start_stage`; stage 1 sends `round_started`).
Arguments: `round_`, `number` (the stage)."""

field_changed = Signal()
"""Who goes on changed: a bracket round was created from the standings (`next_round.create_bracket_round`)
or a bracket's next stage was built (`advancing.advance_bracket`). Arguments: `round_` (the bracket round),
`stage` (the stage built: its players are through, the stage before's others are out)."""

game_status_changed = Signal()
"""An organizer paused or resumed a game (`game_status.change_game_status`). Arguments: `game`, `action`
("pause" or "resume")."""

game_ended = Signal()
"""A game was finished, however it ended (`game_end.game_ended`: its target at the live table, a partner
rotation's block, the round's time limit, an organizer finishing it, a hand recorded by hand). Arguments:
`game` (saved finished, its `Hand` and `HandScore` rows stored)."""

checkin_opened = Signal()
"""An organizer opened check-in for the event's next round (`event_status.set_checkin`). Arguments:
`event`."""

announced = Signal()
"""An organizer's announcement was stored (`announcements.announce`). Arguments: `announcement`."""
