"""Pages of the live-match layer: the play home, a table, starting a practice game, checking a shuffle.
Thin: the services create games; the table page only hands the template the socket path and who is
looking. The ways onto a tournament game's table are the tournament's (`tournament.views.live_tables`)."""

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render

from games.engine import RuleSet, get_preset
from games.forms import PracticeForm
from games.models import LiveGame
from games.rules_sheet import special_cards
from games.services import fairness
from games.services.lifecycle import start_practice_game
from games.services.practice_caps import PracticeCapReached
from games.services.seats import seat_holders, seat_of_user

RECENT_PRACTICE_GAMES = 10


def _practice_games(user):
    if not user.is_authenticated:
        return []
    return list(LiveGame.objects.filter(kind=LiveGame.Kind.PRACTICE, owner=user)
                .order_by("-created_at")[:RECENT_PRACTICE_GAMES])


def _my_tables(user):
    """The live tables of the tournament games `user` plays that are not finished (through the live
    game's link to its tournament game: this app never imports the tournament)."""
    if not user.is_authenticated:
        return []
    lives = list(LiveGame.objects.filter(kind=LiveGame.Kind.TOURNAMENT, game__table__seats__player__user=user)
                 .exclude(game__status=LiveGame._meta.get_field("game").related_model.Status.FINISHED)
                 .select_related("game").order_by("-created_at").distinct())
    # A partner rotation of eight plays two games at once at one table, each with four of its seats
    # (`Game.seat_order`): only the one the player sits in is theirs.
    mine = set(LiveGame.objects.filter(pk__in=[lv.pk for lv in lives], game__table__seats__player__user=user)
               .values_list("game__table_id", "game__table__seats__number"))
    return [lv for lv in lives if not lv.game.seat_order
            or any((lv.game.table_id, n) in mine for n in lv.game.seat_order)]


def play_home(request):
    """Where a student finds their live table or starts a practice game."""
    return render(request, "games/play_home.html", {
        "my_tables": _my_tables(request.user), "practice_games": _practice_games(request.user),
    })


def _seat_name(live: LiveGame, holder) -> str:
    """A player's seat played by their own bot (through their token) is marked so."""
    return f"🤖 {holder.name}" if live.token_moves_only and not holder.is_bot else holder.name


def _rules_of(live: LiveGame) -> RuleSet:
    """The rules this table plays: the engine state's own (an event's overrides included)."""
    rules = (live.checkpoint or {}).get("rules")  # a game's rules never change: any checkpoint has them
    return RuleSet.from_dict(rules) if rules else get_preset(live.preset)


def table(request, live_game_id: int):
    live = get_object_or_404(LiveGame.objects.select_related("game", "owner"), pk=live_game_id)
    if live.kind == LiveGame.Kind.PRACTICE and live.owner_id != request.user.pk:
        raise Http404("No such game.")  # private: not even its existence is shown
    holders = seat_holders(live)
    seat = seat_of_user(holders, request.user)
    return render(request, "games/table.html", {
        "live_game": live, "ws_path": live.ws_path, "role": "spectator" if seat is None else "player",
        "seat": seat, "seat_names": [_seat_name(live, h) for h in holders], "title": live.title,
        "rotation_block": bool(live.game_id and live.game.seat_order),  # the page asks where the next block is
        "sheet": special_cards(_rules_of(live)),
    })


@login_required
def practice(request):
    form = PracticeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            live = start_practice_game(request.user, data["preset"], data["opponents"], data["bot_kind"],
                                       with_my_bot=data["with_my_bot"], address=request.META.get("REMOTE_ADDR"))
        except PracticeCapReached as refused:
            form.add_error(None, str(refused))
            return render(request, "games/practice.html", {"form": form, "games": _practice_games(request.user)},
                          status=429)
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
