"""Pages anyone can read without logging in: events, their schedule and tables, scoreboards, leaderboards
and players. Draft events are not public. Every page runs a fixed number of queries, whatever the
number of players, tables or hands (pinned in tests/tournament/test_queries.py)."""

from __future__ import annotations

from django.db.models import Count, Prefetch, Q
from django.http import Http404
from django.shortcuts import get_object_or_404, render

from tournament.models import Event, Player, Round, Seat, Table
from tournament.scores_version import public_event as cached_public_event
from tournament.services.next_step import next_steps_for
from tournament.services.organizers import runs_event
from tournament.services.rotations import table_schedule
from tournament.standings import TIEBREAK_ORDER
from tournament.standings_cache import standings as cached_standings
from tournament.views.leaderboard import leaderboard
from tournament.views.rules_summary import rules_summary
from tournament.views.scoreboard import load_scoreboards

__all__ = ["event_detail", "event_list", "home", "leaderboard", "leaderboards", "player_detail", "table_detail"]


def public_events():
    return Event.objects.exclude(status=Event.Status.DRAFT)


def get_public_event(slug: str) -> Event:
    return get_object_or_404(public_events(), slug=slug)


def home(request):
    """The latest events; for a logged-in student also where to go next in each event they can act in."""
    return render(request, "tournament/home.html",
                  {"events": public_events()[:5], "next_steps": next_steps_for(request.user)})


def event_list(request):
    events = public_events().annotate(
        player_count=Count(
            "players", filter=Q(players__status__in=[Player.Status.REGISTERED, Player.Status.CHECKED_IN])
        )
    )
    return render(request, "tournament/event_list.html", {"events": events})


def leaderboards(request):
    events = public_events().exclude(status=Event.Status.REGISTRATION).prefetch_related(
        Prefetch("rounds", queryset=Round.objects.order_by("number"))
    )
    return render(request, "tournament/leaderboards.html", {"events": events})


def event_detail(request, slug: str):
    event = get_public_event(slug)
    rounds = list(
        Round.objects.filter(event=event)
        .order_by("number")
        .prefetch_related(
            Prefetch(
                "tables",
                queryset=Table.objects.order_by("stage", "number").prefetch_related(
                    Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("number"))
                ),
            )
        )
    )
    player_count = event.players.filter(status__in=[Player.Status.REGISTERED, Player.Status.CHECKED_IN]).count()
    my_player = None
    if request.user.is_authenticated:
        my_player = Player.objects.filter(event=event, user=request.user).first()
    return render(
        request,
        "tournament/event_detail.html",
        {
            "event": event,
            "rounds": rounds,
            "rules": rules_summary(event),
            "player_count": player_count,
            "my_player": my_player,
            "registration_open": event.registration_is_open(),
            "runs_event": request.user.is_authenticated and request.user.is_staff and runs_event(request.user, event),
        },
    )


def table_detail(request, slug: str, table_id: int):
    table = get_object_or_404(
        Table.objects.select_related("round__event").exclude(round__event__status=Event.Status.DRAFT),
        pk=table_id,
        round__event__slug=slug,
    )
    boards = load_scoreboards([table.pk])[table.pk]
    seats = boards[0].seats if boards else list(table.seats.select_related("player").order_by("number"))
    return render(
        request,
        "tournament/table_detail.html",
        {
            "event": table.round.event,
            "table": table,
            "round": table.round,
            "seats": seats,
            "boards": [(board, board.chart()) for board in boards],
            "rotation": table_schedule(table),  # a partner rotation's blocks, or None
        },
    )


def player_detail(request, slug: str, player_id: int):
    event, version = cached_public_event(slug)
    if event is None:
        raise Http404("No such event.")
    player = get_object_or_404(Player.objects.filter(event=event), pk=player_id)
    my_seats = list(
        Seat.objects.filter(player=player).select_related("table__round").order_by("table__round__number")
    )
    boards = load_scoreboards([seat.table_id for seat in my_seats])
    games = []
    for seat in my_seats:
        for board in boards[seat.table_id]:
            games.append((seat, board, board.chart(emphasis_player_id=player.pk)))
    standing = next((row for row in cached_standings(event, version) if row.player_id == player.pk), None)
    return render(
        request,
        "tournament/player_detail.html",
        {"event": event, "player": player, "games": games, "standing": standing, "tiebreaks": TIEBREAK_ORDER},
    )
