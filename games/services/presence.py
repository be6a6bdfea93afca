"""Which seats of a table have a player's socket open (the "away" hint on the table)."""

from __future__ import annotations

from games.models import LiveConnection


def connected_seats(live_game_id: int) -> list[int]:
    return sorted(set(LiveConnection.objects.filter(live_game_id=live_game_id).values_list("seat", flat=True)))


def socket_opened(live_game_id: int, seat: int, channel_name: str) -> list[int]:
    LiveConnection.objects.update_or_create(channel_name=channel_name,
                                            defaults={"live_game_id": live_game_id, "seat": seat})
    return connected_seats(live_game_id)


def socket_closed(live_game_id: int, channel_name: str) -> tuple[bool, list[int]]:
    """(whether this socket was a player's, the seats still connected)."""
    deleted, _ = LiveConnection.objects.filter(channel_name=channel_name).delete()
    return bool(deleted), connected_seats(live_game_id) if deleted else []
