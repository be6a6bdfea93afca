"""System checks of the live-match layer: its deployment (`manage.py check --deploy`; `make prod` runs
it) and, at every command, a compiled rules engine older than its sources."""

from django.conf import settings
from django.core.checks import Error, Tags, Warning, register

from games import compiled_engine


@register()
def compiled_engine_current(app_configs, **kwargs):
    """Python imports the engine's compiled modules in place of its sources: built from older sources,
    they would play the old rules."""
    if not compiled_engine.stale():
        return []
    return [Warning(
        "The compiled rules engine (games/engine/*.so) was built from other sources than those in "
        "games/engine/: the old rules are what runs.", hint="Run `make install` to compile it again, or "
        "`python tools/compile_engine.py --clean` to run the sources as they are.", id="games.W002")]


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
