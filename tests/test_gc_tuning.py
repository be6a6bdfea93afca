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


class Node:
    """A tracked object that can sit in a reference cycle."""

    def __init__(self) -> None:
        self.other = None


def test_what_survives_a_full_collection_is_frozen_and_a_thaw_frees_its_cycles():
    """After a full collection its survivors are frozen (the next one walks only what was made since); a
    reference cycle among them that becomes garbage is freed by the first full collection after the thaw
    interval, which walks everything once."""
    import gc
    import weakref

    now = [0.0]
    freezer = gc_tuning.SurvivorFreezer(600, clock=lambda: now[0])
    callbacks, frozen_before = list(gc.callbacks), gc.get_freeze_count()
    gc_tuning.install(freezer)
    try:
        a, b = Node(), Node()
        a.other, b.other = b, a  # a cycle: only the collector frees it
        gone = weakref.ref(a)
        gc.collect()
        assert gc.get_freeze_count() > frozen_before  # the survivors, the cycle among them
        del a, b
        gc.collect()
        assert gone() is not None  # frozen: not walked by this collection
        now[0] = 601.0
        gc.collect()
        assert gone() is None  # the thaw: walked and freed
        assert freezer.thaws == 1
        assert gc.get_freeze_count() > 0  # refrozen after it
    finally:
        gc.callbacks[:] = callbacks
        gc.unfreeze()


def test_the_asgi_application_installs_the_freezer():
    out = subprocess.run([sys.executable, "-c", PROBE.replace(
        "print(json.dumps([gc.get_threshold(), gc.get_freeze_count()]))",
        "from config.gc_tuning import SurvivorFreezer; "
        "print(json.dumps([[type(c).__name__ for c in gc.callbacks if isinstance(c, SurvivorFreezer)], 0]))")],
        cwd=ROOT, env={**os.environ, "GC_TUNING": "1"}, capture_output=True, text=True, check=True)
    installed, _ = json.loads(out.stdout.strip().splitlines()[-1])
    assert installed == ["SurvivorFreezer"]
