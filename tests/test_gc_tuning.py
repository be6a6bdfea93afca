"""The server's garbage-collection set-up (config/gc_tuning.py), checked in a fresh interpreter: freezing
changes the process it runs in, so not in the test process itself."""

import json
import os
import subprocess
import sys
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
