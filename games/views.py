"""Pages of the live-match layer: the play home, a table, starting a practice game. Thin: the services
create games; the table page only hands the template the socket path and who is looking."""

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render

from games.forms import PracticeForm
from games.models import LiveGame
from games.services.lifecycle import live_game_for, start_practice_game
from games.services.seats import seat_holders, seat_of_user

RECENT_PRACTICE_GAMES = 10


def _practice_games(user):
    if not user.is_authenticated:
        return []
    return list(LiveGame.objects.filter(kind=LiveGame.Kind.PRACTICE, owner=user)
                .order_by("-created_at")[:RECENT_PRACTICE_GAMES])


def _my_tables(user):
    if not user.is_authenticated:
        return []
    from tournament.models import Game

    return list(LiveGame.objects.filter(kind=LiveGame.Kind.TOURNAMENT, game__table__seats__player__user=user)
                .exclude(game__status=Game.Status.FINISHED)
                .select_related("game").order_by("-created_at").distinct())


def play_home(request):
    """Where a student finds their live table or starts a practice game."""
    return render(request, "games/play_home.html", {
        "my_tables": _my_tables(request.user), "practice_games": _practice_games(request.user),
    })


def table(request, live_game_id: int):
    live = get_object_or_404(LiveGame.objects.select_related("game", "owner"), pk=live_game_id)
    if live.kind == LiveGame.Kind.PRACTICE and live.owner_id != request.user.pk:
        raise Http404("No such game.")  # private: not even its existence is shown
    holders = seat_holders(live)
    seat = seat_of_user(holders, request.user)
    return render(request, "games/table.html", {
        "live_game": live, "ws_path": live.ws_path, "role": "spectator" if seat is None else "player",
        "seat": seat, "seat_names": [h.name for h in holders], "title": live.title,
    })


def tournament_game(request, game_id: int):
    """The live table of a tournament game: created on first visit, so every link can point here."""
    from django.contrib import messages

    from tournament.models import Game

    game = get_object_or_404(Game.objects.select_related("table__round__event"), pk=game_id)
    if game.status not in (Game.Status.RUNNING, Game.Status.PAUSED) and not hasattr(game, "live"):
        if game.status == Game.Status.PENDING:
            messages.info(request, "This game has not started yet: its table opens when the round starts.")
        else:
            messages.info(request, "This game was not played live: its scores are below.")
        return redirect("table_detail", game.table.round.event.slug, game.table_id)
    return redirect("games:table", live_game_for(game).pk)


@login_required
def practice(request):
    form = PracticeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        live = start_practice_game(request.user, data["preset"], data["opponents"], data["bot_kind"])
        return redirect("games:table", live.pk)
    return render(request, "games/practice.html", {"form": form, "games": _practice_games(request.user)})
