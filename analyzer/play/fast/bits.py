"""Bit-set helpers the compiled searches share (numba): a set of cells or layouts is a ``uint64``."""

from __future__ import annotations

import numpy as np

from analyzer.jit import njit

__all__ = ["popcount"]

_ONE = np.uint64(1)


@njit(cache=True)
def popcount(x: np.uint64) -> int:  # pragma: no cover - compiled
    """The number of set bits of ``x``."""
    c = 0
    while x:
        x &= x - _ONE
        c += 1
    return c
