"""The account page for personal access tokens: list, make (shown once), revoke. Thin: the service
makes and revokes them."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from access_tokens.forms import NewTokenForm
from access_tokens.models import AccessToken
from access_tokens.services import TokenError, create_token, revoke_token


def _page(request, form, secret=None, status=200):
    tokens = AccessToken.objects.filter(user=request.user)
    return render(request, "access_tokens/tokens.html",
                  {"form": form, "tokens": tokens, "secret": secret}, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def tokens(request):
    if request.method != "POST":
        return _page(request, NewTokenForm())
    form = NewTokenForm(request.POST)
    if not form.is_valid():
        return _page(request, form, status=400)
    try:
        made = create_token(request.user, form.cleaned_data["name"], form.cleaned_data["scopes"])
    except TokenError as error:
        form.add_error("name", str(error))
        return _page(request, form, status=400)
    # Shown in this response only: it is not stored, and a reload cannot show it again.
    response = _page(request, NewTokenForm(), secret=made.secret)
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_POST
def revoke(request, token_id: int):
    try:
        token = revoke_token(request.user, token_id)
    except TokenError:
        messages.error(request, "There is no such token on your account.")
    else:
        messages.success(request, f"Token “{token.name}” is revoked: it no longer works.")
    return redirect("access_tokens:tokens")
