"""The server's garbage-collection set-up (config/gc_tuning.py), checked in a fresh interpreter: freezing
changes the process it runs in, so not in the test process itself."""

import gc
import json
import os
import subprocess
import sys
import weakref
from pathlib import Path

from config import gc_tuning

ROOT = Path(__file__).resolve().parent.parent
PROBE = ("import gc, json, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings'); "
         "import config.asgi; print(json.dumps([gc.get_threshold(), gc.get_freeze_count()]))")


def _probe(**env) -> tuple[list[int], int]:
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env={**os.environ, **env},
                         capture_output=True, text=True, check=True)
    threshold, frozen = json.loads(out.stdout.strip().splitlines()[-1])
    return threshold, frozen


def test_loading_the_asgi_application_freezes_what_it_loaded():
    threshold, frozen = _probe(GC_TUNING="1")
    assert threshold[0] == gc_tuning.GEN0_THRESHOLD
    assert frozen > 10_000  # Django, the apps and the engine: far more objects than a bare interpreter


def test_gc_tuning_off_keeps_cpythons_defaults():
    threshold, frozen = _probe(GC_TUNING="0")
    assert frozen == 0
    assert threshold[0] == 700  # CPython's default


def test_a_live_game_loaded_with_its_tournament_game_is_not_a_reference_cycle(db):
    """Django caches the reverse one-to-one link on a select_related object; LiveGame's queryset drops it,
    so a loaded pair (with the parsed engine state on it) is freed by reference counting alone."""
    from games.models import LiveGame
    from tests.games.factories import make_tournament_game
    from tournament.services.live_tables import live_game_for

    live_id = live_game_for(make_tournament_game()[0]).pk
    gc.collect()
    gc.disable()
    try:
        live = LiveGame.objects.select_related("game").get(pk=live_id)
        assert live.game.pk  # the forward link is loaded
        assert "live" not in live.game._state.fields_cache
        freed = weakref.ref(live)
        del live
        assert freed() is None  # gone at once, the collector is off

    finally:
        gc.enable()
