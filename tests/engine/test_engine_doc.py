"""docs/engine.md stays true: its ```python blocks run in order in one namespace, asserts included."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "engine.md"


def python_blocks() -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", DOC.read_text(), re.S | re.M)


def test_the_engine_guide_runs():
    blocks = python_blocks()
    assert len(blocks) >= 10
    namespace: dict = {"__name__": "docs_engine"}
    for number, block in enumerate(blocks, 1):
        try:
            exec(compile(block, f"docs/engine.md python block {number}", "exec"), namespace)
        except Exception as error:
            raise AssertionError(f"python block {number} of docs/engine.md fails:\n{block}") from error


def test_the_guide_names_every_public_name():
    from games import engine

    text = DOC.read_text()
    missing = [name for name in engine.__all__ if not re.search(rf"\b{re.escape(name)}\b", text)]
    assert missing == [], f"docs/engine.md does not mention {missing}"
