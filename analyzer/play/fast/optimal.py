"""The expectimax of perfect play (:mod:`analyzer.play.optimal`), compiled (numba).

The same search as :class:`~analyzer.play.optimal.OptimalSearch`: a set of
layouts is a ``uint64`` array (bit ``i`` a mine on flat cell ``i``); a view
is an ``int8`` array (``-1`` hidden, ``0..8`` a number); revealing cells
splits the layouts by the numbers they show; a view whose every hidden cell
is a mine, or with at most one layout left, is won outright; otherwise its
value ``W`` is memoised on the least image of the view under the board's
symmetries, and is either the sum over what the certainly safe cells show or
the best guess (cells by how many layouts leave them safe, then by index; a
cell safe in no more layouts than the best found ends the loop).

A view is packed four bits a cell (``number + 1``) into two machine words, so
the compiled search holds boards of at most :data:`MAX_CELLS` cells; the memo
is a typed dictionary from those two words to ``W``.

Values are the same as the numpy search's, always. The number of states can
differ by a few: a state is searched from whichever of its symmetric images
the search meets first, and where two guesses tie, the one with the lower
index in that image is tried first, which may reach other states on the way
to the same value.
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.typed import Dict

from analyzer.jit import njit
from analyzer.play.fast.bits import popcount as _popcount

__all__ = ["MAX_CELLS", "memo_arrays", "memo_from_arrays", "new_memo", "reveal_value"]

MAX_CELLS = 32
"""The most cells the compiled search holds (a view packs into two 64-bit words)."""

_KEY = types.UniTuple(types.uint64, 2)
_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_FOUR = np.uint64(4)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


def new_memo() -> Dict:
    """An empty memo for :func:`reveal_value` (packed canonical view -> ``W``)."""
    return Dict.empty(key_type=_KEY, value_type=types.int64)


@njit(cache=True)
def memo_arrays(memo: Dict) -> tuple[np.ndarray, np.ndarray]:  # pragma: no cover - compiled
    """The memo as arrays (keys ``(n, 2)`` words, values), to pickle it."""
    keys = np.empty((len(memo), 2), np.uint64)
    values = np.empty(len(memo), np.int64)
    for t, (key, value) in enumerate(memo.items()):
        keys[t, 0] = key[0]
        keys[t, 1] = key[1]
        values[t] = value
    return keys, values


@njit(cache=True)
def _fill(memo: Dict, keys: np.ndarray, values: np.ndarray) -> None:  # pragma: no cover - compiled
    for t in range(values.shape[0]):
        memo[(keys[t, 0], keys[t, 1])] = values[t]


def memo_from_arrays(keys: np.ndarray, values: np.ndarray) -> Dict:
    """A memo holding what :func:`memo_arrays` gave."""
    memo = new_memo()
    _fill(memo, keys, values)
    return memo


@njit(cache=True)
def _key(view: np.ndarray, perms: np.ndarray) -> tuple[np.uint64, np.uint64]:  # pragma: no cover - compiled
    """The least packing of the view's images under ``perms`` (rows: ``image[k] = view[perm[k]]``)."""
    n = view.shape[0]
    best_high = _ALL
    best_low = _ALL
    for p in range(perms.shape[0]):
        high = _ZERO
        low = _ZERO
        for k in range(n):
            code = np.uint64(view[perms[p, k]] + 1)
            if k < 16:
                high = (high << _FOUR) | code
            else:
                low = (low << _FOUR) | code
        if high < best_high or (high == best_high and low < best_low):
            best_high = high
            best_low = low
    return best_high, best_low


