"""Bit-set helpers the compiled searches share (numba): a set of cells or layouts is a ``uint64``."""

from __future__ import annotations

import numpy as np

from analyzer.jit import njit

__all__ = ["popcount"]

_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)
_S1 = np.uint64(1)
_S2 = np.uint64(2)
_S4 = np.uint64(4)
_S56 = np.uint64(56)


@njit(cache=True)
def popcount(x: np.uint64) -> int:  # pragma: no cover - compiled
    """The number of set bits of ``x`` (bits summed in pairs, nibbles, then bytes: no loop)."""
    x = x - ((x >> _S1) & _M1)
    x = (x & _M2) + ((x >> _S2) & _M2)
    x = (x + (x >> _S4)) & _M4
    return int((x * _H01) >> _S56)
