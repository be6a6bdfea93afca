"""The notifications app listens to the tournament's signals (`tournament.signals`) and the live tables'
(`games.signals.turn_timed_out`); neither app imports this one. Each receiver runs inside the change's
transaction and only queues work for after the commit (`notifications.background`): it reads nothing and
sends nothing there, so a move or a request is never slowed by telling people."""

from __future__ import annotations

from games import signals as game_signals
from games.models import LiveGame
from notifications import notices
from notifications.background import after_commit, per_student
from notifications.delivery import deliver
from tournament import signals
from tournament.models import Event


def _tell(build, *args) -> None:
    """(On the builder thread.) Build the notices, then send each student's on their sender thread."""
    per_student(deliver, build(*args))


def round_started(sender, *, round_, **kwargs) -> None:
    after_commit(_tell, notices.round_started, round_.pk)


def stage_started(sender, *, round_, number: int, **kwargs) -> None:
    after_commit(_tell, notices.stage_started, round_.pk, number)


def field_changed(sender, *, round_, stage: int, **kwargs) -> None:
    after_commit(_tell, notices.field_changed, round_.pk, stage)


def game_status_changed(sender, *, game, action: str, **kwargs) -> None:
    after_commit(_tell, notices.game_status_changed, game.pk, action)


def announced(sender, *, announcement, **kwargs) -> None:
    after_commit(_tell, notices.announced, announcement.pk)


def turn_timed_out(sender, *, live: LiveGame, seat: int, user_id: int, **kwargs) -> None:
    if live.kind == LiveGame.Kind.TOURNAMENT:
        after_commit(_tell, notices.turn_timed_out, live.pk, seat, user_id)


def connect() -> None:
    uid = "notifications"
    signals.round_started.connect(round_started, sender=Event, dispatch_uid=uid)
    signals.stage_started.connect(stage_started, sender=Event, dispatch_uid=uid)
    signals.field_changed.connect(field_changed, sender=Event, dispatch_uid=uid)
    signals.game_status_changed.connect(game_status_changed, sender=Event, dispatch_uid=uid)
    signals.announced.connect(announced, sender=Event, dispatch_uid=uid)
    game_signals.turn_timed_out.connect(turn_timed_out, sender=LiveGame, dispatch_uid=uid)
