"""The tournament's ways onto live tables: a tournament game's table (opened on first visit), and where a
partner rotation's players go after a block. Under /play/ beside the live-match pages, but the
tournament's: they read its games and rotations, which the live-match layer never imports."""

from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse

from games.models import LiveGame
from tournament.models import Game
from tournament.services.live_tables import live_game_for
from tournament.services.rotations import NextBlock, next_block_for

MAX_ID_DIGITS = 18  # a longer id is no table of ours (and would overflow the database's integer)


def tournament_game(request, game_id: int):
    """The live table of a tournament game: created on first visit, so every link can point here."""
    game = get_object_or_404(Game.objects.select_related("table__round__event"), pk=game_id)
    if game.status not in (Game.Status.RUNNING, Game.Status.PAUSED) and not hasattr(game, "live"):
        if game.status == Game.Status.PENDING:
            messages.info(request, "This game has not started yet: its table opens when the round starts.")
        else:
            messages.info(request, "This game was not played live: its scores are below.")
        return redirect("table_detail", game.table.round.event.slug, game.table_id)
    return redirect("games:table", live_game_for(game).pk)


def next_table(request, live_game_id: str):
    """JSON for the table page of a partner rotation's finished block: where its player plays the next
    block (their own table only), or for anyone else every table of the next block to watch; "waiting"
    until the block has ended at every table (the page asks again). Bad or unknown ids: 404 with a JSON
    error, as for a private practice game."""
    if request.method != "GET":
        return JsonResponse({"error": "Use GET."}, status=405, headers={"Allow": "GET"})
    live = None
    if live_game_id.isdigit() and len(live_game_id) <= MAX_ID_DIGITS:
        live = LiveGame.objects.select_related("game__table__round__event").filter(pk=int(live_game_id)).first()
    if live is None or (live.kind == LiveGame.Kind.PRACTICE and live.owner_id != request.user.pk):
        return JsonResponse({"error": f"No such table: {live_game_id[:40]!r}."}, status=404)
    found = NextBlock("none") if live.game is None else next_block_for(live.game, request.user)
    data = {"status": found.status, "block": found.block, "blocks": found.blocks, "mine": found.mine,
            "message": found.message, "tables": [
                {"label": t.label, "partner": t.partner, "game": t.game_id,
                 "url": (reverse("games:table", args=[t.live_game_id]) if t.live_game_id
                         else reverse("play_tournament_game", args=[t.game_id]))}
                for t in found.tables]}
    if found.status == "over":
        table = live.game.table
        data["results_url"] = reverse("table_detail", args=[table.round.event.slug, table.pk])
    return JsonResponse(data, headers={"Cache-Control": "no-store"})
