"""How often a user's bot may ask the JSON API: a burst beyond the limit is answered 429 with a JSON
error and ``Retry-After``, whichever worker it reaches.

Counted per user (all of a user's tokens together) in fixed windows by django-ratelimit, in the default
cache: Redis in production, so every worker counts the same requests. The limit is the setting
``API_RATE_LIMIT`` (config/settings.py; "20/10s" by default: twice what the example bot asks while it
waits for a table).
"""

from __future__ import annotations

import functools

from django.conf import settings
from django.http import JsonResponse
from django_ratelimit.core import get_usage


def _user_key(group: str, request) -> str:
    user = request.user  # the token's user (access_tokens.http.token_required runs first)
    return f"{user.pk}:{user.date_joined.timestamp()}"  # a new account of a reused id starts afresh


def rate_limited(view):
    """Decorate an API view behind ``token_required``: past the limit, a 429 instead of the view."""
    group = f"api.{view.__name__}"

    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        rate = settings.API_RATE_LIMIT
        usage = get_usage(request, group=group, key=_user_key, rate=rate, increment=True)
        if usage is not None and usage["should_limit"]:
            retry_after = max(1, usage["time_left"])
            return JsonResponse(
                {"error": f"too many requests: at most {rate.replace('/', ' per ')}; ask again in "
                          f"{retry_after} s", "retry_after": retry_after},
                status=429, headers={"Retry-After": str(retry_after), "Cache-Control": "no-store"})
        return view(request, *args, **kwargs)

    return wrapped
