"""The public bracket page of a round: stages drawn as a grid of tables with seeds, players, live scores,
who went on and who was eliminated. The diagram is a fragment of its own (``bracket_fragment``) that the
page's script fetches again when the event's websocket says scores changed, or every few seconds when no
websocket is open. A fixed number of queries, whatever the size of the bracket.

The page and the fragment are the same for every reader (``tournament.public_pages``): the diagram is
cached per event and scores version (``tournament.standings_cache``), the rendered HTML in Django's
cache, and conditional GETs are answered ``304`` while the version holds. A big
bracket (more than ``WHOLE_DIAGRAM_TABLES`` tables) shows one stage at a time, ``TABLES_PER_PAGE`` tables a
page, with every stage's status in a list above it and a search by player name (the current stage first).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from django.http import Http404, HttpResponse
from django.urls import reverse

from tournament.generators.brackets import GAME_FORMATS
from tournament.models import Round
from tournament.public_pages import cached_page, event_and_version, public_page, render_public
from tournament.scores_version import note_size
from tournament.services.bracket_view import BracketState, load_bracket
from tournament.services.stage_results import stage_advancers
from tournament.standings_cache import memo, standings
from tournament.views.results import podium

POLL_SECONDS = 5
WHOLE_DIAGRAM_TABLES = 64
TABLES_PER_PAGE = 32
SEARCH_LIMIT = 50
MAX_QUERY_CHARS = 80
# Query strings of a page's canonical shape: pages for them are looked up in Django's cache before the
# diagram is built, so a worker never builds the diagram of a version another worker has already
# rendered. Anything else is rendered for the request alone.
CANONICAL_SHAPE = re.compile(r"(stage=[1-9]\d{0,5}(&page=[1-9]\d{0,5})?)?(&?projector=1)?")


@dataclass
class Diagram:
    state: BracketState
    champion: object
    columns: list[dict]
    podium: list = field(default_factory=list)  # the event's first places once the champion is known


def _diagram(round_: Round) -> Diagram:
    state = load_bracket(round_)
    note_size(round_.event, len(state.players))
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


def _bracket_round(request, slug: str, number: int):
    event, version = event_and_version(request, slug)
    if event is None:
        raise Http404("No such event.")
    round_ = memo(("bracket-round", version, number), lambda: Round.objects.filter(
        event=event, number=number, kind=Round.Kind.BRACKET).first())
    if round_ is None:
        raise Http404("This round is not a bracket.")
    round_.event = event
    return event, version, round_


@dataclass(frozen=True)
class View:
    """What one request shows: the whole diagram, or (big brackets) one stage's page of tables."""

    stage: int | None = None
    page: int = 1
    projector: bool = False

    def query(self) -> str:
        parts = [f"stage={self.stage}"] if self.stage is not None else []
        if self.page != 1:
            parts.append(f"page={self.page}")
        if self.projector:
            parts.append("projector=1")
        return "&".join(parts)


def _whole_number(raw: str | None, name: str) -> int | None:
    if raw is None or raw == "":
        return None
    if not raw.isdigit() or len(raw) > 6:
        raise Http404(f"{name} must be a whole number.")
    return int(raw)


