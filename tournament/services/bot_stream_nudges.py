"""Nudges to the bots' streams (`tournament.bot_stream`): after a change commits that may have made a
table ready for a user's bot, or opened an event's check-in, each user concerned gets a tiny "look
again" on their group (`bot-stream-<user id>`); the stream then lists their tables itself. Lost nudges
are logged, never raised: a bot that reconnects is told everything ready at once.

Receivers of `tournament.signals` (round and stage started, check-in opened) and of
`games.signals.practice_started`, connected in `tournament.receivers.connect`.
"""

from __future__ import annotations

from config.group_notices import send_after_commit
from tournament.models import Player, Seat

CHANGED = "bot_stream.changed"  # dispatched to BotStreamConsumer.bot_stream_changed


def stream_group(user_id: int) -> str:
    return f"bot-stream-{user_id}"


def nudge_users(user_ids) -> None:
    """Tell these users' streams to look again, once the current transaction commits."""
    ids = sorted({pk for pk in user_ids if pk is not None})
    send_after_commit(((stream_group(pk), {"type": CHANGED}) for pk in ids), what="a bot stream nudge")


def round_started(sender, *, round_, **kwargs) -> None:
    nudge_users(Seat.objects.filter(table__round=round_).values_list("player__user_id", flat=True))


def stage_started(sender, *, round_, number: int, **kwargs) -> None:
    nudge_users(Seat.objects.filter(table__round=round_, table__stage=number)
                .values_list("player__user_id", flat=True))


def checkin_opened(sender, *, event, **kwargs) -> None:
    nudge_users(Player.objects.filter(event=event, status=Player.Status.REGISTERED).values_list("user_id", flat=True))


def practice_started(sender, *, live_game, **kwargs) -> None:
    if live_game.token_moves_only:  # a practice table for the owner's bot
        nudge_users([live_game.owner_id])
