"""Who took part in a round (or an event): the rule the next round and the leaderboards are decided by.

A player took part only

- through a move they made themselves at a table of the round: a ``games.models.LiveMove`` whose actor is
  "player", at the game seat of one of the player's seats; or
- through a hand an organizer recorded by hand (``Hand.source`` "manual") with a score row for one of the
  player's seats, at a seat where the live table never had the turn timer or the takeover bot play for
  them (a table played on paper) and the organizer did not say "did not play" (``Seat.organizer_says``); or
- because the organizer said, with a reason (audited, ``services.seat_attendance``), that they played.

Hands the turn timer or the takeover bot played for an absent student do not count, however many of them
were scored, nor does a hand recorded by hand at such a seat: a seated player with none of the above is a
**no-show**. A registrant never seated in the scope is **not seated**.

This holds per seat (``took_part_seats``): a bracket ranks each table's players who took part there above
its no-shows (``services.bracket_view.table_results``).

A live move's ``seat`` is a *game* seat. A partner rotation's game plays some of the table's seats in the
order of ``Game.seat_order`` (game seat ``i`` is table seat ``seat_order[i]``); any other game plays every
seat of the table in seat order, and tables are seated with numbers 0, 1, 2... so game seat ``i`` is table
seat ``i``.

A student's first own move at a table moves the event's scores version (``on_first_own_moves``), as a
scored hand does: cached leaderboards mark participation as of their version, and without it a student
who has started playing would stay marked "no-show" until the hand ends (or the organizer ends the game
or round). It costs at most one version per seat and game (first moves stored together are announced in
one batch, one version per event), next to one per hand scored; later moves cost nothing
(``games.services.first_moves``).

Everything here is set-based SQL (``took_part``), evaluated by the database for all players at once:
the leaderboards add it to the query that lists the players (no extra query), the services ask for a
whole round's set in one query. ``bench/participation.py`` prints what it costs.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import BooleanField, ExpressionWrapper, F, Func, IntegerField, Q, QuerySet
from django.db.models.functions import Coalesce, Lower

from games.models import LiveMove
from tournament.models import Attendance, Hand, Player, Round, Seat, Table
from tournament.page_notices import notify_event_scores_changed

PLAYED = "played"
NO_SHOW = "no_show"
NOT_SEATED = "not_seated"
# A leaderboard ranks everyone who played, then the no-shows, then those never seated, and marks the
# last two (PARTICIPATION_ORDER and PARTICIPATION_LABELS; the standings rank by them).
PARTICIPATION_ORDER = {PLAYED: 0, NO_SHOW: 1, NOT_SEATED: 2}
PARTICIPATION_LABELS = {PLAYED: "", NO_SHOW: "no-show", NOT_SEATED: "not seated"}

__all__ = ["PLAYED", "NO_SHOW", "NOT_SEATED", "took_part", "took_part_seats", "seats_who_took_part",
           "live_attendance", "seated", "players_who_took_part", "as_flag", "participation_of", "NoShow",
           "RoundParticipation", "round_participation"]


class _ArrayItem(Func):
    """``json_array[index]`` as an integer, NULL when the array is shorter (or empty)."""

    output_field = IntegerField()
    arity = 2

    def as_sql(self, compiler, connection, **extra):  # SQLite, and other backends with json_extract
        array, index = (compiler.compile(e) for e in self.get_source_expressions())
        return f"json_extract({array[0]}, '$[' || {index[0]} || ']')", [*array[1], *index[1]]

    def as_postgresql(self, compiler, connection, **extra):
        array, index = (compiler.compile(e) for e in self.get_source_expressions())
        return f"(({array[0]}) ->> ({index[0]})::integer)::integer", [*array[1], *index[1]]


def _seat_scope(event_id=None, round_=None) -> Q:
    return Q(table__round=round_) if round_ is not None else Q(table__round__event_id=event_id)


STAND_INS = (LiveMove.Actor.TIMER, LiveMove.Actor.BOT)


def _moved_seats(scope: Q, actors) -> QuerySet:
    """Seats in ``scope`` with a move by one of ``actors`` at their tables' games: a plain join of the seats
    with their tables' games' moves (a game seat mapped to its table seat), so the database reads the
    round's moves once instead of once per player."""
    moves = "table__games__live__moves__"
    game_seat = F(f"{moves}seat")
    table_seat = Coalesce(_ArrayItem(F("table__games__seat_order"), game_seat), game_seat, output_field=IntegerField())
    return (Seat.objects.filter(scope, player__isnull=False, **{f"{moves}actor__in": actors})
            .annotate(played_seat=table_seat).filter(played_seat=F("number")))


