"""What a student's "My event" page shows: their next step, registration, check-in, and every table they
have had with its games. Built for the page (`tournament.views.students.my_event`) and again, for the
same user, by the page's socket whenever the event changes (`tournament.my_event_socket`), from the
same template (`tournament/_my_event_live.html`), so the live page and a reload never differ. Only ever
the given user's own registration.
"""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string
from django.urls import reverse

from tournament.models import Event, Game, Player, Seat
from tournament.services.next_step import next_step
from tournament.services.registration import first_round_started
from tournament.services.results_sheet import has_certificate
from tournament.views.scoreboard import load_scoreboards, load_table_seats

LIVE_TEMPLATE = "tournament/_my_event_live.html"


def my_event_context(event: Event, user) -> dict[str, Any]:
    player = Player.objects.filter(event=event, user=user).first()
    step = next_step(event, user, player)
    seats = []
    if player is not None:
        seat_rows = list(
            Seat.objects.filter(player=player)
            .select_related("table__round")
            .order_by("-table__round__number", "-table__stage")
        )
        table_seats = load_table_seats([seat.table_id for seat in seat_rows])
        boards = load_scoreboards(table_seats, table_seats)
        for seat in seat_rows:
            games = boards[seat.table_id]
            at_table = table_seats[seat.table_id]
            position = [s.pk for s in at_table].index(seat.pk)
            seats.append({
                "seat": seat,
                "table": seat.table,
                "round": seat.table.round,
                "tablemates": [s for s in at_table if s.pk != seat.pk],
                "games": [{"board": board, "my_total": board.totals[position]} for board in games],
                **_table_button(event, seat, games, step),
            })
    can_withdraw = bool(player and player.is_active and first_round_started(player) is None)
    return {
        "event": event,
        "player": player,
        "seats": seats,
        "step": step,
        "can_check_in": bool(player and player.status == Player.Status.REGISTERED and event.checkin_open
                             and not player.claim_pending),
        "can_withdraw": can_withdraw and event.status != event.Status.FINISHED,
        "certificate_url": reverse("my_certificate", args=[event.slug]) if has_certificate(event, player) else "",
    }


def _table_button(event: Event, seat: Seat, boards, step) -> dict[str, str]:
    """A seat's one button: "Play now" at its running game, else "Go to my table" (the table's page);
    none when the next step at the top of the page already leads there."""
    live = next((b.game for b in boards if b.game.status in (Game.Status.RUNNING, Game.Status.PAUSED)), None)
    table_url = reverse("table_detail", args=[event.slug, seat.table_id])
    url = reverse("play_tournament_game", args=[live.pk]) if live is not None else table_url
    if step is not None and step.button and step.url in (url, table_url):
        return {"url": table_url, "button": "", "button_url": ""}
    return {"url": table_url, "button": "Play now" if live is not None else "Go to my table", "button_url": url}


def render_live_part(event: Event, user) -> tuple[str, str]:
    """(the page's live part as HTML, the next step's kind), without a request (the socket's; its forms
    get their CSRF token from the page)."""
    context = my_event_context(event, user)
    return render_to_string(LIVE_TEMPLATE, context), context["step"].kind
