"""Dependencies between the apps point one way: `tournament` may import `games`, `games` never imports
`tournament` (it announces with `games.signals`), and neither imports `ratings` (which imports both); and no
import that crosses the apps hides inside a function body. Read from the source with `ast`, so an import anywhere in a module counts, run or not."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APPS = ("games", "tournament")


def modules(app: str) -> list[Path]:
    return sorted(p for p in (ROOT / app).rglob("*.py") if "migrations" not in p.relative_to(ROOT).parts)


def imported_apps(node: ast.AST) -> set[str]:
    """The top-level packages an import statement names (relative imports stay in their own app)."""
    if isinstance(node, ast.Import):
        return {alias.name.split(".")[0] for alias in node.names}
    if isinstance(node, ast.ImportFrom) and not node.level and node.module:
        return {node.module.split(".")[0]}
    return set()


def imports_in(tree: ast.AST) -> list[tuple[int, set[str], bool]]:
    """(line, apps named, inside a function) for every import statement of a module, at any depth."""
    found = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom):
                found.append((child.lineno, imported_apps(child), in_function))
            visit(child, in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda))

    visit(tree, False)
    return found


def parse(path: Path) -> ast.AST:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def test_no_module_of_games_imports_tournament():
    offending = [f"{path.relative_to(ROOT)}:{line}" for path in modules("games")
                 for line, apps, _ in imports_in(parse(path)) if "tournament" in apps]
    assert not offending, f"games imports tournament (send a games.signals signal instead): {offending}"


def test_neither_games_nor_tournament_imports_ratings():
    """`ratings` consumes results (it imports both); the leaderboard's rating column loads its template
    tags by name, never by a Python import."""
    offending = [f"{path.relative_to(ROOT)}:{line}" for app in APPS for path in modules(app)
                 for line, apps, _ in imports_in(parse(path)) if "ratings" in apps]
    assert not offending, f"imports of ratings: {offending}"
    ratings_functions = [f"{path.relative_to(ROOT)}:{line}" for path in modules("ratings")
                         for line, apps, in_function in imports_in(parse(path)) if in_function and apps & set(APPS)]
    assert not ratings_functions, f"ratings imports games or tournament inside a function: {ratings_functions}"


def test_no_function_imports_across_the_apps():
    offending = []
    for app in APPS:
        other = next(a for a in APPS if a != app)
        offending += [f"{path.relative_to(ROOT)}:{line}" for path in modules(app)
                      for line, apps, in_function in imports_in(parse(path)) if in_function and other in apps]
    assert not offending, f"imports across games and tournament inside functions: {offending}"


@pytest.mark.parametrize(("source", "games_imports_tournament", "crosses_in_function"), [
    ("from tournament.models import Game\n", True, False),
    ("def f():\n    import tournament.services.rounds\n", True, True),
    ("class A:\n    def f(self):\n        if x:\n            from tournament import page_notices\n",
     True, True),
    ("def f():\n    from games import engine\n", False, True),
    ("from . import engine\nfrom games.models import LiveGame\n", False, False),
])
def test_the_checks_see_every_kind_of_import(source, games_imports_tournament, crosses_in_function):
    found = imports_in(ast.parse(source))
    assert any("tournament" in apps for _, apps, _ in found) == games_imports_tournament
    assert any(in_function and apps & set(APPS) for _, apps, in_function in found) == crosses_in_function
