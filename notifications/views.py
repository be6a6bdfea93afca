"""A student's notification settings: store or remove this browser's push subscription (JSON from
static/js/notifications.js), save which kinds they want (a plain form on "My event"), and stop the mails
from a mail's signed link without logging in. Thin: `notifications.subscriptions` checks and stores."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseBadRequest, JsonResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from notifications import mail, subscriptions
from notifications.subscriptions import SubscriptionRefused


def _json_login_required(view):
    def wrapped(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return JsonResponse({"error": "Log in first."}, status=403)
        return view(request, *args, **kwargs)
    return wrapped


@require_POST
@_json_login_required
def subscribe(request):
    try:
        subscriptions.save(request.user, request.body)
    except SubscriptionRefused as refused:
        return JsonResponse({"error": str(refused)}, status=400)
    return JsonResponse({"ok": True}, status=201)


@require_POST
@_json_login_required
def unsubscribe(request):
    try:
        removed = subscriptions.remove(request.user, request.body)
    except SubscriptionRefused as refused:
        return JsonResponse({"error": str(refused)}, status=400)
    return JsonResponse({"ok": True, "removed": removed})


@require_POST
@login_required
def choices(request):
    subscriptions.save_choices(request.user, request.POST.getlist("kinds"), request.POST.get("mail") == "on")
    messages.success(request, "Your notification choices are saved.")
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, {request.get_host()}, require_https=request.is_secure()):
        back = "/"
    return redirect(back)


@csrf_exempt  # the signed link is the proof; mail clients POST it without a session (RFC 8058)
@require_http_methods(["GET", "POST"])
def mail_off(request, token: str):
    user_id = mail.user_of_token(token)
    if user_id is None:
        return HttpResponseBadRequest("This link to stop notification mails is not valid: it was changed or cut.")
    mail.stop_mail(user_id)
    return render(request, "notifications/mail_off.html")
