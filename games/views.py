"""Pages of the live-match layer: the play home, a table, starting a practice game. Thin: the services
create games; the table page only hands the template the socket path and who is looking."""

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from games.engine import RuleSet, get_preset
from games.forms import PracticeForm
from games.models import LiveGame
from games.rules_sheet import special_cards
from games.services import fairness
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

    lives = list(LiveGame.objects.filter(kind=LiveGame.Kind.TOURNAMENT, game__table__seats__player__user=user)
                 .exclude(game__status=Game.Status.FINISHED)
                 .select_related("game").order_by("-created_at").distinct())
    # A partner rotation of eight plays two games at once at one table, each with four of its seats
    # (`Game.seat_order`): only the one the player sits in is theirs.
    from tournament.models import Seat

    mine = set(Seat.objects.filter(player__user=user, table_id__in={lv.game.table_id for lv in lives})
               .values_list("table_id", "number"))
    return [lv for lv in lives if not lv.game.seat_order
            or any((lv.game.table_id, n) in mine for n in lv.game.seat_order)]


def play_home(request):
    """Where a student finds their live table or starts a practice game."""
    return render(request, "games/play_home.html", {
        "my_tables": _my_tables(request.user), "practice_games": _practice_games(request.user),
    })


def _rules_of(live: LiveGame) -> RuleSet:
    """The rules this table plays: the engine state's own (an event's overrides included)."""
    rules = (live.state or {}).get("rules")
    return RuleSet.from_dict(rules) if rules else get_preset(live.preset)


def table(request, live_game_id: int):
    live = get_object_or_404(LiveGame.objects.select_related("game", "owner"), pk=live_game_id)
    if live.kind == LiveGame.Kind.PRACTICE and live.owner_id != request.user.pk:
        raise Http404("No such game.")  # private: not even its existence is shown
    holders = seat_holders(live)
    seat = seat_of_user(holders, request.user)
    return render(request, "games/table.html", {
        "live_game": live, "ws_path": live.ws_path, "role": "spectator" if seat is None else "player",
        "seat": seat, "seat_names": [h.name for h in holders], "title": live.title,
        "rotation_block": bool(live.game_id and live.game.seat_order),  # the page asks where the next block is
        "sheet": special_cards(_rules_of(live)),
    })


MAX_ID_DIGITS = 18  # a longer id is no table of ours (and would overflow the database's integer)


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
    from tournament.services.rotations import NextBlock, next_block_for

    found = NextBlock("none") if live.game is None else next_block_for(live.game, request.user)
    data = {"status": found.status, "block": found.block, "blocks": found.blocks, "mine": found.mine,
            "message": found.message, "tables": [
                {"label": t.label, "partner": t.partner, "game": t.game_id,
                 "url": (reverse("games:table", args=[t.live_game_id]) if t.live_game_id
                         else reverse("games:tournament_game", args=[t.game_id]))}
                for t in found.tables]}
    if found.status == "over":
        table = live.game.table
        data["results_url"] = reverse("table_detail", args=[table.round.event.slug, table.pk])
    return JsonResponse(data, headers={"Cache-Control": "no-store"})


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


class VerifyForm(forms.Form):
    """A commitment and the seed and salt revealed after the hand (as shown at the table)."""

    commitment = forms.RegexField(regex=r"^\s*[0-9a-fA-F]{64}\s*$", label="Commitment (SHA-256, 64 hex digits)",
                                  error_messages={"invalid": "a commitment is 64 hexadecimal digits"})
    seed = forms.RegexField(regex=r"^\s*[0-9]{1,40}\s*$", label="Seed",
                            error_messages={"invalid": "the seed is a whole number"})
    salt = forms.RegexField(regex=r"^\s*[0-9a-fA-F]{1,128}\s*$", label="Salt",
                            error_messages={"invalid": "the salt is hexadecimal digits"})


def verify(request):
    """Check a hand's shuffle: the commitment shown before the hand against the seed and salt revealed
    after it; for a hand of a stored game, also deal it again with the engine and compare."""
    live = checks = detail = None
    game_id = request.GET.get("game", "")
    if game_id:
        if not game_id.isdigit():
            raise Http404("No such game.")
        live = get_object_or_404(LiveGame, pk=int(game_id))
        if live.kind == LiveGame.Kind.PRACTICE and live.owner_id != request.user.pk:
            raise Http404("No such game.")
        checks = [fairness.check_stored_hand(live, n) for n in fairness.revealed_hands(live)]
        hand = request.GET.get("hand", "")
        if hand.isdigit():
            detail = next((c for c in checks if c.hand == int(hand) - 1), None)
            if detail is None:
                raise Http404("That hand is not over yet, or there is no such hand.")
    form = VerifyForm(request.GET if "commitment" in request.GET else None)
    result = None
    if form.is_bound and form.is_valid():
        data = form.cleaned_data
        result = fairness.check_commitment(data["commitment"], data["seed"], data["salt"])
    elif detail is not None:
        form = VerifyForm(initial={"commitment": detail.commitment, "seed": detail.seed, "salt": detail.salt})
    return render(request, "games/verify.html", {
        "form": form, "result": result, "live_game": live, "checks": checks, "detail": detail,
    })
