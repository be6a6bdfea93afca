"""What an event's certificates and results sheet say (``tournament.results_pdf`` draws them): read only.

- A certificate goes to every player who took part (no-shows and registrants never seated get none).
  It names their place when the event's places rank them by their play in it: every participant of an
  event without a bracket, and the bracket's players once there is one; round one's players outside the
  bracket are certified as participants.
- The results sheet lists every place (``tournament.services.final_places``) and the bracket, stage by
  stage and table by table, with each player's points there and who went on.

Certificates are ready once the places are final (``ready``): the event finished, or its bracket's final
decided.
"""

from __future__ import annotations

from django.utils import timezone
from django.utils.formats import date_format

from tournament.models import Event, Player, Round
from tournament.results_pdf import Certificate, PlaceLine, ResultsDocument, StageLines, TableLines
from tournament.services import final_places
from tournament.services.bracket_view import load_bracket
from tournament.services.participation import PLAYED, took_part
from tournament.services.stage_results import stage_advancers
from tournament.standings import StandingRow


def ready(event: Event) -> bool:
    """Whether the places are final: the event is finished, or its bracket has its champion."""
    if event.status == Event.Status.FINISHED:
        return True
    bracket = final_places.bracket_round_of(event)
    return bracket is not None and bracket.status == Round.Status.FINISHED


def has_certificate(event: Event, player: Player | None) -> bool:
    """Whether ``player`` can download their certificate now: the places are final and they took part."""
    return (player is not None and ready(event)
            and Player.objects.filter(pk=player.pk).filter(took_part(event_id=event.pk)).exists())


def _date(event: Event) -> str:
    """The day the event was played: when its last round started (today while none has)."""
    started = (Round.objects.filter(event=event, started_at__isnull=False).order_by("-number")
               .values_list("started_at", flat=True).first())
    day = timezone.localdate(started) if started else timezone.localdate()
    return date_format(day, "j F Y")


def certificate_of(row: StandingRow, has_bracket: bool) -> Certificate:
    placed = row.bracket != "" or not has_bracket
    return Certificate(row.display_name, row.place_label if placed else "")


def _mark(row: StandingRow) -> str:
    """What the sheet adds after a name: no-show, not seated, withdrawn or disqualified."""
    return row.participation_label or (row.status if row.status in ("withdrawn", "disqualified") else "")


def _stages(bracket: Round) -> list[StageLines]:
    state = load_bracket(bracket)
    stages = []
    for stage_state in state.stages:
        stage_advancers(state, stage_state)  # marks who went on
        tables = [TableLines(f"Table {t.table.number}",
                             [(state.players[s.seat.player_id].display_name if s.seat.player_id in state.players
                               else "(bot)", s.total, s.advanced) for s in t.seats])
                  for t in stage_state.tables]
        title = "Final" if stage_state.stage.is_final else f"Stage {stage_state.stage.number}"
        stages.append(StageLines(title, tables))
    return stages


def results_document(event: Event, player_id: int | None = None) -> ResultsDocument:
    """Every participant's certificate and the results sheet; with ``player_id``, that player's
    certificate alone (none when they did not take part)."""
    rows = final_places.event_places(event)
    bracket = final_places.bracket_round_of(event)
    certified = [row for row in rows if row.participation == PLAYED
                 and (player_id is None or row.player_id == player_id)]
    document = ResultsDocument(event.name, _date(event),
                               [certificate_of(row, bracket is not None) for row in certified])
    if player_id is None:
        document.places = [PlaceLine(row.place_label, row.display_name, row.points_won, _mark(row)) for row in rows]
        document.stages = _stages(bracket) if bracket is not None else []
    return document
