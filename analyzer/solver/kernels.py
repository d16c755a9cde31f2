"""Compiled kernels (numba) of the exact pipeline's fixed cost: integer arrays in, integer arrays out.

They do the per-cell work that does not need Python's exact numbers, so that a
small board's solve is not spent in Python loops over its cells: the caller
turns the arrays into the stage's objects. Every count stays a Python ``int``
outside them.

:func:`constraint_arrays` is :func:`analyzer.solver.constraints.build_constraints`
on arrays: the clues (revealed numbers with unknown neighbours, in cell order),
their unknown neighbours (in the neighbour table's order), and the groups
(unknown cells with the same clues, in the order of their first cell, each
ascending) with the clues they sit in.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["constraint_arrays"]


@njit(cache=True)
def constraint_arrays(values: np.ndarray, around: np.ndarray, trust_flags: bool) -> tuple:  # type: ignore[type-arg]
    """The clue equations and groups of a board, as arrays (see the module's docstring).

    ``values``: the board's cells (``int8``: ``-1`` hidden, ``-2`` flag, ``0..8``);
    ``around``: :func:`~analyzer.board.topology.neighbour_array`, rows
    ascending, padded with ``N``. Returns ``(stuck, flags_at_stuck,
    known_mines, clue_pos, clue_need, clue_off, clue_cells, group_off,
    group_cells, sig_off, sig_clues, background)``; ``stuck`` is the first
    number with no unknown neighbour whose flags do not match it (``-1`` if
    none), and then nothing else is filled in.
    """  # pragma: no cover - compiled
    n = values.shape[0]
    deg = around.shape[1]
    unknown = np.zeros(n + 1, np.bool_)
    flag = np.zeros(n + 1, np.bool_)
    known_mines = 0
    for i in range(n):
        v = values[i]
        if v == -1 or (v == -2 and not trust_flags):
            unknown[i] = True
        elif v == -2:
            flag[i] = True
            known_mines += 1
    # Clues: revealed numbers with unknown neighbours, numbered in cell order.
    clue_id = np.full(n, -1, np.int64)
    clue_pos = np.empty(n, np.int64)
    clue_need = np.empty(n, np.int64)
    clue_off = np.zeros(n + 1, np.int64)
    n_clues = 0
    n_cells = 0
    for i in range(n):
        v = values[i]
        if v < 0:
            continue
        u = 0
        f = 0
        for k in range(deg):
            j = around[i, k]
            if unknown[j]:
                u += 1
            elif flag[j]:
                f += 1
        if u == 0:
            if v != f:
                empty = np.zeros(0, np.int64)
                return (i, f, known_mines, empty, empty, empty, empty, empty, empty, empty, empty, empty)
            continue
        clue_id[i] = n_clues
        clue_pos[n_clues] = i
        clue_need[n_clues] = v - f
        n_cells += u
        n_clues += 1
        clue_off[n_clues] = n_cells
    clue_cells = np.empty(n_cells, np.int64)
    t = 0
    for c in range(n_clues):
        i = clue_pos[c]
        for k in range(deg):
            j = around[i, k]
            if unknown[j]:
                clue_cells[t] = j
                t += 1
    # Groups: an unknown cell's clues are its neighbours that are clues (ascending,
    # so in clue order); cells with the same clues share the first one, so a
    # group's other cells are among that clue's neighbours.
    group_of = np.full(n, -1, np.int64)
    group_off = np.zeros(n + 1, np.int64)
    group_cells = np.empty(n, np.int64)
    sig_off = np.zeros(n + 1, np.int64)
    sig_clues = np.empty(n_cells, np.int64)
    background = np.empty(n, np.int64)
    n_groups = 0
    n_members = 0
    n_sig = 0
    n_background = 0
    mine = np.empty(deg, np.int64)
    theirs = np.empty(deg, np.int64)
    for j in range(n):
        if not unknown[j] or group_of[j] >= 0:
            continue
        m = 0
        for k in range(deg):
            i = around[j, k]
            if i < n and clue_id[i] >= 0:
                mine[m] = clue_id[i]
                m += 1
        if m == 0:
            background[n_background] = j
            n_background += 1
            continue
        g = n_groups
        n_groups += 1
        group_of[j] = g
        group_cells[n_members] = j
        n_members += 1
        for s in range(m):
            sig_clues[n_sig] = mine[s]
            n_sig += 1
        sig_off[n_groups] = n_sig
        first = clue_pos[mine[0]]
        for k in range(deg):
            other = around[first, k]
            if other <= j or other >= n or not unknown[other] or group_of[other] >= 0:
                continue
            o = 0
            for kk in range(deg):
                i = around[other, kk]
                if i < n and clue_id[i] >= 0:
                    theirs[o] = clue_id[i]
                    o += 1
            if o != m:
                continue
            same = True
            for s in range(m):
                if theirs[s] != mine[s]:
                    same = False
                    break
            if same:
                group_of[other] = g
                group_cells[n_members] = other
                n_members += 1
        group_off[n_groups] = n_members
    return (
        -1,
        0,
        known_mines,
        clue_pos[:n_clues],
        clue_need[:n_clues],
        clue_off[: n_clues + 1],
        clue_cells,
        group_off[: n_groups + 1],
        group_cells[:n_members],
        sig_off[: n_groups + 1],
        sig_clues[:n_sig],
        background[:n_background],
    )
