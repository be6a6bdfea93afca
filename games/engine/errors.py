"""The engine's error types.

Two families, as in Tabbycat's draw generators: `RuleError` is for an organizer to read and fix (a rule
set that makes no sense), `IllegalAction` is for a player (an action the rules do not allow now).
"""


class EngineError(Exception):
    """Base of every error the engine raises on purpose."""


class RuleError(EngineError, ValueError):
    """A rule set, preset name or hand setup that cannot be played; the message is for an organizer."""


class IllegalAction(EngineError):
    """An action the rules do not allow now; the message is for the player. The state is unchanged."""


class MalformedAction(EngineError, ValueError):
    """An action dict (e.g. client JSON) that does not describe any action."""
