"""The rating column of the tournament's leaderboard: `{% load ratings %}` in its template, so that the
tournament's Python never imports this app (the dependency points from ratings to tournament only)."""

from __future__ import annotations

from django import template

from ratings.families import family_of
from ratings.pages import ratings_of_players

register = template.Library()


@register.simple_tag
def event_ratings(event, rows) -> dict[int, str]:
    """Player id -> the player's rating as shown (people's rating in the event's game family), for the
    leaderboard `rows` (one query for a page of rows)."""
    family = family_of(event.rules_preset)
    if family is None or not rows:
        return {}
    found = ratings_of_players([r.player_id for r in rows], family)
    return {player_id: f"{mu - 3 * sigma:.1f}" for player_id, mu, sigma in found}


@register.filter
def rating_of(ratings: dict, player_id) -> str:
    return ratings.get(player_id, "")
