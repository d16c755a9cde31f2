"""A game's hidden mine layout in the fast play engine (numba): drawn, and opened cell by cell.

:func:`select_block` and :func:`positions_to_mask` draw a game's layout as
:func:`analyzer.play.placement.place_mines_sequential` does (selection sampling
over the cells allowed a mine), from draws made by numpy in Python
(:func:`analyzer.play.fast.layout_mask`) or replayed in numba
(:func:`analyzer.play.fast.batch.batch_layout`). :func:`sample_layout` draws a
layout that fits a position instead. :func:`numbers_shown` gives the numbers a
layout shows, and :func:`_open` reveals a cell as the game does, flooding from
zeros. Positions and codes are those of :mod:`analyzer.play.fast.probabilities`.
"""

from __future__ import annotations

import numpy as np

from analyzer.jit import njit
from analyzer.play.fast.candidates import _mark_front
from analyzer.play.fast.probabilities import FLAG, HIDDEN, SAFE, probabilities

__all__ = ["numbers_shown", "select_block", "positions_to_mask", "sample_layout"]


@njit(cache=True)
def _open(
    start: int, is_mine: np.ndarray, count: np.ndarray, nbr: np.ndarray, state: np.ndarray, stack: np.ndarray
) -> int:  # pragma: no cover - compiled
    """Reveal a safe hidden cell and flood-fill from zeros; returns the cells revealed."""
    n = state.shape[0]
    top = 0
    stack[top] = start
    top += 1
    opened = 0
    while top:
        top -= 1
        i = stack[top]
        if state[i] != HIDDEN:
            continue
        state[i] = count[i]
        opened += 1
        if count[i] == 0:
            for k in range(nbr.shape[1]):
                j = nbr[i, k]
                if j < n and state[j] == HIDDEN and not is_mine[j]:
                    stack[top] = j
                    top += 1
    return opened


@njit(cache=True)
def numbers_shown(is_mine: np.ndarray, nbr: np.ndarray) -> np.ndarray:  # pragma: no cover - compiled
    """The number each cell would show on the layout ``is_mine``: the mines around it (``int8``)."""
    n = is_mine.shape[0]
    deg = nbr.shape[1]
    count = np.zeros(n, np.int8)
    for i in range(n):
        if is_mine[i]:
            for k in range(deg):
                j = nbr[i, k]
                if j < n:
                    count[j] += 1
    return count


@njit(cache=True)
def select_block(
    draws: np.ndarray, position: int, left: int, chosen: np.ndarray, count: int
) -> tuple[int, int, int]:
    """One block of selection sampling: cell ``position + t`` takes a mine when ``draws[t] < left``.

    The same decisions as :func:`analyzer.play.placement.place_mines_sequential`
    makes from the same draws. Returns ``(position, left, count)`` after the block.
    """  # pragma: no cover - compiled
    for t in range(draws.shape[0]):
        if draws[t] < left:
            chosen[count] = position
            count += 1
            left -= 1
        position += 1
        if left == 0:
            break
    return position, left, count


@njit(cache=True)
def positions_to_mask(chosen: np.ndarray, count: int, excluded: np.ndarray, mask: np.ndarray) -> None:
    """Mark the cells of the ``count`` chosen positions among the allowed (not excluded) cells."""
    mask[:] = False
    e = 0
    for t in range(count):
        p = chosen[t]
        # the allowed cell at position p is p plus the excluded cells before it
        while e < excluded.shape[0] and excluded[e] - e <= p:
            e += 1
        mask[p + e] = True


@njit(cache=True)
def sample_layout(
    state: np.ndarray, nbr: np.ndarray, mines: int, max_nodes: int, uniforms: np.ndarray, out: np.ndarray
) -> int:  # pragma: no cover - compiled
    """A layout drawn uniformly among those that fit ``state`` (shown numbers, flags, hidden cells).

    The hidden cells next to a shown number are decided in index order, each a
    mine with its probability given the cells decided before it (the chain
    rule: exact but for the floats of :func:`~analyzer.play.fast.probabilities.probabilities`); the mines left
    then go to the other hidden cells uniformly (a partial Fisher-Yates
    shuffle). ``uniforms`` holds numbers in [0, 1), taken in turn, one a
    decision: as many as the cells suffice. Writes the layout into ``out`` (a
    flag is a mine) and returns 1; 0 when no layout fits ``state``, -1 when a
    position was too hard to enumerate within ``max_nodes``.
    """
    n = state.shape[0]
    known = state.copy()
    prob = np.empty(n)
    info = np.zeros(1)
    front = np.zeros(n, np.bool_)
    _mark_front(state, nbr, front)
    used = 0
    while True:
        status = probabilities(known, nbr, mines, prob, max_nodes, info)
        if status <= 0:
            return status
        pick = -1
        for i in range(n):
            if front[i] and known[i] == HIDDEN:
                if prob[i] == 0.0:
                    known[i] = SAFE
                elif prob[i] == 1.0:
                    known[i] = FLAG
                elif pick < 0:
                    pick = i
        if pick < 0:
            break
        known[pick] = FLAG if uniforms[used] < prob[pick] else SAFE
        used += 1
    flags = 0
    rest = np.empty(n, np.int64)
    free = 0
    for i in range(n):
        out[i] = known[i] == FLAG
        if known[i] == FLAG:
            flags += 1
        elif known[i] == HIDDEN:
            rest[free] = i
            free += 1
    for t in range(mines - flags):  # probabilities() said 0 <= mines - flags <= free
        u = t + min(int(uniforms[used] * (free - t)), free - t - 1)
        used += 1
        rest[t], rest[u] = rest[u], rest[t]
        out[rest[t]] = True
    return 1
