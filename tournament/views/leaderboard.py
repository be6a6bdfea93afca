"""The public leaderboard of an event (or of one of its rounds): a page of ``PAGE_SIZE`` rows at a time,
top rows first, with a search by name and, for a logged-in player, their own position.

Standings and rendered HTML are cached per event and scores version (``tournament.standings_cache``): a
reader without a session gets the stored page with no query at all (one when the version is checked);
a logged-in reader gets the same stored page with their own parts filled in (``tournament.page_parts``:
navigation, their position: one query more), which ``tournament.page_cache`` then serves again to them
without Django. Works without JavaScript; ``static/js/live_leaderboard.js`` keeps the shown page live.
"""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_cache_control

from tournament.models import Player, Round
from tournament.page_cache import mark_public
from tournament.page_parts import reader_response, render_public, renews, servable_reader
from tournament.standings import TIEBREAK_ORDER
from tournament.standings_cache import memo, peek, public_event, standings

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


def anonymous_reader(request) -> bool:
    """No session and no pending messages: the page is the same for every such reader."""
    return settings.SESSION_COOKIE_NAME not in request.COOKIES and "messages" not in request.COOKIES


def leaderboard(request, slug: str, number: int | None = None):
    event, version = public_event(slug)
    if event is None:
        raise Http404("No such event.")
    query = request.GET.get("q", "").strip()[:MAX_QUERY_CHARS]
    raw_page = request.GET.get("page")
    canonical = raw_page is None or (raw_page.isdigit() and not raw_page.startswith("0"))
    anonymous = anonymous_reader(request) and not query and canonical
    reader = not anonymous and not query and canonical and servable_reader(request)
    page_key = ("leaderboard-page", version, number, raw_page, request.path)
    if anonymous:
        html = peek(page_key)
        if html is not None:
            return mark_public(HttpResponse(html), version)
    rounds = memo(("rounds", version), lambda: list(Round.objects.filter(event=event).order_by("number")))
    selected = None
    if number is not None:
        selected = next((r for r in rounds if r.number == number), None)
        if selected is None:
            raise Http404("No such round.")
    rows = standings(event, version, selected)
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
         "player_url": player_url, "player_base": player_url[:-2]}))
    context = {
        "event": event, "rounds": rounds, "selected_round": selected, "table_html": table_html, "live": live,
        "tiebreaks": TIEBREAK_ORDER, "query": query, "page": page, "pages": pages, "base": base,
        "total": len(rows),
    }
    if query:
        context["matches"], context["match_count"] = search(rows, query)
    if anonymous or reader:
        html = memo(page_key, lambda: render_public("tournament/leaderboard.html", context, request))
        if anonymous:
            return mark_public(HttpResponse(html), version)
        me = context["me"] = my_position(event, version, selected, rows, request.user)
        by_version = {"my_position": (me["row"].player_id, selected.pk if selected else "-", base)} if me else {}
        return reader_response(request, html, {**context, "active": "leaderboard"}, version, by_version=by_version)
    if request.user.is_authenticated:
        context["me"] = my_position(event, version, selected, rows, request.user)
    response = render(request, "tournament/leaderboard.html", context)
    if request.user.is_authenticated:
        patch_cache_control(response, private=True)
    return response


def search(rows, query: str) -> tuple[list[tuple[object, int]], int]:
    """Rows whose display name contains ``query`` (case-insensitive), best first: up to SEARCH_LIMIT
    (row, page) pairs, and how many matched in all."""
    needle = query.casefold()
    found = [(row, page_of(index)) for index, row in enumerate(rows) if needle in row.display_name.casefold()]
    return found[:SEARCH_LIMIT], len(found)


def my_position(event, version, selected, rows, user):
    """The logged-in user's row and page on this leaderboard, or None (not a player, or not listed)."""
    player_id = Player.objects.filter(event=event, user=user).values_list("pk", flat=True).first()
    if player_id is None:
        return None
    index = memo(("leaderboard-index", version, selected.pk if selected else None),
                 lambda: {row.player_id: i for i, row in enumerate(rows)}).get(player_id)
    if index is None:
        return None
    return {"row": rows[index], "page": page_of(index)}


@renews("my_position")
def position_for_version(facts: list[str], version) -> str | None:
    """A listed player's position part for another scores version, from the standings and index this
    process already holds for it (page_cache renews the part on its event loop with this), else None."""
    player_id, round_pk, base = int(facts[0]), None if facts[1] == "-" else int(facts[1]), facts[2]
    rows = peek(("standings", version, round_pk))
    index = peek(("leaderboard-index", version, round_pk))
    if rows is None or index is None:
        return None
    position = index.get(player_id)
    me = None if position is None else {"row": rows[position], "page": page_of(position)}
    return render_to_string("parts/my_position.html", {"me": me, "pages": pages_for(len(rows)), "base": base})
