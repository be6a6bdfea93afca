"""The public bracket page of a round: stages drawn as a grid of tables with seeds, players, live scores,
who went on and who was eliminated. The diagram is a fragment of its own (``bracket_fragment``) that the
page's script fetches again when the event's websocket says scores changed, or every few seconds when no
websocket is open. A fixed number of queries, whatever the size of the bracket."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import Http404
from django.shortcuts import render

from tournament.brackets import GAME_FORMATS
from tournament.models import Round
from tournament.services.brackets import BracketState, load_bracket, stage_advancers
from tournament.views.public import get_public_event

POLL_SECONDS = 5


@dataclass
class Diagram:
    state: BracketState
    champion: object
    columns: list[dict]


def _diagram(round_: Round) -> Diagram:
    state = load_bracket(round_)
    champion = None
    columns = []
    for stage_state in state.stages:
        advancers = stage_advancers(state, stage_state)
        stage = stage_state.stage
        if stage.is_final and advancers and advancers[0]:
            champion = state.players.get(advancers[0][0])
        tables = []
        for table in stage_state.tables:
            tables.append({"state": table, "schedule": table.schedule})  # a partner rotation's blocks
        placeholders = range(1, stage.planned_tables + 1) if not stage_state.tables else range(0)
        columns.append({"stage": stage, "status": stage_state.status, "byes": stage_state.byes,
                        "tables": tables, "placeholders": placeholders,
                        "format": GAME_FORMATS.get(stage.game_format, stage.game_format)})
    return Diagram(state, champion, columns)


def _bracket_round(slug: str, number: int):
    event = get_public_event(slug)
    round_ = Round.objects.filter(event=event, number=number, kind=Round.Kind.BRACKET).first()
    if round_ is None:
        raise Http404("This round is not a bracket.")
    round_.event = event
    return event, round_


def bracket(request, slug: str, number: int):
    event, round_ = _bracket_round(slug, number)
    projector = request.GET.get("projector") == "1"
    return render(request, "tournament/bracket.html", {
        "event": event, "round": round_, "diagram": _diagram(round_), "projector": projector,
        "poll_seconds": POLL_SECONDS,
    })


def bracket_fragment(request, slug: str, number: int):
    event, round_ = _bracket_round(slug, number)
    return render(request, "tournament/_bracket.html", {"event": event, "round": round_,
                                                        "diagram": _diagram(round_)})
