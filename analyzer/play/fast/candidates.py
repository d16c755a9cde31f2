"""The guess order of the fast play engine's players, and the expert's candidates taken in it (numba).

The guess order: the lowest mine probability first, ties (within 1e-12) to the
cell with the fewest unrevealed neighbours, then the lowest index. The
``probabilistic`` player guesses its first cell (:func:`lowest_probability_cell`);
the ``expert`` player scores the first few within a margin of the lowest
probability (:func:`_guess_candidates`), or those of the front and some off it
(:func:`_split_candidates`). Positions and codes are those of
:mod:`analyzer.play.fast.probabilities`; ``prob`` is what
:func:`~analyzer.play.fast.probabilities.probabilities` fills.
"""

from __future__ import annotations

import numpy as np

from analyzer.jit import njit
from analyzer.play.fast.probabilities import HIDDEN

__all__ = ["lowest_probability_cell"]


@njit(cache=True)
def _unrevealed_neighbours(state: np.ndarray, nbr: np.ndarray, i: int) -> int:  # pragma: no cover - compiled
    n = state.shape[0]
    c = 0
    for k in range(nbr.shape[1]):
        j = nbr[i, k]
        if j < n and state[j] < 0:
            c += 1
    return c


@njit(cache=True)
def lowest_probability_cell(state: np.ndarray, nbr: np.ndarray, prob: np.ndarray) -> int:
    """The hidden cell of lowest probability; ties (1e-12) to fewest unrevealed neighbours, then index.

    The first hidden cell in the guess order (:func:`_take_in_guess_order`); -1 when none is hidden.
    """  # pragma: no cover - compiled
    pool = state == HIDDEN
    first = np.empty(1 if pool.any() else 0, np.int64)
    _take_in_guess_order(state, nbr, prob, pool, first, first.shape[0])
    return first[0] if first.shape[0] > 0 else -1


@njit(cache=True)
def _margin_limit(state: np.ndarray, prob: np.ndarray, margin: float) -> float:  # pragma: no cover - compiled
    """The highest probability a candidate may have: ``margin`` above the lowest of the hidden cells."""
    lowest = 2.0
    for i in range(state.shape[0]):
        if state[i] == HIDDEN and prob[i] < lowest:
            lowest = prob[i]
    return lowest + margin + 1e-12


@njit(cache=True)
def _guess_candidates(
    state: np.ndarray,
    nbr: np.ndarray,
    prob: np.ndarray,
    margin: float,
    candidates: int,
    alike_once: bool = False,
) -> np.ndarray:  # pragma: no cover - compiled
    """The first ``candidates`` hidden cells in the guess order within ``margin`` of the lowest probability.

    The guess order: probability, ties within 1e-12 to fewest unrevealed
    neighbours, then index. With ``alike_once``, cells alike count once: of
    the cells far from every number (:func:`_far_cells`) with the same number
    of neighbours, only the first (the lowest index: they are equally likely
    and all their neighbours are unrevealed) is taken.
    """
    n = state.shape[0]
    limit = _margin_limit(state, prob, margin)
    within = np.zeros(n, np.bool_)
    left = 0
    for i in range(n):
        if state[i] == HIDDEN and prob[i] <= limit:
            within[i] = True
            left += 1
    if alike_once:
        far = _far_cells(state, nbr)
        first = np.zeros(nbr.shape[1] + 1, np.bool_)  # a far cell of this neighbourhood size is taken
        for i in range(n):
            if within[i] and far[i] >= 0:
                if first[far[i]]:
                    within[i] = False
                    left -= 1
                else:
                    first[far[i]] = True
    cands = np.empty(min(candidates, left), np.int64)
    _take_in_guess_order(state, nbr, prob, within, cands, cands.shape[0])
    return cands


