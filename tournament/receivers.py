"""The tournament listens to the live tables: receivers of `games.signals`, connected by
`TournamentConfig.ready()`. `games` announces what happened and never imports `tournament`; the work is
done by `tournament.services.live_results`, inside the move's transaction the signals are sent in.
Also: an event saved (its check-in opened, its status changed, in the admin) tells its students' "My
event" pages.
"""

from __future__ import annotations

from datetime import datetime

from django.db.models.signals import post_save

from games import engine, signals
from games.models import LiveGame
from tournament.models import Event
from tournament.page_notices import notify_my_event_changed
from tournament.services import announcements, live_results, participation, time_limits


def hand_scored(sender, *, live: LiveGame, result: engine.HandResult, started_at: datetime | None,
                ended_at: datetime, **kwargs) -> None:
    """A hand of a tournament game's live table is over: its `Hand` rows (practice and exhibition games
    keep no scores)."""
    if live.kind == LiveGame.Kind.TOURNAMENT:
        live_results.record_live_hand(live, result, started_at, ended_at)
        if live.status == LiveGame.Status.RUNNING:  # not ended already (a rotation block's last hand)
            time_limits.end_game_after_hand(live, live.game, ended_at)


def game_finished(sender, *, live: LiveGame, game: engine.Game, now: datetime, **kwargs) -> None:
    """A tournament game reached its target at the live table: it is finished, and its round and bracket
    follow."""
    if live.kind == LiveGame.Kind.TOURNAMENT:
        live_results.finish_live_game(live, game, now)


def event_saved(sender, *, instance: Event, **kwargs) -> None:
    notify_my_event_changed(instance.pk)


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
    signals.first_own_move.connect(participation.on_first_own_move, sender=LiveGame,
                                   dispatch_uid="tournament.first_own_move")
    post_save.connect(event_saved, sender=Event, dispatch_uid="tournament.event_saved")
    signals.sweep.connect(sweep, sender=LiveGame, dispatch_uid="tournament.sweep")
    signals.latest_announcement.connect(latest_announcement, sender=LiveGame,
                                        dispatch_uid="tournament.latest_announcement")
