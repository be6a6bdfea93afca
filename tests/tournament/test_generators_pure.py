"""The generators package is pure: no Django, no I/O (read from each module's source with ``ast``)."""

import ast
import pkgutil
from pathlib import Path

import pytest

import tournament.generators

PACKAGE = Path(tournament.generators.__file__).parent
MODULES = sorted(info.name for info in pkgutil.iter_modules([str(PACKAGE)]))
FORBIDDEN = {
    "django", "channels", "daphne", "redis", "psycopg", "psycopg2", "requests", "httpx", "asgiref",
    "os", "io", "sys", "pathlib", "shutil", "tempfile", "socket", "subprocess", "sqlite3", "asyncio",
    "urllib", "http", "logging", "csv", "json", "pickle", "shelve", "time", "datetime",
}
IO_CALLS = {"open", "print", "input", "__import__", "exec", "eval"}


def impurities(source: str) -> list[str]:
    """What in ``source`` is not pure: Django or I/O imports, imports outside the package, I/O calls."""
    found = []
    for node in ast.walk(ast.parse(source)):
        modules = []
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            modules = [node.module or ""] if node.level == 0 else [f"relative import of {node.module}"]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in IO_CALLS:
            found.append(f"calls {node.func.id}()")
        for module in modules:
            top = module.split(".")[0]
            if top in FORBIDDEN or module.startswith("relative"):
                found.append(f"imports {module}")
            elif top in ("tournament", "games") and not module.startswith("tournament.generators."):
                found.append(f"imports {module}, outside the pure package")
    return found


def test_the_package_holds_the_generators():
    assert {"brackets", "cuts", "partners", "seating"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_a_generator_imports_no_django_and_no_io(name):
    assert impurities((PACKAGE / f"{name}.py").read_text()) == [], f"tournament.generators.{name} is not pure"


@pytest.mark.parametrize("source", [
    "from django.db import models", "import os.path", "from tournament.models import Game",
    "from games.engine import new_hand", "from . import seating", "text = open('x').read()",
])
def test_the_check_finds_what_is_not_pure(source):
    assert impurities(source)


def test_the_check_passes_pure_code():
    assert impurities("import random\nfrom tournament.generators.seating import table_sizes\n") == []
