"""`check --deploy`: a production site without VAPID keys sends no push (students get e-mail only)."""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Warning, register


@register(deploy=True)
def vapid_keys_set(app_configs, **kwargs):
    if settings.VAPID_PRIVATE_KEY:
        return []
    return [Warning("VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are not set: no Web Push, notifications go by e-mail "
                    "only.", hint="Make a pair with `python manage.py vapid_keys` (docs/deploy.md).",
                    id="notifications.W001")]