@njit(cache=True)
def _far_cells(state: np.ndarray, nbr: np.ndarray) -> np.ndarray:  # pragma: no cover - compiled
    """Each cell's number of neighbours if it is *far* (it and every neighbour of it hidden and next to
    no revealed cell), else -1.

    Far cells with as many neighbours are alike: what revealing one can show, and
    what follows, is the same for each (:func:`_outlooks` solves one of them).
    """
    n = state.shape[0]
    deg = nbr.shape[1]
    near = np.zeros(n, np.bool_)  # revealed, or next to a revealed cell
    for i in range(n):
        if state[i] >= 0:
            near[i] = True
            for k in range(deg):
                j = nbr[i, k]
                if j < n:
                    near[j] = True
    far = np.full(n, -1, np.int64)
    for i in range(n):
        if state[i] != HIDDEN or near[i]:
            continue
        size = 0
        for k in range(deg):
            j = nbr[i, k]
            if j < n:
                size += 1
                if near[j] or state[j] != HIDDEN:
                    size = -1
                    break
        far[i] = size
    return far


@njit(cache=True)
def _take_in_guess_order(
    state: np.ndarray, nbr: np.ndarray, prob: np.ndarray, pool: np.ndarray, cands: np.ndarray, take: int
) -> None:  # pragma: no cover - compiled
    """Fill ``cands[:take]`` with the first cells of ``pool`` in the guess order, taking them out of it.

    The guess order: probability, ties within 1e-12 to fewest unrevealed
    neighbours, then index.
    """
    n = state.shape[0]
    for count in range(take):
        best = -1
        best_p = 2.0
        best_u = 99
        for i in range(n):
            if not pool[i]:
                continue
            p = prob[i]
            if p < best_p - 1e-12:
                best, best_p, best_u = i, p, _unrevealed_neighbours(state, nbr, i)
            elif p <= best_p + 1e-12:
                u = _unrevealed_neighbours(state, nbr, i)
                if u < best_u:
                    best, best_p, best_u = i, min(p, best_p), u
        pool[best] = False
        cands[count] = best


@njit(cache=True)
def _mark_front(state: np.ndarray, nbr: np.ndarray, front: np.ndarray) -> None:  # pragma: no cover - compiled
    """Set ``front`` at each hidden cell next to a shown number (the others left as they are)."""
    n = state.shape[0]
    for i in range(n):
        if state[i] >= 0:
            for k in range(nbr.shape[1]):
                j = nbr[i, k]
                if j < n and state[j] == HIDDEN:
                    front[j] = True


@njit(cache=True)
def _split_candidates(
    state: np.ndarray, nbr: np.ndarray, prob: np.ndarray, margin: float, candidates: int, offedge: int
) -> np.ndarray:  # pragma: no cover - compiled
    """Candidates from the front and from off it, each within ``margin`` of the lowest probability.

    The first ``candidates`` cells next to a revealed number in the guess order
    (:func:`_guess_candidates`), then the first ``offedge`` cells next to none
    (all equally likely) by the number of their neighbours that are next to a
    revealed number, most first (what they show overlaps what is known),
    then fewest unrevealed neighbours, then index.
    """
    n = state.shape[0]
    deg = nbr.shape[1]
    limit = _margin_limit(state, prob, margin)
    edge = np.zeros(n, np.bool_)
    _mark_front(state, nbr, edge)
    on = np.zeros(n, np.bool_)  # the hidden cells within the margin: on the front, and off it
    off = np.zeros(n, np.bool_)
    for i in range(n):
        if state[i] == HIDDEN and prob[i] <= limit:
            on[i] = edge[i]
            off[i] = not edge[i]
    take_on = min(candidates, int(np.count_nonzero(on)))
    take_off = min(offedge, int(np.count_nonzero(off)))
    cands = np.empty(take_on + take_off, np.int64)
    _take_in_guess_order(state, nbr, prob, on, cands, take_on)
    count = take_on
    touching = np.zeros(n, np.int64)
    for i in range(n):
        if off[i]:
            for k in range(deg):
                j = nbr[i, k]
                if j < n and edge[j]:
                    touching[i] += 1
    while count < take_on + take_off:
        best = -1
        best_t = -1
        best_u = 99
        for i in range(n):
            if not off[i]:
                continue
            t = touching[i]
            if t > best_t:
                best, best_t, best_u = i, t, _unrevealed_neighbours(state, nbr, i)
            elif t == best_t:
                u = _unrevealed_neighbours(state, nbr, i)
                if u < best_u:
                    best, best_u = i, u
        off[best] = False
        cands[count] = best
        count += 1
    return cands
