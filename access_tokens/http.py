"""JSON views for bots: `token_required` lets a request in by `Authorization: Bearer <token>` alone.

No session and no CSRF token: a token is sent on purpose by its holder, a browser never adds it on its
own, so a cross-site request cannot use it. A missing, malformed, unknown or revoked token gets 401
with a JSON error that says which; a token without the view's scope gets 403. Browsers' session and
CSRF rules are untouched elsewhere.
"""

from __future__ import annotations

import functools

from django.http import JsonResponse
from django.views.decorators.csrf import csrf_exempt

from access_tokens.services import authenticate

HOW = "send the header 'Authorization: Bearer <token>' with a token made on /account/tokens/"


def unauthorized(message: str) -> JsonResponse:
    return JsonResponse({"error": message}, status=401,
                        headers={"WWW-Authenticate": 'Bearer realm="api"', "Cache-Control": "no-store"})


def bearer_secret(header: str) -> str | None:
    """The token of an `Authorization: Bearer <token>` header value, or None if it is not one."""
    scheme, _, secret = header.strip().partition(" ")
    secret = secret.strip()
    if scheme.lower() != "bearer" or not secret or " " in secret:
        return None
    return secret


def token_required(scope: str):
    """Run the view with `request.user` the token's user and `request.access_token` the token, if the
    token carries `scope` (`access_tokens.models.SCOPES`)."""
    return functools.partial(_token_view, scope=scope)


def _token_view(view, scope: str):
    @csrf_exempt
    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        header = request.headers.get("Authorization", "")
        if not header:
            return unauthorized(f"no access token: {HOW}")
        secret = bearer_secret(header)
        if secret is None:
            return unauthorized(f"malformed Authorization header: {HOW}")
        token = authenticate(secret)
        if token is None:
            return unauthorized("unknown or revoked access token: make a new one on /account/tokens/")
        if not token.allows(scope):
            return JsonResponse({"error": f"this access token lacks the scope '{scope}': make one that has it "
                                          "on /account/tokens/"}, status=403, headers={"Cache-Control": "no-store"})
        request.user = token.user
        request.access_token = token
        return view(request, *args, **kwargs)

    return wrapped
