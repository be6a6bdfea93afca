"""The public leaderboard of an event (or of one of its rounds): a page of ``PAGE_SIZE`` rows at a time,
top rows first, with a search by name and, for a logged-in player, their own position (filled in by
``static/js/reader.js``).

The page is the same for every reader (``tournament.public_pages``): standings are cached per event and
scores version (``tournament.standings_cache``) and the rendered page in Django's cache, so a stored page
costs no query (one when the version is checked), and a conditional GET is answered ``304``. The
reader's own position comes from ``/me.json`` (``tournament.views.reader``). Works without JavaScript;
``static/js/live_leaderboard.js`` keeps the shown page live.
"""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.template.loader import render_to_string
from django.urls import reverse

from tournament.models import Round
from tournament.public_pages import cached_page, event_and_version, public_page, render_public, stored_page
from tournament.standings import TIEBREAK_ORDER
from tournament.standings_cache import memo, standings

PAGE_SIZE = 100
SEARCH_LIMIT = 50
MAX_QUERY_CHARS = 80
PAGE_WINDOW = 3  # page links shown either side of the current one


def pages_for(count: int) -> int:
    return max(1, -(-count // PAGE_SIZE))


def page_of(index: int) -> int:
    """The page (from 1) of the row at ``index`` (from 0) in the ranked list."""
    return index // PAGE_SIZE + 1


def parse_page(raw: str | None, pages: int) -> int:
    """``?page=`` as a page number; anything else is a 404 that says which pages exist."""
    if raw is None or raw == "":
        return 1
    try:
        number = int(raw)
    except ValueError:
        number = 0
    if not 1 <= number <= pages:
        raise Http404(f"No page {raw[:20]!r}: this leaderboard has pages 1 to {pages}.")
    return number


def page_links(page: int, pages: int) -> list[int | None]:
    """First, last and a window around ``page``; None marks a gap."""
    shown = sorted({1, pages, *range(max(1, page - PAGE_WINDOW), min(pages, page + PAGE_WINDOW) + 1)})
    links: list[int | None] = []
    for number in shown:
        if links and number - links[-1] > 1:
            links.append(None)
        links.append(number)
    return links


@public_page
def leaderboard(request, slug: str, number: int | None = None):
    event, version = event_and_version(request, slug)
    if event is None:
        raise Http404("No such event.")
    query = request.GET.get("q", "").strip()[:MAX_QUERY_CHARS]
    raw_page = request.GET.get("page")
    canonical = raw_page is None or (raw_page.isdigit() and not raw_page.startswith("0"))
    if not query and canonical:
        html = stored_page("leaderboard-page", version, (number, raw_page))
        if html is not None:
            return HttpResponse(html)
    rounds = memo(("rounds", version), lambda: list(Round.objects.filter(event=event).order_by("number")))
    selected = None
    if number is not None:
        selected = next((r for r in rounds if r.number == number), None)
        if selected is None:
            raise Http404("No such round.")
    rows = standings(event, version, selected)
    bracket_round = next((r for r in reversed(rounds) if r.kind == Round.Kind.BRACKET), None)
    pages = pages_for(len(rows))
    page = parse_page(raw_page, pages)
    live = selected is None
    base = reverse("round_leaderboard", args=[event.slug, number]) if selected else reverse("leaderboard", args=[slug])
    player_url = reverse("player_detail", args=[event.slug, 0])  # the live script swaps the 0 for an id
    table_html = memo(("leaderboard-table", version, number, page), lambda: render_to_string(
        "tournament/_leaderboard_table.html",
        {"event": event, "rows": rows[(page - 1) * PAGE_SIZE:page * PAGE_SIZE], "tiebreaks": TIEBREAK_ORDER,
         "live": live, "page": page, "pages": pages, "page_links": page_links(page, pages), "base": base,
         "total": len(rows), "first": (page - 1) * PAGE_SIZE + 1, "last": min(page * PAGE_SIZE, len(rows)),
         "player_url": player_url, "player_base": player_url[:-2], "bracket_round": bracket_round}))
    me_url = reverse("me_json") + f"?event={event.slug}&position=1" + (f"&round={number}" if selected else "")
    context = {
        "event": event, "rounds": rounds, "selected_round": selected, "table_html": table_html, "live": live,
        "tiebreaks": TIEBREAK_ORDER, "query": query, "page": page, "pages": pages, "base": base,
        "total": len(rows), "me_url": me_url, "bracket_round": bracket_round,
    }
    if query or not canonical:  # nothing kept for these: a query string cannot fill the cache
        if query:
            context["matches"], context["match_count"] = search(rows, query)
        return HttpResponse(render_public("tournament/leaderboard.html", context, request))
    return HttpResponse(cached_page("leaderboard-page", version, (number, raw_page),
                                    lambda: render_public("tournament/leaderboard.html", context, request)))


def search(rows, query: str) -> tuple[list[tuple[object, int]], int]:
    """Rows whose display name contains ``query`` (case-insensitive), best first: up to SEARCH_LIMIT
    (row, page) pairs, and how many matched in all."""
    needle = query.casefold()
    found = [(row, page_of(index)) for index, row in enumerate(rows) if needle in row.display_name.casefold()]
    return found[:SEARCH_LIMIT], len(found)
