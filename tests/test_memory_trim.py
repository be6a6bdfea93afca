"""Freed memory goes back to the system (config/memory_trim.py): the trim itself, when it is due, and the
thread the ASGI application starts, each in a fresh interpreter where it changes the process."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from config import memory_trim

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(memory_trim._malloc_trim() is None, reason="the C library is not glibc")

FRAGMENTED = """
import json, random
from config import memory_trim
random.seed(1)
blocks = []
for i in range(150_000):  # larger blocks (glibc's malloc, not CPython's arenas) and small objects between
    blocks.append("x" * random.randint(600, 6000) + str(i))
    blocks.append({"i": i, "l": [i] * 8})
for i in range(0, len(blocks), 3):  # a third freed, scattered through the heap
    blocks[i] = None
before = memory_trim.rss_mib()
trimmed = memory_trim.trim_now()
print(json.dumps([trimmed, before, memory_trim.rss_mib()]))
"""


def test_a_trim_gives_freed_memory_in_the_middle_of_the_heap_back():
    out = subprocess.run([sys.executable, "-c", FRAGMENTED], cwd=ROOT, capture_output=True, text=True, check=True)
    trimmed, before, after = json.loads(out.stdout.strip().splitlines()[-1])
    assert trimmed
    assert before - after > 20  # MiB: without the trim glibc keeps them all


def test_a_trim_is_due_once_the_process_grew_or_a_while_passed():
    assert not memory_trim.due(100.0, 95.0, now=10.0, then=5.0, every=30.0)
    assert memory_trim.due(100.0 + memory_trim.GROWN_MIB, 100.0, now=10.0, then=9.0, every=30.0)
    assert memory_trim.due(100.0, 100.0, now=40.0, then=9.0, every=30.0)


PROBE = ("import os, threading; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings'); "
         "import config.asgi; print(sorted(t.name for t in threading.enumerate() if t.name == 'malloc-trim'))")


@pytest.mark.parametrize(("seconds", "threads"), [("30", "['malloc-trim']"), ("0", "[]")])
def test_the_asgi_application_starts_the_trimming_thread_unless_turned_off(seconds, threads):
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, check=True,
                         env={**os.environ, "MALLOC_TRIM_SECONDS": seconds})
    assert out.stdout.strip().splitlines()[-1] == threads
