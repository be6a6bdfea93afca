"""System checks of the live-match layer's deployment (`manage.py check --deploy`; `make prod` runs it)."""

from django.conf import settings
from django.core.checks import Error, Tags, register


@register(Tags.security, deploy=True)
def channel_layer_encrypted(app_configs, **kwargs):
    """Across workers a table's change travels through Redis with every hand in it
    (games.services.broadcast): the layer must encrypt its messages."""
    layer = settings.CHANNEL_LAYERS.get("default", {})
    if layer.get("BACKEND", "") == "channels.layers.InMemoryChannelLayer":  # one process: nothing crosses
        return []
    if layer.get("CONFIG", {}).get("symmetric_encryption_keys"):
        return []
    return [Error(
        "The Redis channel layer is not encrypted, and live tables' changes (every player's cards) pass "
        "through it.", hint="Set CHANNEL_LAYER_KEY to 32+ random characters, the same on every worker "
        "(docs/deploy.md).", id="games.E001")]
