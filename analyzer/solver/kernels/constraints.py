""":func:`analyzer.solver.constraints.build_constraints` on arrays: a board's clues (revealed
numbers with unknown neighbours, in cell order), their unknown neighbours, and the groups
(unknown cells with the same clues) with the clues they sit in.
"""

from __future__ import annotations

import numpy as np

from analyzer.jit import njit

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
    none), and then nothing else is filled in. The arrays are slices of two
    blocks (on a small board each allocation costs more than the work).
    """  # pragma: no cover - compiled
    n = values.shape[0]
    deg = around.shape[1]
    marks = np.zeros(2 * (n + 1), np.bool_)
    unknown = marks[: n + 1]
    flag = marks[n + 1 :]
    known_mines = 0
    for i in range(n):
        v = values[i]
        if v == -1 or (v == -2 and not trust_flags):
            unknown[i] = True
        elif v == -2:
            flag[i] = True
            known_mines += 1
    # One block for the arrays whose size the board gives (n_clues_of, clue_off, group_off
    # and sig_off start at 0, group_of at -1), one for those that follow the clues' cells.
    block = np.empty((9 + deg) * n + 3, np.int64)
    block[: 4 * n + 3] = 0
    n_clues_of = block[:n]
    clue_off = block[n : 2 * n + 1]
    group_off = block[2 * n + 1 : 3 * n + 2]
    sig_off = block[3 * n + 2 : 4 * n + 3]
    t = 4 * n + 3
    group_of = block[t : t + n]
    group_of[:] = -1
    clue_pos = block[t + n : t + 2 * n]
    clue_need = block[t + 2 * n : t + 3 * n]
    group_cells = block[t + 3 * n : t + 4 * n]
    background = block[t + 4 * n : t + 5 * n]
    clues_of = block[t + 5 * n : t + (5 + deg) * n].reshape((n, deg))
    # Clues: revealed numbers with unknown neighbours, numbered in cell order.
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
                empty = block[:0]
                return (i, f, known_mines, empty, empty, empty, empty, empty, empty, empty, empty, empty)
            continue
        clue_pos[n_clues] = i
        clue_need[n_clues] = v - f
        n_cells += u
        n_clues += 1
        clue_off[n_clues] = n_cells
    cells_block = np.empty(2 * n_cells, np.int64)
    clue_cells = cells_block[:n_cells]
    sig_clues = cells_block[n_cells:]
    t = 0
    for c in range(n_clues):
        i = clue_pos[c]
        for k in range(deg):
            j = around[i, k]
            if unknown[j]:
                clue_cells[t] = j
                t += 1
    # Groups: an unknown cell's clues, listed from the clues' side (so ascending);
    # cells with the same clues share the first one, so a group's other cells
    # are among that clue's neighbours.
    for c in range(n_clues):
        for t in range(clue_off[c], clue_off[c + 1]):
            j = clue_cells[t]
            clues_of[j, n_clues_of[j]] = c
            n_clues_of[j] += 1
    n_groups = 0
    n_members = 0
    n_sig = 0
    n_background = 0
    for j in range(n):
        if not unknown[j] or group_of[j] >= 0:
            continue
        m = n_clues_of[j]
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
            sig_clues[n_sig] = clues_of[j, s]
            n_sig += 1
        sig_off[n_groups] = n_sig
        first = clue_pos[clues_of[j, 0]]
        for k in range(deg):
            other = around[first, k]
            if (
                other <= j
                or other >= n
                or not unknown[other]
                or group_of[other] >= 0
                or n_clues_of[other] != m
            ):
                continue
            same = True
            for s in range(1, m):
                if clues_of[other, s] != clues_of[j, s]:
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
