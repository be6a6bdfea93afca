"""The event's live tables to watch, with how many watch each (``/events/<slug>/watch/``).

The page and its fragment (``watch/list/``, which the page re-fetches every few seconds) list the games in
play (running or paused), each with its table's players, the hands played so far and its number of
watchers: open spectator sockets, counted by the games app (`games.services.watchers`) and shared by all
workers. Three queries however many tables: the games, their seats, the watcher counts.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db.models import Count, F, Prefetch
from django.shortcuts import render

from games.services.watchers import watcher_counts
from tournament.models import Game, Seat
from tournament.views.public import get_public_event

POLL_SECONDS = 10  # how often the page re-fetches its list (setting WATCH_LIST_POLL_SECONDS)


@dataclass
class LiveTable:
    game: Game
    seats: list[Seat]
    hands: int
    watchers: int


def live_tables(event) -> list[LiveTable]:
    games = list(
        Game.objects.filter(table__round__event=event, status__in=[Game.Status.RUNNING, Game.Status.PAUSED])
        .select_related("table__round")
        .prefetch_related(Prefetch("table__seats", queryset=Seat.objects.select_related("player").order_by("number")))
        .annotate(hands_played=Count("hands"), live_id=F("live__id"))
        .order_by("table__round__number", "table__stage", "table__number", "number")
    )
    counts = watcher_counts(game.live_id for game in games if game.live_id is not None)
    return [LiveTable(game, list(game.table.seats.all()), game.hands_played, counts.get(game.live_id, 0))
            for game in games]


def watch_list(request, slug: str):
    event = get_public_event(slug)
    return render(request, "tournament/watch.html",
                  {"event": event, "tables": live_tables(event),
                   "poll_seconds": getattr(settings, "WATCH_LIST_POLL_SECONDS", POLL_SECONDS)})


def watch_list_fragment(request, slug: str):
    event = get_public_event(slug)
    return render(request, "tournament/_watch_list.html", {"event": event, "tables": live_tables(event)})
