"""Compile the rules engine (`games/engine/`) to C extensions with mypyc, in place.

    python tools/compile_engine.py          # build the extensions beside the sources
    python tools/compile_engine.py --clean  # remove them: the pure-Python modules are used again

The engine is plain typed Python; mypyc (mypy's compiler, a well-kept project) turns its modules into
extension modules that Python imports in place of the `.py` files, with the same behaviour (the engine's
tests run against whichever is installed). Without a compiler, or with `--clean`, the `.py` files are what
runs: nothing depends on the compiled modules being there. `make install` runs this after the
requirements and again whenever an engine module changed (Python would otherwise go on importing the
compiled module of an older source: `games/checks.py` warns of that); `bench/engine.py` prints which
engine it measured.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.compiled_engine import ENGINE, STAMP, modules, sources_digest  # noqa: E402

GROUP = "ocho_engine"  # the shared library of the compiled modules: ocho_engine__mypyc.*.so at the top


def clean() -> None:
    for pattern in ("*.so", "*.pyd"):
        for path in [*ENGINE.glob(pattern), *ROOT.glob(f"{GROUP}__mypyc*{pattern[1:]}")]:
            path.unlink()
    STAMP.unlink(missing_ok=True)
    shutil.rmtree(ROOT / "build" / "engine", ignore_errors=True)  # the C sources and objects


def build() -> None:
    from mypyc.build import mypycify
    from setuptools import setup

    os.chdir(ROOT)
    clean()
    names = [str(path.relative_to(ROOT)) for path in modules()]
    print(f"compiling the engine's {len(names)} modules with mypyc (about half a minute)", flush=True)
    setup(
        name="ocho-engine",
        packages=[],
        py_modules=[],
        ext_modules=mypycify(names, opt_level="3", group_name=GROUP, target_dir="build/engine"),
        script_args=["--quiet", "build_ext", "--inplace", "--build-temp", "build/engine/temp",
                     "--build-lib", "build/engine/lib"],
    )
    STAMP.write_text(sources_digest() + "\n")
    print("engine compiled: games/engine/*.so (`python tools/compile_engine.py --clean` removes them)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules")
    args = parser.parse_args()
    if args.clean:
        clean()
    else:
        build()
    return 0


if __name__ == "__main__":
    sys.exit(main())
