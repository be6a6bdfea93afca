"""Display names are unique within an event, ignoring case, so two students at a table can be told apart.

The database enforces it (``unique_display_name_per_event``); these checks give the refusal in words.
"""

from __future__ import annotations

from tournament.models import Event, Player


def normalized(display_name: str) -> str:
    """The name as stored: inner runs of spaces collapsed, ends trimmed."""
    return " ".join((display_name or "").split())


def display_name_taken(event: Event, display_name: str, except_player: Player | None = None) -> bool:
    taken = Player.objects.filter(event=event, display_name__iexact=normalized(display_name))
    if except_player is not None:
        taken = taken.exclude(pk=except_player.pk)
    return taken.exists()


def taken_message(event: Event, display_name: str) -> str:
    name = normalized(display_name)
    return (
        f'Someone in {event.name} already shows as "{name}". Add an initial or a surname to tell you '
        f'apart, e.g. "{name} K."'
    )
