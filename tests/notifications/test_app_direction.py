"""The notifications app listens to `tournament` and `games`; neither imports it (they send signals)."""

from __future__ import annotations

from tests.test_app_dependencies import ROOT, imports_in, modules, parse


def test_neither_games_nor_tournament_imports_notifications():
    offending = [f"{path.relative_to(ROOT)}:{line}" for app in ("games", "tournament") for path in modules(app)
                 for line, apps, _ in imports_in(parse(path)) if "notifications" in apps]
    assert not offending, f"imports of the notifications app (send a signal instead): {offending}"
