"""Services import at module level: an import inside a function hides a cycle between modules.

The tournament services depend on each other one way (``rounds`` ← ``bracket_stages`` ← ``advancing`` ←
``game_end`` ← ``game_status`` / ``results``); a module that needs one above it is in the wrong place.
"""

import ast
import pkgutil
from pathlib import Path

import pytest

import tournament.services

PACKAGE = Path(tournament.services.__file__).parent
MODULES = sorted(info.name for info in pkgutil.iter_modules([str(PACKAGE)]))


def imports_inside_functions(source: str) -> list[str]:
    """The imports written inside a function or method body of ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Import):
                    found.extend(f"{node.name}: {alias.name}" for alias in inner.names)
                elif isinstance(inner, ast.ImportFrom):
                    found.append(f"{node.name}: {inner.module}")
    return found


@pytest.mark.parametrize("name", MODULES)
def test_a_service_imports_at_module_level(name):
    assert imports_inside_functions((PACKAGE / f"{name}.py").read_text()) == []


def test_the_check_finds_an_import_in_a_function():
    source = "def start_stage():\n    from tournament.services.rounds import start_round\n"
    assert imports_inside_functions(source) == ["start_stage: tournament.services.rounds"]
