"""Custom admin pages for running a round: the round's tables with scores, and recording a hand."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse

from tournament.admin.forms import HandResultForm
from tournament.admin.scoping import scoped_object
from tournament.models import Game, Hand, HandScore, Round
from tournament.services import game_status, participation, results, rounds


def round_overview(model_admin, request, round_id):
    """Every table: seats, game status, cumulative score per seat; start the round, pause/finish games."""
    round_ = scoped_object(request, Round, round_id, "event", action="view", related=["event"])
    if request.method == "POST":
        round_ = scoped_object(request, Round, round_id, "event", action="change", related=["event"])
        try:
            if "start" in request.POST:
                rounds.start_round(round_, request.user)
                messages.success(request, f"Round {round_.number} started.")
            elif "game_action" in request.POST:
                game = scoped_object(request, Game, request.POST.get("game"), "table__round__event",
                                     related=["table"])
                if game.table.round_id != round_.pk:
                    raise rounds.RoundError("That game is not in this round.")
                messages.success(request, game_status.organizer_game_action(
                    game, request.POST["game_action"], request.user, request.POST.get("reason", "")))
        except rounds.RoundError as error:
            messages.error(request, str(error))
        return redirect(request.path)
    context = {
        **model_admin.admin_site.each_context(request), "opts": Round._meta, "original": round_,
        "title": f"Round {round_.number} of {round_.event}", "round": round_,
        "lines": rounds.round_overview(round_), "event": round_.event,
        "can_change": request.user.has_perm("tournament.change_round"),
    }
    return TemplateResponse(request, "admin/tournament/round_overview.html", context)


def record_hand(model_admin, request, game_id):
    """Record the next hand of a game, or correct an earlier one (``?hand=N``), with a reason."""
    game = scoped_object(request, Game, game_id, "table__round__event",
                         related=["table__round__event"])
    seats = results.game_seats(game)  # a partner rotation's block: its four seats, partners 1+3 and 2+4
    hands = list(Hand.objects.filter(game=game).select_related("winner__player").order_by("number"))
    next_number = len(hands) + 1 if not hands else hands[-1].number + 1
    initial = {"number": next_number}
    correcting = request.GET.get("hand")
    if correcting and correcting.isdigit():
        hand = next((h for h in hands if h.number == int(correcting)), None)
        if hand:
            initial = {"number": hand.number, "winner": hand.winner_id}
            for seat_id, left in HandScore.objects.filter(hand=hand).values_list("seat_id", "points_left"):
                initial[f"points_{seat_id}"] = left
    played_live = results.played_live_now(game)
    form = HandResultForm(request.POST or None, seats=seats, initial=initial, played_live=played_live,
                          live_attendance=participation.live_attendance(game.table_id))
    if request.method == "POST" and form.is_valid():
        try:
            if form.cleaned_data.get("pause_live") and results.played_live_now(game):
                game_status.change_game_status(game, "pause", request.user, reason="to record a hand by hand")
                played_live = False
            outcome = results.record_hand(game, form.cleaned_data["number"], form.cleaned_data["winner"],
                                          form.points_left(), request.user, form.cleaned_data["reason"],
                                          did_not_play=form.did_not_play(), played_reasons=form.played_reasons())
        except (results.ResultError, rounds.RoundError) as error:
            form.add_error(None, str(error))
        else:
            verb = "recorded" if outcome.created else "corrected"
            note = " The game is finished." if outcome.game_finished else (
                " The game is running again." if outcome.game_reopened else "")
            messages.success(request, f"Hand {outcome.hand.number} {verb}.{note}")
            for text in outcome.reseated:
                messages.warning(request, f"The next stage follows the correction: {text}")
            return redirect("admin:tournament_round_overview", game.table.round_id)
    scores = {}
    for hand_id, seat_id, left, won in HandScore.objects.filter(hand__game=game).values_list(
            "hand_id", "seat_id", "points_left", "points_won"):
        scores.setdefault(hand_id, {})[seat_id] = (left, won)
    totals = results.game_totals(game)
    history = [{"hand": h, "cells": [scores.get(h.pk, {}).get(s.pk, ("", "")) for s in seats]} for h in hands]
    context = {
        **model_admin.admin_site.each_context(request), "opts": Game._meta, "original": game,
        "title": f"Record a hand: {game.table.round}, {game}", "game": game, "event": game.table.round.event, "form": form, "seats": seats,
        "history": history, "played_live": played_live, "totals": [totals.get(s.pk, 0) for s in seats],
        "round_url": reverse("admin:tournament_round_overview", args=[game.table.round_id]),
    }
    return TemplateResponse(request, "admin/tournament/record_hand.html", context)
