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


def _probe(code: str = PROBE, **env) -> tuple[list[int], int]:
    """(thresholds, frozen objects) that `code` prints as its last line, run in a fresh interpreter."""
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**os.environ, **env},
                         capture_output=True, text=True, check=True)
    threshold, frozen = json.loads(out.stdout.strip().splitlines()[-1])
    return threshold, frozen


def test_loading_the_asgi_application_freezes_what_it_loaded():
    threshold, frozen = _probe(GC_TUNING="1")
    assert threshold[0] == gc_tuning.GEN0_THRESHOLD
    assert frozen > 10_000  # Django, the apps and the engine: far more objects than a bare interpreter


def test_the_youngest_generations_threshold_comes_from_the_environment():
    threshold, _ = _probe(GC_TUNING="1", GC_GEN0_THRESHOLD="5000")
    assert threshold[0] == 5000


def test_gc_tuning_off_keeps_cpythons_defaults():
    threshold, frozen = _probe(GC_TUNING="0")
    assert frozen == 0
    assert threshold[0] == 700  # CPython's default


SWEEPER_PROBE = (
    "import gc, json, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings'); import django; "
    "django.setup(); from games.management.commands import run_sweeper\n"
    "async def probe(pause):\n    print(json.dumps([gc.get_threshold(), gc.get_freeze_count()]))\n"
    "run_sweeper.sweep_forever = probe\n"
    "from django.core.management import call_command; call_command('run_sweeper')")


def test_the_sweeper_process_collects_as_the_workers_do():
    """`manage.py run_sweeper` is a long-running server process too: its loop starts with the heap frozen and
    no full collection of its own accord."""
    threshold, frozen = _probe(SWEEPER_PROBE, GC_TUNING="1")
    assert threshold == [gc_tuning.GEN0_THRESHOLD, 10, gc_tuning.NO_FULL_OF_ITS_OWN]
    assert frozen > 10_000


class Node:
    """A tracked object that can sit in a reference cycle."""

    def __init__(self) -> None:
        self.other = None


def test_a_cycle_that_dies_old_is_freed_by_the_periodic_full_collection():
    """With generation 2's threshold out of reach the collector makes no full collection of its own; a cycle
    that reached generation 2 before it died is freed by the next periodic one."""
    import gc
    import threading
    import weakref

    before = gc.get_threshold()
    gc.set_threshold(before[0], before[1], gc_tuning.NO_FULL_OF_ITS_OWN)
    stop = threading.Event()
    try:
        a, b = Node(), Node()
        a.other, b.other = b, a
        gone = weakref.ref(a)
        gc.collect(1)
        gc.collect(1)  # survived the younger generations: now in the oldest
        del a, b
        for _ in range(50):  # allocations: the young generations are collected, the oldest is not
            gc.collect(1)
            [[] for _ in range(2000)]
        assert gone() is not None
        thread = threading.Thread(target=gc_tuning.collect_every, args=(0.05, stop), daemon=True)
        thread.start()
        for _ in range(100):
            if gone() is None:
                break
            stop.wait(0.05)
        assert gone() is None
    finally:
        stop.set()
        gc.set_threshold(*before)


def test_the_asgi_application_starts_the_full_collections_and_leaves_none_to_cpython():
    out = subprocess.run([sys.executable, "-c", PROBE.replace(
        "print(json.dumps([gc.get_threshold(), gc.get_freeze_count()]))",
        "import threading; print(json.dumps([gc.get_threshold(), "
        "[t.name for t in threading.enumerate() if t.name == 'full-collections']]))")],
        cwd=ROOT, env={**os.environ, "GC_TUNING": "1"}, capture_output=True, text=True, check=True)
    threshold, threads = json.loads(out.stdout.strip().splitlines()[-1])
    assert threshold[2] == gc_tuning.NO_FULL_OF_ITS_OWN
    assert threads == ["full-collections"]