@njit(cache=True)
def reveal_value(
    view: np.ndarray,
    layouts: np.ndarray,
    cells: np.ndarray,
    nbr: np.ndarray,
    perms: np.ndarray,
    mines: int,
    memo: Dict,
    max_states: int,
) -> int:
    """Layouts perfect play wins after revealing ``cells`` (safe in all ``layouts``); -1 past max_states.

    The layouts are split by the numbers ``cells`` show; each part's view is
    valued as the module says. With no ``cells`` it is ``W(view)`` itself.
    ``nbr[i]`` is cell ``i``'s neighbours as a bit set; ``max_states <= 0``
    means no limit.
    """  # pragma: no cover - compiled
    n = layouts.shape[0]
    if n == 0:
        return 0
    m = cells.shape[0]
    # What the cells show in each layout, packed like a view, then sorted to group equal ones.
    high = np.zeros(n, np.uint64)
    low = np.zeros(n, np.uint64)
    if m == 1:
        # One cell (a guess): its number is the key, and a counting sort (stable, in
        # ascending key, as the sorts below) groups the layouts in one pass.
        around = nbr[cells[0]]
        starts = np.zeros(10, np.int64)
        for t in range(n):
            shown = _popcount(layouts[t] & around)
            high[t] = np.uint64(shown)
            starts[shown + 1] += 1
        for c in range(9):
            starts[c + 1] += starts[c]
        order = np.empty(n, np.int64)
        for t in range(n):
            bucket = np.int64(high[t])
            order[starts[bucket]] = t
            starts[bucket] += 1
    else:
        for t in range(n):
            layout = layouts[t]
            h = _ZERO
            lo = _ZERO
            for k in range(m):
                code = np.uint64(_popcount(layout & nbr[cells[k]]))
                if k < 16:
                    h = (h << _FOUR) | code
                else:
                    lo = (lo << _FOUR) | code
            high[t] = h
            low[t] = lo
        order = np.argsort(low, kind="mergesort")
        order = order[np.argsort(high[order], kind="mergesort")]
    cells_n = view.shape[0]
    total = 0
    start = 0
    while start < n:
        end = start + 1
        first = order[start]
        while end < n and high[order[end]] == high[first] and low[order[end]] == low[first]:
            end += 1
        count = end - start
        part = np.empty(count, np.uint64)
        for t in range(count):
            part[t] = layouts[order[start + t]]
        start = end
        if count == 1:
            total += 1
            continue
        child = view.copy()
        for k in range(m):
            child[cells[k]] = _popcount(part[0] & nbr[cells[k]])
        hidden = 0
        for i in range(cells_n):
            if child[i] < 0:
                hidden += 1
        if hidden == mines:
            total += count
            continue
        key = _key(child, perms)
        if key in memo:
            total += memo[key]
            continue
        if max_states > 0 and len(memo) >= max_states:
            return -1
        union = _ZERO
        for t in range(count):
            union |= part[t]
        safe = np.empty(hidden, np.int64)
        n_safe = 0
        for i in range(cells_n):
            if child[i] < 0 and not (union >> np.uint64(i)) & _ONE:
                safe[n_safe] = i
                n_safe += 1
        if n_safe:
            value = reveal_value(child, part, safe[:n_safe], nbr, perms, mines, memo, max_states)
            if value < 0:
                return -1
        else:
            # A guess: cells by the layouts that leave them safe (most first), then by index.
            candidates = np.empty(hidden, np.int64)
            safe_in = np.empty(hidden, np.int64)
            c = 0
            for i in range(cells_n):
                if child[i] < 0:
                    bit = _ONE << np.uint64(i)
                    s = 0
                    for t in range(count):
                        if not part[t] & bit:
                            s += 1
                    candidates[c] = i
                    safe_in[c] = s
                    c += 1
            rank = np.argsort(-safe_in, kind="mergesort")  # stable: ties stay in index order
            value = -1
            one = np.empty(1, np.int64)
            for r in range(c):
                s = safe_in[rank[r]]
                if s <= value:
                    break
                i = candidates[rank[r]]
                kept = np.empty(s, np.uint64)
                bit = _ONE << np.uint64(i)
                q = 0
                for t in range(count):
                    if not part[t] & bit:
                        kept[q] = part[t]
                        q += 1
                one[0] = i
                v = reveal_value(child, kept, one, nbr, perms, mines, memo, max_states)
                if v < 0:
                    return -1
                if v > value:
                    value = v
        memo[key] = value
        total += value
    return total
