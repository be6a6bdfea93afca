"""The page a locked-out login gets (django-axes' ``AXES_LOCKOUT_CALLABLE``): 429 with the account, how many
failures paused it and for how many minutes, and ``Retry-After``; the same for the admin's login."""

from __future__ import annotations

import math

from django.conf import settings
from django.shortcuts import render


def lockout_response(request, original_response=None, credentials=None):
    """Axes calls this with (request, response, credentials) or, from async code, (request, credentials)."""
    minutes = max(1, math.ceil(settings.AXES_COOLOFF_TIME.total_seconds() / 60))
    context = {"username": request.POST.get("username", "")[:150], "failure_limit": settings.AXES_FAILURE_LIMIT,
               "minutes": minutes}
    response = render(request, "registration/locked_out.html", context, status=429)
    response["Retry-After"] = str(minutes * 60)
    return response
