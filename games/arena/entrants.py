"""Loading the bots that take part: a built-in bot by name, or a module exposing `act(view)` given as a
file path or an importable module name. Anything wrong with a student's module is a `BotLoadError` with a
one-line message, never a traceback."""

from __future__ import annotations

import importlib
import importlib.util
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.engine import Action
from games.engine.bots import BOTS, get_bot

from .random_player import RandomPlayer

Act = Callable[[dict[str, Any]], Any]
Pick = Callable[[list[Action]], int]  # the position of a seat's move in `legal_moves(hand)`, on its turn

# Built-in bots that decide from the engine's moves for their seat, never from a view (the others read
# views as a module does): the arena asks them only on their turn and makes their move by position.
PICKERS: dict[str, Callable[[int], RandomPlayer]] = {"random": RandomPlayer}


class BotLoadError(ValueError):
    """A bot that cannot take part; the message says why and where."""


@dataclass(frozen=True)
class Entrant:
    """A bot that takes part: `name` as printed, `builtin` for a built-in bot (a fresh seeded instance per
    game and seat: the arena's random player, or the engine's heuristic bot), else the module's `act`."""

    name: str
    act: Act | None = None
    builtin: str | None = None

    @property
    def reads_views(self) -> bool:
        """Whether it decides from views (`player`) rather than from the engine's moves (`picker`)."""
        return self.builtin not in PICKERS

    def player(self, seed: int) -> Act:
        """The `act(view)` that plays one seat of one game (built-in bots are seeded per seat and game)."""
        if self.builtin is not None:
            return get_bot(self.builtin, seed).act
        assert self.act is not None
        return self.act

    def picker(self, seed: int) -> Pick:
        """A built-in bot that does not read views: its `pick(moves)` for one seat of one game."""
        return PICKERS[self.builtin](seed).pick


_ARENA = str(Path(__file__).resolve().parent)


def where(error: BaseException) -> str:
    """Where in a student's code an exception happened: `file line N` of the innermost frame, and of the
    outermost (their `act`, or their module's top level) when the error came from deeper down (a library
    they called). The arena's own frames and the import machinery's are left out."""
    if isinstance(error, SyntaxError) and error.filename:
        return f"{error.filename} line {error.lineno}"
    frames = [f for f in traceback.extract_tb(error.__traceback__)
              if not f.filename.startswith(_ARENA) and not f.filename.startswith("<frozen importlib")]
    if not frames:
        return "?"
    inner, outer = frames[-1], frames[0]
    text = f"{inner.filename} line {inner.lineno}"
    if outer is not inner:
        text += f", called from {outer.filename} line {outer.lineno}"
    return text


def load(spec: str) -> Entrant:
    """A built-in bot's name, a path to a `.py` file, or an importable module name."""
    if spec in BOTS:
        return Entrant(spec, builtin=spec)
    path = Path(spec)
    if spec.endswith(".py") or path.exists():
        module = _from_file(path)
        name = path.stem
    else:
        module = _from_name(spec)
        name = spec
    act = getattr(module, "act", None)
    if not callable(act):
        raise BotLoadError(f"{spec} has no function act(view): define `def act(view):` returning one of "
                           "view['legal_actions'] (or None)")
    return Entrant(name, act=act)


def _from_file(path: Path) -> Any:
    if not path.is_file():
        raise BotLoadError(f"there is no file {path}; give a bot's .py file, a module name or one of the "
                           f"built-in bots ({', '.join(BOTS)})")
    name = f"arena_bot_{abs(hash(str(path.resolve())))}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise BotLoadError(f"{path} cannot be loaded as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    folder = str(path.resolve().parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)  # so the bot may import its own helper modules next to it
    try:
        spec.loader.exec_module(module)
    except SystemExit:
        del sys.modules[name]
        raise BotLoadError(f"{path} exited while loading: does it run its live loop on import? Put that under "
                           "`if __name__ == \"__main__\":`") from None
    except Exception as error:  # a student's module: report, never a traceback
        del sys.modules[name]
        raise BotLoadError(f"{path} failed to load ({where(error)}): {type(error).__name__}: {error}") from None
    return module


def _from_name(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name and name.startswith(error.name):
            raise BotLoadError(f"no bot '{name}': not a built-in bot ({', '.join(BOTS)}), a file or an "
                               "importable module") from None
        raise BotLoadError(f"{name} failed to load ({where(error)}): {type(error).__name__}: {error}") from None
    except Exception as error:
        raise BotLoadError(f"{name} failed to load ({where(error)}): {type(error).__name__}: {error}") from None
