"""The ratings pages: a game family's ladder and a player's page (thin: `ratings.pages` reads the rows)."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import redirect, render

from ratings.families import FAMILIES
from ratings.pages import ladder, player_history


def ladders(request):
    return redirect("ratings:ladder", "uno")


def family_ladder(request, family: str):
    if family not in FAMILIES:
        raise Http404("No such game family.")
    return render(request, "ratings/ladder.html", {
        "family": family, "family_name": FAMILIES[family], "families": FAMILIES.items(),
        "people": ladder(family, "people"), "bots": ladder(family, "bots"),
    })


def player(request, user_id: int):
    history = player_history(user_id)
    if history is None:
        raise Http404("No such player.")
    return render(request, "ratings/player.html", {"history": history, "families": FAMILIES})
