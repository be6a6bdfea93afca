"""The replay page of a live game and its log as JSON (built by `games.replay`). A practice game's replay
is its owner's alone, as its table is."""

from __future__ import annotations

from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render

from games.models import LiveGame
from games.replay import ReplayError, build, download


def _visible_game(request, live_game_id: int) -> LiveGame:
    live = get_object_or_404(LiveGame.objects.select_related("game"), pk=live_game_id)
    if live.kind == LiveGame.Kind.PRACTICE and live.owner_id != request.user.pk:
        raise Http404("No such game.")  # private: not even its existence is shown
    return live


def replay(request, live_game_id: int):
    live = _visible_game(request, live_game_id)
    try:
        data, problem = build(live), ""
    except ReplayError as error:
        data, problem = None, str(error)
    return render(request, "games/replay.html", {"live_game": live, "replay": data, "problem": problem})


def replay_json(request, live_game_id: int):
    live = _visible_game(request, live_game_id)
    try:
        data = download(live)
    except ReplayError as error:
        return JsonResponse({"error": str(error)}, status=409)
    response = JsonResponse(data, json_dumps_params={"separators": (",", ":")})
    response["Content-Disposition"] = f'attachment; filename="game-{live.pk}.json"'
    return response


def tournament_game_replay(request, game_id: int):
    """The replay of tournament game `game_id` (by the live game's link to it: the tournament's pages link
    here without looking up the live game). A game recorded by hand has no live table, so no replay."""
    live_id = LiveGame.objects.filter(game_id=game_id).values_list("pk", flat=True).first()
    if live_id is None:
        raise Http404("This game was not played at a live table: there is no replay.")
    return redirect("games:replay", live_id)
