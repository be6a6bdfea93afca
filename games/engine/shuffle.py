"""`shuffle`: the same permutation as `random.Random.shuffle` for the same generator state, faster.

`random.shuffle` calls the Python-level `_randbelow` once per card; here its rejection sampling is inlined
with precomputed bit lengths, so a deal for a given seed is unchanged (stored seeds and action logs still
replay) at about a third of the cost.
"""

from __future__ import annotations

import random

_BITS = [n.bit_length() for n in range(1025)]


_STEPS: dict[int, list[tuple[int, int, int]]] = {}


def _steps(size: int) -> list[tuple[int, int, int]]:
    """Fisher-Yates' positions for a list of `size`: (i, i + 1, bits of i + 1), from the end."""
    steps = _STEPS.get(size)
    if steps is None:
        steps = _STEPS[size] = [(i, i + 1, _BITS[i + 1]) for i in range(size - 1, 0, -1)]
    return steps


def shuffle(rng: random.Random, x: list) -> None:
    """Shuffle `x` in place exactly as `rng.shuffle(x)` would (CPython 3.11's Fisher-Yates)."""
    if len(x) > 1024:
        rng.shuffle(x)
        return
    getrandbits = rng.getrandbits
    for i, n, k in _STEPS.get(len(x)) or _steps(len(x)):
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]
