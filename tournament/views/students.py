"""Pages of a logged-in student: signing up, registering, "my event", checking in and withdrawing.

Thin: the registration service decides and its ``RegistrationRefused`` message is shown as it is.
"my event" only ever shows the logged-in user's own registration; no URL takes a player id.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from tournament.forms import RegistrationForm, SignupForm
from tournament.models import Player
from tournament.my_event_page import my_event_context
from tournament.services.registration import (
    EmailNotVerified,
    RegistrationRefused,
    check_in,
    check_registration_open,
    prefill_for,
    register_player,
    withdraw,
)
from tournament.views.email_verification import send_link_or_say_why
from tournament.views.public import get_public_event


def signup(request):
    if request.user.is_authenticated:
        return redirect("home")
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not next_url.startswith("/") or next_url.startswith("//"):
        next_url = ""
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.get_username()}! Your account is ready.")
        if send_link_or_say_why(request, user, next_url):
            messages.info(request, f"We mailed a link to {user.email}: open it to verify your address. "
                                   "Registering for an event with a list needs it.")
        return redirect(next_url or "event_list")
    return render(request, "registration/signup.html", {"form": form, "next": next_url})


@login_required
def register(request, slug: str):
    event = get_public_event(slug)
    existing = Player.objects.filter(event=event, user=request.user).first()
    if existing is not None and existing.is_active:
        messages.info(request, f"You are registered for {event.name} as {existing.display_name}.")
        return redirect("my_event", slug=event.slug)
    closed_reason = ""
    needs_verification = False
    try:
        check_registration_open(event)
    except RegistrationRefused as refused:
        closed_reason = str(refused)
    if request.method == "POST":
        form = RegistrationForm(request.POST, event=event)
        if form.is_valid():
            try:
                player = register_player(
                    event, request.user, form.cleaned_data["roll_number"], form.cleaned_data["display_name"]
                )
            except RegistrationRefused as refused:
                form.add_error(None, str(refused))
                needs_verification = isinstance(refused, EmailNotVerified)
            else:
                entry = "Your bot is" if event.bot_league else "You are"
                messages.success(request, f"{entry} registered for {event.name} as {player.display_name}.")
                if player.claim_pending:
                    messages.info(request, "An organizer confirms your place on the list at check-in: "
                                           "bring your college ID.")
                return redirect("my_event", slug=event.slug)
    else:
        prefill = prefill_for(event, request.user)
        form = RegistrationForm(
            event=event, initial={"roll_number": prefill.roll_number, "display_name": prefill.display_name}
        )
    return render(
        request, "tournament/register.html",
        {"event": event, "form": form, "closed_reason": closed_reason, "needs_verification": needs_verification},
    )


@login_required
def my_event(request, slug: str):
    event = get_public_event(slug)
    return render(request, "tournament/my_event.html", my_event_context(event, request.user))


def _own_player(request, slug: str):
    event = get_public_event(slug)
    return event, Player.objects.filter(event=event, user=request.user).first()


@login_required
@require_POST
def check_in_view(request, slug: str):
    event, player = _own_player(request, slug)
    if player is None:
        messages.error(request, f"You are not registered for {event.name}.")
    else:
        try:
            check_in(player)
        except RegistrationRefused as refused:
            messages.error(request, str(refused))
        else:
            messages.success(request, "You are checked in. Your table appears on this page as soon as the round is seated.")
    return redirect("my_event", slug=event.slug)


@login_required
def withdraw_view(request, slug: str):
    event, player = _own_player(request, slug)
    if request.method != "POST":
        return render(request, "tournament/withdraw_confirm.html", {"event": event, "player": player})
    if player is None:
        messages.error(request, f"You are not registered for {event.name}.")
    else:
        try:
            withdraw(player, reason=request.POST.get("reason", "")[:500])
        except RegistrationRefused as refused:
            messages.error(request, str(refused))
        else:
            messages.success(request, f"You have withdrawn from {event.name}.")
    return redirect("my_event", slug=event.slug)