def _view(request, diagram: Diagram) -> View:
    projector = request.GET.get("projector") == "1"
    if sum(len(c["tables"]) or len(c["placeholders"]) for c in diagram.columns) <= WHOLE_DIAGRAM_TABLES:
        return View(projector=projector)
    numbers = [c["stage"].number for c in diagram.columns]
    stage = _whole_number(request.GET.get("stage"), "stage")
    if stage is None:
        with_tables = [c for c in diagram.columns if c["tables"]]
        playing = [c for c in with_tables if c["status"] != "finished"]
        stage = (playing or with_tables[-1:] or diagram.columns)[0]["stage"].number
    if stage not in numbers:
        raise Http404(f"No stage {stage}: this bracket has stages {numbers[0]} to {numbers[-1]}.")
    column = diagram.columns[numbers.index(stage)]
    pages = max(1, -(-len(column["tables"]) // TABLES_PER_PAGE))
    page = _whole_number(request.GET.get("page"), "page")
    page = 1 if page is None else page
    if not 1 <= page <= pages:
        raise Http404(f"No page {page}: stage {stage} has pages 1 to {pages}.")
    return View(stage, page, projector)


def _shown(diagram: Diagram, view: View) -> dict:
    """The template's context for the diagram part: all of it, or one stage's page and the stage list."""
    if view.stage is None:
        return {"diagram": diagram, "paging": None}
    column = next(c for c in diagram.columns if c["stage"].number == view.stage)
    first = (view.page - 1) * TABLES_PER_PAGE
    pages = max(1, -(-len(column["tables"]) // TABLES_PER_PAGE))
    shown = {**column, "tables": column["tables"][first:first + TABLES_PER_PAGE], "placeholders": range(0),
             "waiting_tables": column["stage"].planned_tables if not column["tables"] else 0}
    links = sorted({1, pages, *range(max(1, view.page - 3), min(pages, view.page + 3) + 1)})
    return {"diagram": replace(diagram, columns=[shown]),
            "paging": {"view": view, "stages": diagram.columns, "page": view.page, "pages": pages,
                       "links": links, "first": first + 1, "last": first + len(shown["tables"]),
                       "count": len(column["tables"])}}


def _diagram_for(version, round_: Round) -> Diagram:
    def build() -> Diagram:
        diagram = _diagram(round_)
        if diagram.champion is not None:
            diagram.podium = podium(standings(round_.event, version))
        return diagram

    return memo(("bracket-diagram", version, round_.pk), build)


def _respond(request, version, round_: Round, kind: str, template: str, context) -> HttpResponse:
    """``template`` rendered with ``context(diagram, view)``, as every reader sees it. Kept per version
    and query string in Django's cache when the query string has a canonical shape (so odd query
    strings cannot fill the cache), and looked up there before the diagram is built."""
    raw = request.META.get("QUERY_STRING", "")

    def render() -> str:
        diagram = _diagram_for(version, round_)
        return render_public(template, context(diagram, _view(request, diagram)), request)

    if CANONICAL_SHAPE.fullmatch(raw):
        return HttpResponse(cached_page(kind, version, (round_.pk, raw), render))
    return HttpResponse(render())


@public_page
def bracket(request, slug: str, number: int):
    event, version, round_ = _bracket_round(request, slug, number)
    query = request.GET.get("q", "").strip()[:MAX_QUERY_CHARS]

    def context(diagram, view):
        fragment = reverse("bracket_fragment", args=[event.slug, round_.number])
        values = {"event": event, "round": round_, "projector": view.projector, "poll_seconds": POLL_SECONDS,
                  "query": query, "fragment_url": f"{fragment}?{view.query()}" if view.query() else fragment,
                  "me_url": f"{reverse('me_json')}?event={event.slug}",
                  **_shown(diagram, view)}
        if query:
            values["matches"], values["match_count"] = _search(version, diagram, query)
        return values

    if query:
        diagram = _diagram_for(version, round_)
        return HttpResponse(render_public("tournament/bracket.html", context(diagram, _view(request, diagram)),
                                          request))
    return _respond(request, version, round_, "bracket-page", "tournament/bracket.html", context)


@public_page
def bracket_fragment(request, slug: str, number: int):
    event, version, round_ = _bracket_round(request, slug, number)
    return _respond(request, version, round_, "bracket-fragment", "tournament/_bracket.html",
                    lambda diagram, view: {"event": event, "round": round_, **_shown(diagram, view)})


def _search(version, diagram: Diagram, query: str) -> tuple[list[dict], int]:
    """Players of the bracket whose name contains ``query``: their seed and the latest table they sit at
    (with the stage and page it is on), up to SEARCH_LIMIT, and how many matched."""
    def index():
        where: dict[int, dict] = {}
        for column in diagram.columns:
            for position, item in enumerate(column["tables"]):
                for seat in item["state"].seats:
                    if seat.seat.player_id:
                        where[seat.seat.player_id] = {"stage": column["stage"], "table": item["state"].table,
                                                      "page": position // TABLES_PER_PAGE + 1, "seat": seat}
        return where

    where = memo(("bracket-search", version, diagram.state.round.pk), index)
    needle = query.casefold()
    found = [{"player": player, "seed": diagram.state.seeds.get(pid), **where.get(pid, {})}
             for pid, player in diagram.state.players.items() if needle in player.display_name.casefold()]
    found.sort(key=lambda m: (m["seed"] or 10**9, m["player"].display_name.casefold()))
    return found[:SEARCH_LIMIT], len(found)
