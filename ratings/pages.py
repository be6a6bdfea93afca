"""What the ratings pages show, read from the rating rows: a family's ladder and a player's history.
Kept apart from the views (thin) so the leaderboard's rating column can use the same lookups."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import F

from ratings.models import Competitor, RatingChange
from tournament.charts import Series, cumulative_chart_svg
from tournament.models import Player

LADDER_SIZE = 200  # rows per ladder table (people, bots)


def ladder(family: str, kind_group: str) -> list[Competitor]:
    """A family's ladder of people ('people') or of bots ('bots': students' bots and house bots), best
    conservative rating (`mu - 3 sigma`) first; ties by id so the order never flickers."""
    kinds = [Competitor.Kind.PERSON] if kind_group == "people" else [Competitor.Kind.BOT, Competitor.Kind.HOUSE_BOT]
    return list(Competitor.objects.filter(family=family, kind__in=kinds).select_related("user")
                .order_by((F("mu") - 3 * F("sigma")).desc(), "pk")[:LADDER_SIZE])


@dataclass
class PlayerHistory:
    user: object
    name: str
    competitors: list[Competitor]
    changes: list[RatingChange]
    events: list[Player]
    charts: list[tuple[Competitor, str]]


def player_history(user_id: int) -> PlayerHistory | None:
    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None:
        return None
    competitors = list(Competitor.objects.filter(user=user).select_related("user").order_by("family", "kind"))
    changes = list(RatingChange.objects.filter(competitor__in=competitors)
                   .select_related("competitor__user", "live_game")
                   .defer("live_game__checkpoint", "live_game__shuffles")
                   .order_by("-ended_at", "-live_game_id"))
    events = list(Player.objects.filter(user=user).select_related("event").order_by("-pk"))
    charts = []
    for competitor in competitors:
        values = [0.0] + [c.ordinal for c in reversed(changes) if c.competitor_id == competitor.pk]
        svg = cumulative_chart_svg([Series(competitor.name, [round(v, 2) for v in values], emphasis=True)],
                                   f"{competitor.name}: {competitor.family.upper()} rating", x_label="Game",
                                   y_label="Rating (mu - 3 sigma)", chart_id=f"rating-{competitor.pk}")
        charts.append((competitor, svg))
    name = user.get_full_name() or user.get_username()
    return PlayerHistory(user, name, competitors, changes, events, charts)


def ratings_of_players(player_ids: list[int], family: str) -> list[tuple[int, float, float]]:
    """(player id, mu, sigma) of the tournament players `player_ids` rated as people in `family` (one
    query): the leaderboard's rating column."""
    return list(Competitor.objects.filter(family=family, kind=Competitor.Kind.PERSON,
                                          user__players__pk__in=player_ids)
                .values_list("user__players__pk", "mu", "sigma"))
