"""The JSON API for bots (docs/bots.md): the tables of the access token's user.

`GET /api/my-tables/` lists both apps' games (tournament.services.my_tables); `POST
/api/events/<slug>/check-in/` checks the token's user in for the event's next round. Authenticated by
`Authorization: Bearer <token>` only (access_tokens.http), with a token that may read its tables (and
play, to check in), and rate-limited per user (api_rate_limit).
"""

from __future__ import annotations

from django.http import JsonResponse
from django.views.decorators.csrf import csrf_exempt

from access_tokens.http import token_required
from access_tokens.models import PLAY_TABLES, READ_TABLES
from tournament.models import Event, Player
from tournament.services.my_tables import practice_tables, tournament_tables
from tournament.services.registration import RegistrationRefused, check_in
from tournament.views.api_rate_limit import rate_limited


@token_required(READ_TABLES)
@rate_limited
def my_tables(request):
    if request.method != "GET":
        return JsonResponse({"error": "Use GET."}, status=405, headers={"Allow": "GET"})
    user = request.user
    return JsonResponse({"user": user.get_username(), "tables": tournament_tables(user) + practice_tables(user)},
                        headers={"Cache-Control": "no-store"})


@csrf_exempt  # a token in a header, never a cookie: another site cannot send it (docs/bots.md)
@token_required(PLAY_TABLES)
@rate_limited
def check_in_event(request, slug: str):
    """A bot checks its owner in for an event's next round, as "Check in" on My event does."""
    if request.method != "POST":
        return JsonResponse({"error": "Use POST."}, status=405, headers={"Allow": "POST"})
    player = Player.objects.filter(event__slug=slug, user=request.user).select_related("event").first()
    if player is None:
        known = Event.objects.filter(slug=slug).exists()
        return JsonResponse({"error": f"You are not registered for {slug}." if known else f"No event {slug}."},
                            status=404)
    try:
        player = check_in(player)
    except RegistrationRefused as refused:
        return JsonResponse({"error": str(refused)}, status=409)
    return JsonResponse({"event": slug, "status": player.status}, headers={"Cache-Control": "no-store"})
