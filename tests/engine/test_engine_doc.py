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


def section(title: str) -> str:
    """The text of docs/engine.md under the heading `title`, up to the next heading."""
    text = DOC.read_text()
    start = re.search(rf"^#+ {re.escape(title)}\n", text, re.M)
    assert start, f"docs/engine.md has no section '{title}'"
    rest = text[start.end():]
    end = re.search(r"^#+ ", rest, re.M)
    return rest[:end.start()] if end else rest


def table_names(title: str) -> set[str]:
    """The names in the first column of the tables of a section (`name` rows)."""
    return set(re.findall(r"^\| `(\w+)` \|", section(title), re.M))


def test_every_event_kind_in_the_code_is_in_the_guide():
    from tests.protocol_schema import event_kinds_in_code

    kinds = event_kinds_in_code()
    assert {"played", "drew", "hand_scored", "takeover_started"} <= kinds
    assert table_names("Every event kind") == kinds


def test_every_field_of_a_view_is_in_the_guide():
    from games import engine

    rules = engine.get_preset("uno-official").with_overrides(partners=True, partners_see_hands=True)
    state = engine.new_hand(rules, 4, seed=3)
    fields = set(engine.view_for(state, 0)) | set(engine.spectator_view(state))
    assert table_names("Every field of a view") == fields
    assert set(engine.spectator_view(state)) < set(engine.view_for(state, 0))


def test_every_attribute_of_the_state_is_in_the_guide():
    from games.engine.state import _FIELDS

    assert table_names("The state's attributes") == {*_FIELDS, "rules", "rng"}
