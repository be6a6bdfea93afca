"""Moves by index, for simulations and benchmarks: `legal_moves(state)` lists what the seat on turn may do,
`step(state, i)` makes the i-th of those moves, without building events.

A policy reads the list (plays first, as `legal_actions` orders them) and picks an index. `step` is
`apply(state, legal_moves(state)[i], events=False)`: the same move and the same resulting state, with the
listed action applied without checking it again.
"""

from __future__ import annotations

from .actions import Draw, Play
from .errors import IllegalAction
from .legal import legal_moves
from .play import _TRUSTED, _quiet, quiet_draw, quiet_play
from .state import OVER, HandState

__all__ = ["legal_moves", "step"]


def step(state: HandState, index: int) -> None:
    """Make the `index`-th move of `legal_moves(state)`; `IllegalAction` (state unchanged) for an index
    out of range. The list `legal_moves` last returned for this very state is reused, else computed."""
    offered = state.offered
    if not offered or offered[0].seat != state.turn:
        offered = legal_moves(state)
    if type(index) is not int or not 0 <= index < len(offered):
        if state.phase == OVER:
            raise IllegalAction("the hand is over")
        raise IllegalAction(f"there is no move {index!r}: the seat on turn has {len(offered)} (0 to "
                            f"{len(offered) - 1})")
    action = offered[index]
    state.offered = None
    kind = type(action)
    if kind is Play:
        quiet_play(state, action)
    elif kind is Draw:
        quiet_draw(state, action)
    else:
        _quiet(_TRUSTED[kind], state, action)
