"""The student's e-mail address: the page that says whether it is verified (and sends the link again),
and the link mailed at sign-up that verifies it. The service decides; these pages show its words."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET

from tournament.services import email_verification
from tournament.services.email_verification import EmailVerificationError


def site_url(request) -> str:
    return request.build_absolute_uri("/").rstrip("/")


def send_link_or_say_why(request, user, next_path: str = "") -> bool:
    """Mail the link (leading to `next_path` once verified); on failure show the reason as a message.
    True when the mail went out."""
    try:
        email_verification.send_link(user, site_url(request), next_path)
    except EmailVerificationError as error:
        messages.error(request, str(error))
        return False
    return True


@login_required
def account_email(request):
    """"Your e-mail address": verified or not, and a button that mails the link again."""
    if request.method == "POST":
        if send_link_or_say_why(request, request.user):
            messages.success(request, f"We sent a new link to {request.user.email}. Open it on any device.")
        return redirect("account_email")
    return render(request, "registration/account_email.html",
                  {"verified": email_verification.verified_email(request.user)})


@require_GET
def verify_email_confirm(request, uidb64: str, token: str):
    """Verify the link's address; then back to where the student started (the link's `next`, such as the
    event's register page) with the news as a message, or a page that says so."""
    try:
        user = email_verification.verify(uidb64, token)
    except EmailVerificationError as error:
        return render(request, "registration/verify_email_done.html", {"error": str(error)}, status=400)
    next_path = request.GET.get("next", "")
    if email_verification.local_path(next_path):
        messages.success(request, f"Thank you: {user.email} is verified.")
        return redirect(next_path)
    return render(request, "registration/verify_email_done.html", {"verified_user": user})
