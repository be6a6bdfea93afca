"""The public results page of an event: the podium and every player's place
(``tournament.services.final_places``, through the standings cached per scores version).

The same for every reader (``tournament.public_pages``): kept per event and scores version, conditional
GETs answered ``304``. "My event", the bracket and the control room link here; the organizer's
certificates and results sheet carry the same places (``tournament.views.certificates``).
"""

from __future__ import annotations

from django.http import Http404, HttpResponse

from tournament.public_pages import cached_page, event_and_version, public_page, render_public
from tournament.services import final_places
from tournament.services.participation import PLAYED
from tournament.services.results_sheet import ready
from tournament.standings_cache import standings

PODIUM_PLACES = 3


def podium(rows) -> list:
    """The rows placed in the first three places (more when a place is shared)."""
    return [row for row in rows if row.rank <= PODIUM_PLACES and row.participation == PLAYED]


@public_page
def results(request, slug: str):
    event, version = event_and_version(request, slug)
    if event is None:
        raise Http404("No such event.")

    def build() -> str:
        rows = standings(event, version)
        bracket = final_places.bracket_round_of(event)
        decided = ready(event)
        return render_public("tournament/results.html", {
            "event": event, "rows": rows, "bracket": bracket, "decided": decided,
            "podium": podium(rows) if decided else []}, request)

    return HttpResponse(cached_page("results-page", version, (), build))