def took_part_seats(scope: Q) -> QuerySet:
    """Ids of the player seats in ``scope`` (a ``Seat`` filter) whose player took part there (the module's
    rule): one subquery per kind of evidence, each run once for all seats."""
    own = _moved_seats(scope, [LiveMove.Actor.PLAYER]).values("pk")
    stood_in = _moved_seats(scope, STAND_INS).values("pk")
    on_paper = (Seat.objects.filter(scope, hand_scores__hand__source=Hand.Source.MANUAL)
                .exclude(pk__in=stood_in).exclude(organizer_says=Attendance.DID_NOT_PLAY).values("pk"))
    return (Seat.objects.filter(scope, player__isnull=False)
            .filter(Q(pk__in=own) | Q(pk__in=on_paper) | Q(organizer_says=Attendance.PLAYED)).values("pk"))


def seats_who_took_part(round_: Round) -> set[int]:
    """The ids of ``round_``'s seats whose player took part at that seat (one query)."""
    return set(Seat.objects.filter(pk__in=took_part_seats(Q(table__round=round_))).values_list("pk", flat=True))


LIVE_PLAYED, LIVE_STOOD_IN, LIVE_NONE = "played", "stood_in", ""


def live_attendance(table_id: int) -> dict[int, str]:
    """What the live table says of each player seat: ``LIVE_PLAYED`` (own moves), ``LIVE_STOOD_IN`` (only the
    turn timer or the takeover bot played for it), ``LIVE_NONE`` (nothing played there live). Two queries."""
    scope = Q(table_id=table_id)
    own = set(_moved_seats(scope, [LiveMove.Actor.PLAYER]).values_list("pk", flat=True))
    stood_in = set(_moved_seats(scope, STAND_INS).values_list("pk", flat=True))
    seats = Seat.objects.filter(scope, player__isnull=False).values_list("pk", flat=True)
    return {pk: LIVE_PLAYED if pk in own else LIVE_STOOD_IN if pk in stood_in else LIVE_NONE for pk in seats}


def seated(event_id: int | None = None, round_: Round | None = None) -> Q:
    """For a ``Player`` query: the player held a seat in the round (or in any round of the event)."""
    return Q(pk__in=Seat.objects.filter(_seat_scope(event_id, round_), player__isnull=False).values("player_id"))


def took_part(event_id: int | None = None, round_: Round | None = None) -> Q:
    """For a ``Player`` query: the player took part in the round (or in any round of the event), at one of
    their seats there (see the module's docstring). One subquery the database runs once for all players
    (``IN``), never once per player."""
    scope = _seat_scope(event_id, round_)
    return Q(pk__in=Seat.objects.filter(pk__in=took_part_seats(scope)).values("player_id"))


def as_flag(condition: Q) -> ExpressionWrapper:
    """``seated(...)`` or ``took_part(...)`` as a true/false column of a ``Player`` query."""
    return ExpressionWrapper(condition, output_field=BooleanField())


def players_who_took_part(round_: Round) -> set[int]:
    """The ids of the players who took part in ``round_`` (one query, whatever the number of players)."""
    return set(Player.objects.filter(event_id=round_.event_id).filter(took_part(round_=round_))
               .values_list("pk", flat=True))


def participation_of(took: bool, was_seated: bool) -> str:
    """``PLAYED``, ``NO_SHOW`` or ``NOT_SEATED``."""
    if took:
        return PLAYED
    return NO_SHOW if was_seated else NOT_SEATED


@dataclass(frozen=True)
class NoShow:
    player_id: int
    display_name: str
    status: str


@dataclass(frozen=True)
class RoundParticipation:
    """A round's count of players who took part, and its no-shows by name."""

    played: int
    no_shows: list[NoShow]


def round_participation(round_: Round) -> RoundParticipation:
    """Who took part in ``round_`` and who was a no-show there, in one query."""
    rows = (Player.objects.filter(seated(round_=round_)).annotate(took=as_flag(took_part(round_=round_)))
            .order_by(Lower("display_name"), "pk").values_list("pk", "display_name", "status", "took"))
    played = 0
    no_shows = []
    for pk, name, status, took in rows:
        if took:
            played += 1
        else:
            no_shows.append(NoShow(pk, name, status))
    return RoundParticipation(played, no_shows)


def on_first_own_moves(sender, moves, **kwargs) -> None:
    """Students' first own moves at tournament tables (sent after the moves committed, in batches): the
    leaderboards of their events are rebuilt, their participation may have changed, and their live
    leaderboards are told; once per event and batch."""
    tables = {live.game.table_id for live, _seat in moves if live.game_id is not None}
    if not tables:
        return
    events = Table.objects.filter(pk__in=tables).values_list("round__event_id", flat=True).distinct()
    for event_id in sorted(events):
        notify_event_scores_changed(event_id)
