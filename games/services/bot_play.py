"""Choosing a bot's move: the bots package (`games.engine.bots`) answers from the seat's view only."""

from __future__ import annotations

import logging

from games import engine
from games.engine.bots import get_bot

logger = logging.getLogger(__name__)

TAKEOVER_BOT = "heuristic"  # plays for a player who missed too many turns


def bot_action(kind: str, hand: engine.HandState, hand_seat: int, seed: int) -> engine.Action | None:
    """The bot's action for `hand_seat`, or None when it has nothing to do (or answered with nonsense)."""
    view = engine.view_for(hand, hand_seat)
    try:
        bot = get_bot(kind or TAKEOVER_BOT, seed)
    except ValueError:
        bot = get_bot(TAKEOVER_BOT, seed)
    answer = bot.act(view)
    if answer is None:
        return None
    try:
        action = answer if isinstance(answer, engine.Action) else engine.action_from_dict(answer)
    except engine.MalformedAction:
        logger.warning("bot %s answered %r, not an action", kind, answer)
        return None
    if action.seat != hand_seat:
        logger.warning("bot %s tried to act for seat %s instead of %s", kind, action.seat, hand_seat)
        return None
    return action
