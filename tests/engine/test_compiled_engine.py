"""The rules engine compiled with mypyc (`tools/compile_engine.py`, run by `make install`) plays exactly as
its sources do: every preset, hands and whole games with every event, in a process running the compiled
modules and in one running a copy of the sources alone. The compiled modules are current (built from the
sources on disk), and a stale build is reported by a system check."""

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.core import checks

from games import compiled_engine

ROOT = Path(__file__).resolve().parent.parent.parent

# Plays seeded games on every preset with a seeded random policy through `apply` (every event built) and
# through `step`, and prints a digest of everything that came out.
PLAY = r"""
import hashlib, json, random, sys
from games import engine
from games.engine import moves
digest = hashlib.sha256()
def add(value):
    digest.update(json.dumps(value, sort_keys=True, default=repr).encode())
for preset in sorted(engine.PRESETS):
    rules = engine.get_preset(preset)
    for seats in (2, 4):
        for seed in range(12):
            rng = random.Random(seed)
            game, events = engine.Game.start(rules, seats, seed)
            add([e.to_dict() for e in events])
            for _ in range(3000):
                if game.over:
                    break
                hand = game.hand
                if hand.over:
                    add([e.to_dict() for e in game.next_hand()])
                    continue
                legal = engine.legal_actions(hand, hand.turn)
                add([e.to_dict() for e in game.apply(rng.choice(legal))])
            add(game.to_dict())
            state = engine.new_hand(rules, seats, seed=seed)
            legal = engine.legal_moves(state)
            while legal:
                legal = engine.step(state, rng.randrange(len(legal)))
            add(state.to_dict())
print(moves.__file__.endswith(".py"), digest.hexdigest())
"""


def play(cwd: Path) -> tuple[bool, str]:
    out = subprocess.run([sys.executable, "-c", PLAY], cwd=cwd, capture_output=True, text=True, timeout=600,
                         env={**os.environ, "PYTHONPATH": str(cwd)}, check=True).stdout.split()
    return out[0] == "True", out[1]


# Without a C compiler `make install` leaves the engine uncompiled (the documented fallback); CI has one.
NO_COMPILER = not (shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc"))


@pytest.mark.skipif(NO_COMPILER, reason="no C compiler: make install leaves the engine uncompiled")
def test_make_install_compiled_the_engine_from_the_sources_on_disk():
    assert compiled_engine.compiled(), "make install compiles the engine (tools/compile_engine.py)"
    assert compiled_engine.running_compiled()
    assert not compiled_engine.stale()
    assert "games.W002" not in [message.id for message in checks.run_checks()]


@pytest.mark.skipif(NO_COMPILER, reason="no C compiler: make install leaves the engine uncompiled")
def test_the_compiled_engine_plays_as_its_sources(tmp_path):
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "__init__.py").write_text("")
    shutil.copytree(ROOT / "games" / "engine", tmp_path / "games" / "engine",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__", ".compiled"))
    compiled_runs_py, compiled_digest = play(ROOT)
    sources_run_py, sources_digest = play(tmp_path)
    assert not compiled_runs_py and sources_run_py, "one process ran the extensions, the other the sources"
    assert compiled_digest == sources_digest


def test_a_build_from_other_sources_is_reported(tmp_path, monkeypatch):
    stamp = tmp_path / ".compiled"
    monkeypatch.setattr(compiled_engine, "STAMP", stamp)
    monkeypatch.setattr(compiled_engine, "compiled", lambda: True)
    stamp.write_text(compiled_engine.sources_digest())
    assert not compiled_engine.stale()
    assert "games.W002" not in [message.id for message in checks.run_checks()]
    stamp.write_text(hashlib.sha256(b"older sources").hexdigest())
    assert compiled_engine.stale()
    warnings = [message for message in checks.run_checks() if message.id == "games.W002"]
    assert len(warnings) == 1 and "make install" in warnings[0].hint
    stamp.unlink()
    assert compiled_engine.stale()
