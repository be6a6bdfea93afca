"""The tournament listens to the live tables: receivers of `games.signals`, connected by
`TournamentConfig.ready()`. `games` announces what happened and never imports `tournament`; the work is
done by `tournament.services.live_results`, inside the move's transaction the signals are sent in.
Also: an event saved (its check-in opened, its status changed, in the admin) tells its students' "My
event" pages; a player saved with a new status or name tells their live tables.
"""

from __future__ import annotations

from datetime import datetime

from django.db.models.signals import post_save

from games import engine, signals
from games.models import LiveGame, LiveMove
from tournament import signals as tournament_signals
from tournament.models import Event, Player
from tournament.page_notices import notify_my_event_changed
from tournament.services import (
    announcements,
    bot_stream_nudges,
    live_results,
    live_tables,
    participation,
    time_limits,
)

# A player's fields that decide who may act at a live table and the name its seat shows.
HOLDER_FIELDS = frozenset({"status", "display_name", "user"})


def hand_scored(sender, *, live: LiveGame, result: engine.HandResult, started_at: datetime | None,
                ended_at: datetime, move: LiveMove | None = None, **kwargs) -> None:
    """A hand of a tournament game's live table is over: its `Hand` rows (practice and exhibition games
    keep no scores)."""
    if live.kind == LiveGame.Kind.TOURNAMENT:
        live_results.record_live_hand(live, result, started_at, ended_at, move)
        if live.status == LiveGame.Status.RUNNING:  # not ended already (a rotation block's last hand)
            time_limits.end_game_after_hand(live, live.game, ended_at)


def game_finished(sender, *, live: LiveGame, game: engine.Game, now: datetime, move: LiveMove | None = None,
                  **kwargs) -> None:
    """A tournament game reached its target at the live table: it is finished, and its round and bracket
    follow."""
    if live.kind == LiveGame.Kind.TOURNAMENT:
        live_results.finish_live_game(live, game, now, move)


def event_saved(sender, *, instance: Event, **kwargs) -> None:
    notify_my_event_changed(instance.pk)


def player_saved(sender, *, instance: Player, created: bool, update_fields=None, **kwargs) -> None:
    """A player withdrawn, disqualified, reinstated or renamed (anywhere: a service, the admin): their live
    tables read the seats afresh before the next move (`live_tables.holders_changed`)."""
    if created or (update_fields is not None and not HOLDER_FIELDS & set(update_fields)):
        return
    live_tables.holders_changed(players=[instance.pk])


def sweep(sender, *, now: datetime, **kwargs) -> None:
    """The sweeper's tick: rounds whose time limit passed finish their games that sit between two hands."""
    time_limits.sweep(now)


def latest_announcement(sender, *, live_id: int, **kwargs) -> dict | None:
    """A socket opens at a table: the latest announcement of its event, to show as a banner."""
    return announcements.as_message(announcements.latest_at_table(live_id))


def connect() -> None:
    """Connect the receivers (once: the dispatch uids make a second call do nothing)."""
    signals.hand_scored.connect(hand_scored, sender=LiveGame, dispatch_uid="tournament.hand_scored")
    signals.game_finished.connect(game_finished, sender=LiveGame, dispatch_uid="tournament.game_finished")
    signals.first_own_moves.connect(participation.on_first_own_moves, sender=LiveGame,
                                    dispatch_uid="tournament.first_own_moves")
    post_save.connect(event_saved, sender=Event, dispatch_uid="tournament.event_saved")
    post_save.connect(player_saved, sender=Player, dispatch_uid="tournament.player_saved")
    signals.sweep.connect(sweep, sender=LiveGame, dispatch_uid="tournament.sweep")
    signals.latest_announcement.connect(latest_announcement, sender=LiveGame,
                                        dispatch_uid="tournament.latest_announcement")
    # The bots' stream: a table may be ready for a user's bot, or an event's check-in opened.
    signals.practice_started.connect(bot_stream_nudges.practice_started, sender=LiveGame,
                                     dispatch_uid="tournament.bot_stream.practice_started")
    tournament_signals.round_started.connect(bot_stream_nudges.round_started, sender=Event,
                                             dispatch_uid="tournament.bot_stream.round_started")
    tournament_signals.stage_started.connect(bot_stream_nudges.stage_started, sender=Event,
                                             dispatch_uid="tournament.bot_stream.stage_started")
    tournament_signals.checkin_opened.connect(bot_stream_nudges.checkin_opened, sender=Event,
                                              dispatch_uid="tournament.bot_stream.checkin_opened")
