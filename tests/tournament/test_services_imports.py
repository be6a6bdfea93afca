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


def _module_files(root: Path, package: str) -> dict[str, Path]:
    """Every module of the package at ``root`` by its dotted name (a package by its ``__init__.py``)."""
    names = {}
    for path in root.rglob("*.py"):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join([package, *parts])] = path
    return names


def _with_parents(name: str) -> list[str]:
    """``name`` and the packages above it, which Python imports first."""
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts) + 1)]


def import_graph(root: Path, package: str) -> dict[str, set[str]]:
    """Which modules of the package at ``root`` each of its modules imports: any import statement, at
    module level or inside a function, absolute or relative, with the packages Python imports on the way
    (``from a.b import c`` imports ``a``, ``a.b`` and, when it is a module, ``a.b.c``)."""
    files = _module_files(root, package)
    graph = {}
    for name, path in files.items():
        here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        targets = set(_with_parents(name)[:-1])
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets.update(t for alias in node.names for t in _with_parents(alias.name))
            elif isinstance(node, ast.ImportFrom):
                base = ".".join(here[:len(here) - node.level + 1] + [node.module or ""]).strip(".") \
                    if node.level else node.module
                targets.update(_with_parents(base))
                targets.update(f"{base}.{alias.name}" for alias in node.names)
        graph[name] = {t for t in targets if t in files and t != name}
    return graph


def import_chain(graph: dict[str, set[str]], start: str, goal: str) -> list[str] | None:
    """The shortest chain of imports from ``start`` to ``goal`` (both included), or None."""
    came_from: dict[str, str | None] = {start: None}
    queue = [start]
    for current in queue:
        if current == goal:
            chain = [current]
            while came_from[chain[-1]] is not None:
                chain.append(came_from[chain[-1]])
            return chain[::-1]
        for following in sorted(graph.get(current, ())):
            if following not in came_from:
                came_from[following] = current
                queue.append(following)
    return None


@pytest.mark.parametrize("name", MODULES)
def test_a_service_imports_at_module_level(name):
    assert imports_inside_functions((PACKAGE / f"{name}.py").read_text()) == []


def test_the_check_finds_an_import_in_a_function():
    source = "def start_stage():\n    from tournament.services.rounds import start_round\n"
    assert imports_inside_functions(source) == ["start_stage: tournament.services.rounds"]


def test_the_import_graph_follows_chains_through_functions_and_relative_imports(tmp_path):
    for name, source in {
        "__init__.py": "",
        "a.py": "from .sub import b\n",
        "sub/__init__.py": "",
        "sub/b.py": "def later():\n    import pkg.c\n",
        "c.py": "from pkg import d\n",
        "d.py": "",
        "e.py": "import pkg.a\n",
    }.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(source)
    graph = import_graph(tmp_path, "pkg")
    assert import_chain(graph, "pkg.a", "pkg.d") == ["pkg.a", "pkg.sub.b", "pkg.c", "pkg.d"]
    assert import_chain(graph, "pkg.d", "pkg.a") is None
