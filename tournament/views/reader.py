"""``/me.json``: what a public page shows only to the reader, fetched by ``static/js/reader.js``.

Public pages (leaderboard, bracket) are the same for every reader and cached (``tournament.public_pages``);
this small answer is private and never cached: who the reader is (name, staff or not), where to log out
(the form's CSRF token is the ``csrftoken`` cookie's, which ``get_token`` makes sure the reader has),
and, with ``event=<slug>``, their "My event" link and, with ``position=1`` (``round=<number>`` for a
round's leaderboard), their rank and page on that leaderboard.
"""

from __future__ import annotations

from django.conf import settings
from django.http import JsonResponse
from django.middleware.csrf import get_token
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tournament.models import Player, Round
from tournament.public_pages import event_and_version
from tournament.standings_cache import memo, standings
from tournament.views.leaderboard import page_of, pages_for

MAX_SLUG_CHARS = 100


def _error(message: str, status: int = 404) -> JsonResponse:
    return JsonResponse({"error": message}, status=status)


def _round_number(raw: str | None) -> int | None | str:
    """``?round=`` as a number, None when absent, or an error message."""
    if raw is None or raw == "":
        return None
    if not raw.isdigit() or len(raw) > 6:
        return "round must be a whole number."
    return int(raw)


def position(event, version, number: int | None, user) -> dict | None:
    """The user's rank, points and page on the event's leaderboard (or round ``number``'s), or None when
    they are not listed there."""
    player_id = Player.objects.filter(event=event, user=user).values_list("pk", flat=True).first()
    if player_id is None:
        return None
    selected = None
    if number is not None:
        rounds = memo(("rounds", version), lambda: list(Round.objects.filter(event=event).order_by("number")))
        selected = next((r for r in rounds if r.number == number), None)
        if selected is None:
            return None
    rows = standings(event, version, selected)
    index = memo(("leaderboard-index", version, selected.pk if selected else None),
                 lambda: {row.player_id: i for i, row in enumerate(rows)}).get(player_id)
    if index is None:
        return None
    row, page = rows[index], page_of(index)
    base = (reverse("round_leaderboard", args=[event.slug, number]) if selected
            else reverse("leaderboard", args=[event.slug]))
    return {"player_id": player_id, "rank": row.rank, "place": row.place_label, "points_won": row.points_won, "page": page,
            "pages": pages_for(len(rows)), "url": f"{base}?page={page}#player-{player_id}"}


@never_cache
@require_GET
def me(request):
    slug = request.GET.get("event", "")[:MAX_SLUG_CHARS]
    number = _round_number(request.GET.get("round"))
    if isinstance(number, str):
        return _error(number, 400)
    event = version = None
    if slug:
        event, version = event_and_version(request, slug)
        if event is None:
            return _error("No such event.")
    user = request.user
    if not user.is_authenticated:
        return JsonResponse({"user": None, "login_url": reverse("login")})
    get_token(request)  # the CSRF cookie the logout form's token is read from
    answer = {"user": {"name": user.get_username(), "staff": user.is_staff},
              "logout_url": reverse("logout"), "csrf_cookie": settings.CSRF_COOKIE_NAME,
              "admin_url": reverse("admin:index") if user.is_staff else None,
              "my_event_url": reverse("my_event", args=[event.slug]) if event is not None else None}
    if event is not None and request.GET.get("position") == "1":
        answer["position"] = position(event, version, number, user)
    return JsonResponse(answer)
