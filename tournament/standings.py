"""Leaderboards: who leads an event (or one of its rounds), and why.

Two halves, as with the seating and bracket code:

- ``rank_standings(rows)`` is the pure ranking over plain ``StandingRow`` values (no database), so the
  tiebreak order is tested on its own;
- ``compute_standings(event, round=None)`` loads those rows with a fixed number of aggregate queries
  (three, whatever the number of players) and ranks them.

Tiebreak order (also shown on the leaderboard page, see ``TIEBREAK_ORDER``):

1. most points won (cumulative, summed over every recorded hand),
2. most games won,
3. most hands won,
4. fewest points left in hand (summed over every recorded hand),
5. display name (alphabetical, case-insensitive) — for the order of the listing only.

Players equal on 1–4 share a rank (standard competition ranking: 1, 2, 2, 4).

This is the order by points. The places every page shows are ``tournament.services.final_places``: this
order until the event has a bracket, the bracket's once it has one.

Before all of these comes participation (``tournament.services.participation``): everyone who took part
(by their own moves, or a hand an organizer recorded by hand) ranks above every no-show (seated, but only
the turn timer or a bot played for them), who rank above registrants never seated. Points a bot scored for
a no-show still order the no-shows among themselves.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from django.db.models import Count, F, Q, Sum

from tournament.models import Event, Game, HandScore, Player, Round
from tournament.services import participation
from tournament.services.participation import PARTICIPATION_LABELS, PARTICIPATION_ORDER

TIEBREAK_ORDER = (
    "most points won",
    "most games won",
    "most hands won",
    "fewest points left in hand",
)


@dataclass(frozen=True)
class StandingRow:
    """One player's line on a leaderboard. Public data only: no roll number, no e-mail."""

    player_id: int
    display_name: str
    points_won: int = 0
    games_won: int = 0
    hands_won: int = 0
    points_left: int = 0
    status: str = "registered"
    rank: int = 0
    participation: str = "played"  # "played", "no_show" or "not_seated" (tournament.services.participation)
    place: str = ""  # the final place as shown ("3", "5-6"), set by tournament.services.final_places
    bracket: str = ""  # in the bracket: "champion", "in" (still in it) or "out" (final_places); else ""

    def tiebreak_key(self) -> tuple[int, int, int, int, int]:
        """The values that decide the rank; equal keys share a rank. Participation comes first."""
        return (PARTICIPATION_ORDER.get(self.participation, 0), -self.points_won, -self.games_won,
                -self.hands_won, self.points_left)

    @property
    def participation_label(self) -> str:
        """The mark a leaderboard shows after the name: "no-show", "not seated" or nothing."""
        return PARTICIPATION_LABELS.get(self.participation, "")

    @property
    def place_label(self) -> str:
        """The place as a leaderboard shows it: shared places read "5-6"; the rank until one is set."""
        return self.place or str(self.rank)

    def as_public_dict(self) -> dict:
        return {
            "player_id": self.player_id,
            "rank": self.rank,
            "place": self.place_label,
            "display_name": self.display_name,
            "points_won": self.points_won,
            "games_won": self.games_won,
            "hands_won": self.hands_won,
            "points_left": self.points_left,
            "status": self.status,
            "participation": self.participation,
            "participation_label": self.participation_label,
        }


def rank_standings(rows: Iterable[StandingRow]) -> list[StandingRow]:
    """Sort rows by the tiebreak order and give each its rank (shared when 1–4 are all equal)."""
    ordered = sorted(rows, key=lambda row: (*row.tiebreak_key(), row.display_name.casefold(), row.player_id))
    ranked: list[StandingRow] = []
    previous_key = None
    rank = 0
    for position, row in enumerate(ordered, start=1):
        key = row.tiebreak_key()
        if key != previous_key:
            rank = position
            previous_key = key
        ranked.append(replace(row, rank=rank))
    return ranked


def compute_standings(event: Event, round: Round | None = None) -> list[StandingRow]:
    """The ranked leaderboard of ``event``, or of one of its rounds when ``round`` is given.

    Tiebreak order: most points won, then most games won, then most hands won, then fewest points left
    in hand; players equal on all four share a rank and are listed by display name.

    Participation ranks first (see the module's docstring): a row's ``participation`` says whether the
    player took part in the scope, was a no-show there, or was never seated there.

    Who is listed: for the event, every player still in it (registered or checked in) and everyone who
    held a seat in any of its rounds (so a player who withdrew after playing keeps their line); for a
    round, every player seated in that round. Bots are never listed.

    Always three queries (players with who took part, hand aggregates, games won), however many players
    there are: the sums, counts and participation are computed by the database.
    """
    scope = {"event_id": event.pk} if round is None else {"round_": round}
    players = Player.objects.filter(event=event).annotate(
        was_seated=participation.as_flag(participation.seated(**scope)),
        took_part=participation.as_flag(participation.took_part(**scope)))
    if round is None:
        players = players.filter(Q(status__in=[Player.Status.REGISTERED, Player.Status.CHECKED_IN]) | Q(was_seated=True))
    else:
        players = players.filter(was_seated=True)
    player_rows = list(players.values_list("pk", "display_name", "status", "was_seated", "took_part"))

    score_scope = (
        Q(seat__table__round__event=event, seat__player__isnull=False)
        if round is None
        else Q(seat__table__round=round, seat__player__isnull=False)
    )
    hand_totals = {
        row["seat__player"]: row
        for row in HandScore.objects.filter(score_scope)
        .values("seat__player")
        .annotate(
            points_won=Sum("points_won"),
            points_left=Sum("points_left"),
            hands_won=Count("pk", filter=Q(hand__winner=F("seat"))),
        )
        .order_by()
    }

    game_scope = (
        Q(table__round__event=event, winner__player__isnull=False)
        if round is None
        else Q(table__round=round, winner__player__isnull=False)
    )
    games_won = dict(
        Game.objects.filter(game_scope)
        .values("winner__player")
        .annotate(won=Count("pk"))
        .order_by()
        .values_list("winner__player", "won")
    )

    rows = []
    for player_id, display_name, status, was_seated, took in player_rows:
        totals = hand_totals.get(player_id, {})
        rows.append(
            StandingRow(
                player_id=player_id,
                display_name=display_name,
                points_won=totals.get("points_won") or 0,
                games_won=games_won.get(player_id, 0),
                hands_won=totals.get("hands_won") or 0,
                points_left=totals.get("points_left") or 0,
                status=status,
                participation=participation.participation_of(took, was_seated),
            )
        )
    return rank_standings(rows)
