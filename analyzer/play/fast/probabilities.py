"""Compiled (numba) mine probabilities of the fast play engine, in float64, and the single-number rules.

A position is a flat ``int8`` array ``state``: ``-1`` a hidden cell, ``-2`` a
flag (a trusted mine), ``0..8`` a revealed number. Neighbourhoods come from
:func:`analyzer.board.topology.neighbour_array` (``N`` pads a short row), so
every topology the board knows works here too. The other kernel modules of
:mod:`analyzer.play.fast` take positions so, and the codes below.

:func:`probabilities` runs the exact solve's compiled core
(:mod:`analyzer.solver.kernels`) with floats: each number with hidden
neighbours is an equation; hidden cells next to the same numbers form a group
(:func:`~analyzer.solver.kernels.constraints.constraint_arrays`); numbers that share a
group form a component (:func:`~analyzer.solver.kernels.components.split_components`);
each component is enumerated by the solve's own search
(:func:`~analyzer.solver.kernels.enumerate.search_component`, counting in float64) into
layouts by mine count and mines by group; a dynamic programme over mine counts joins the components with
the background, whose weights ``C(B, L - m)`` are taken in log space and
rescaled, so 100x100 boards neither overflow nor underflow the totals. Which
cells are *certainly* safe or mines is decided apart, by exact boolean
feasibility of the same sums, so a rounding error can never make a guess look
safe. The exact engine (:func:`analyzer.solve`) checks these floats in the tests.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from analyzer.jit import njit
from analyzer.solver.kernels.components import split_components
from analyzer.solver.kernels.constraints import constraint_arrays
from analyzer.solver.kernels.enumerate import FLOAT_BINOMIALS as _FLOAT_BINOMIALS
from analyzer.solver.kernels.enumerate import search_component
from analyzer.solver.kernels.join import mine_count_weights
from analyzer.solver.kernels.join import products_of_others as _products

__all__ = ["HIDDEN", "FLAG", "SAFE", "DEFAULT_MAX_NODES", "probabilities"]

HIDDEN = -1
FLAG = -2
SAFE = -3  # internal: a hidden cell the single-number rules proved safe
DEFAULT_MAX_NODES = 2_000_000
"""Search nodes one probability computation may visit before it gives up (status -1)."""

_NO: bool = np.bool_(False)  # type: ignore[assignment]  # numpy's bool, typed for the kernels as bool
"""``False`` for a kernel's boolean argument, typed as plain ``bool``.

numba compiles a kernel once per signature of its call: a literal ``False`` passed by another
kernel is typed ``Literal[bool](False)`` and a left-out default ``omitted(default=False)``, each
a compilation of its own. A variable that starts as a literal (``count = 0``) is first typed as
that literal too, and the kernel it is passed to compiles for it before the loop makes it
``int64``. So kernels call kernels with every argument given, booleans as ``_NO`` or a ``bool``
variable, and integers as ``np.int64(k)`` or a variable that starts so: one signature per kernel.
"""


@njit(cache=True)
def _log_comb(n: int, k: int) -> float:  # pragma: no cover - compiled
    return math.lgamma(n + 1.0) - math.lgamma(k + 1.0) - math.lgamma(n - k + 1.0)


class _Counts(NamedTuple):
    """What :func:`_count_components` finds on a position (see there)."""

    status: int
    group_off: np.ndarray
    group_cells: np.ndarray
    group_size: np.ndarray
    background: np.ndarray
    n_comps: int
    comp_of: np.ndarray
    comp_top: np.ndarray
    comp_start: np.ndarray
    comp_groups: np.ndarray
    layouts: np.ndarray
    group_mines: np.ndarray
    some_mine: np.ndarray
    some_safe: np.ndarray
    possible: np.ndarray
    log_scale: float
    n_solutions: np.ndarray


@njit(cache=True)
def _count_components(state: np.ndarray, nbr: np.ndarray, max_nodes: int, record: np.ndarray) -> _Counts:
    """The shared core on a position: its groups, components and each component's counts, in float64.

    Returns a :class:`_Counts` ``(status, group_off, group_cells, group_size, background,
    n_comps, comp_of, comp_top, comp_start, comp_groups, layouts, group_mines,
    some_mine, some_safe, possible, log_scale, n_solutions)``: ``status`` 1,
    or 0 when no layout fits a number (the rest then describes no
    component), or -1 past ``max_nodes``. Component ``k``'s groups are
    ``comp_groups[comp_start[k]:comp_start[k + 1]]``, its layouts by mine count
    ``layouts[k]`` divided by their largest (``log_scale`` is the sum of the
    logs divided out), its groups' mines by count in the rows of
    ``group_mines``, with exact feasibility in ``some_mine``, ``some_safe``
    and ``possible``. With ``record`` not empty, each component's solutions
    (mines by group) follow one another in it (see
    :func:`~analyzer.solver.kernels.enumerate.search_component`) and ``n_solutions[k]``
    counts component ``k``'s, -1 for every component once they do not fit.
    """  # pragma: no cover - compiled
    stuck, _f, _k, _pos, need, _o, _c, group_off, group_cells, sig_off, sig_clues, outside = (
        constraint_arrays(state, nbr, True)
    )
    status = 1
    if stuck >= 0:
        status = 0
        group_off = np.zeros(1, np.int64)
        sig_off = np.zeros(1, np.int64)
    n_groups = group_off.shape[0] - 1
    n_clues = need.shape[0]
    group_size = np.empty(n_groups, np.int64)
    for g in range(n_groups):
        group_size[g] = group_off[g + 1] - group_off[g]
    live = np.zeros(n_clues, np.int64)  # groups in each clue, and its cells
    room = np.zeros(n_clues, np.int64)
    for g in range(n_groups):
        for t in range(sig_off[g], sig_off[g + 1]):
            live[sig_clues[t]] += 1
            room[sig_clues[t]] += group_size[g]
    free = np.full(n_groups, -1, np.int64)
    n_comps, comp_of, _local, comp_top, comp_start, comp_groups, _eqs_off, _eqs = split_components(
        group_size, free, live, sig_off, sig_clues
    )
    rem = need.copy()
    scratch = np.empty(n_clues, np.int64)
    width = group_off[n_groups] + 1
    lay = np.zeros((max(n_comps, 1), width))
    gmines = np.zeros((max(n_groups, 1), width))
    gpos = np.zeros((max(n_groups, 1), width), np.bool_)
    gneg = np.zeros((max(n_groups, 1), width), np.bool_)
    possible = np.zeros((max(n_comps, 1), width), np.bool_)
    n_sol = np.zeros(max(n_comps, 1), np.int64)
    recorded = 0
    nodes_used = 0
    log_scale = 0.0
    for k in range(n_comps):
        if status <= 0:
            break
        s0 = comp_start[k]
        s1 = comp_start[k + 1]
        visited, solutions = search_component(
            comp_groups[s0:s1],
            group_size,
            sig_off,
            sig_clues,
            live,
            rem,
            room,
            scratch,
            max_nodes - nodes_used,
            _FLOAT_BINOMIALS,
            np.inf,
            lay[k],
            gmines[s0:s1],
            gpos[s0:s1],
            gneg[s0:s1],
            record[recorded:],
        )
        if visited < 0:
            status = -1
            break
        nodes_used += visited
        n_sol[k] = solutions
        recorded += solutions * (s1 - s0)
        top = 0.0
        for m in range(comp_top[k] + 1):
            possible[k, m] = lay[k, m] > 0.0
            if lay[k, m] > top:
                top = lay[k, m]
        if top == 0.0:
            status = 0
            break
        log_scale += math.log(top)
        for m in range(width):
            lay[k, m] /= top
        for t in range(s0, s1):
            for m in range(width):
                gmines[t, m] /= top
    if record.shape[0] == 0 or recorded > record.shape[0]:
        n_sol[:] = -1
    return _Counts(
        status,
        group_off,
        group_cells,
        group_size,
        outside,
        n_comps,
        comp_of,
        comp_top,
        comp_start,
        comp_groups,
        lay,
        gmines,
        gpos,
        gneg,
        possible,
        log_scale,
        n_sol,
    )


@njit(cache=True)
def probabilities(
    position: np.ndarray,
    nbr: np.ndarray,
    total_mines: int,
    prob: np.ndarray,
    max_nodes: int,
    info: np.ndarray,
) -> int:
    """Fill ``prob`` with each hidden cell's mine probability (flags 1, revealed cells -1).

    Returns 1, or 0 when no layout is consistent with the position, or -1 when
    the enumeration passed ``max_nodes`` search nodes (the exact engine, whose
    frontier programme does not enumerate, is the one to ask then). A certainly
    safe cell gets exactly 0.0 and a certain mine exactly 1.0; any other cell
    gets a value strictly between.

    ``info[0]`` receives the natural log of the number of layouts (the
    normalisations undone), so positions can be weighed against each other.

    The single-number rules run first: the mines and safe cells they prove
    leave the equations, which keeps the components small.
    """
    n = position.shape[0]
    state = position.copy()
    if not _closure(state, nbr):
        return 0
    flags = 0
    hidden = 0
    for i in range(n):
        v = state[i]
        prob[i] = -1.0
        if v == FLAG:
            flags += 1
            prob[i] = 1.0
        elif v == SAFE:
            prob[i] = 0.0
        elif v == HIDDEN:
            hidden += 1
    mines_left = total_mines - flags
    if mines_left < 0 or mines_left > hidden:
        return 0
    counts = _count_components(state, nbr, max_nodes, np.zeros(0, np.int64))
    if counts.status <= 0:
        return counts.status
    background = counts.background.shape[0]
    width = counts.layouts.shape[1]
    # ---- combine: prefix/suffix products over components (floats and feasibility)
    full, others, full_ok, others_ok, others_deg = _products(
        counts.layouts, counts.possible, counts.n_comps, counts.comp_top, mines_left
    )
    fl = full.shape[0]
    logw = np.full(fl + 1, -np.inf)
    wmax = -np.inf
    for m in range(fl):
        r = mines_left - m
        if 0 <= r <= background and full_ok[m]:
            logw[m] = _log_comb(background, r)
            if logw[m] > wmax:
                wmax = logw[m]
    if wmax == -np.inf:
        return 0
    w = np.zeros(fl + 1)
    for m in range(fl):
        if logw[m] > -np.inf:
            w[m] = math.exp(logw[m] - wmax)
    total = 0.0
    for m in range(fl):
        total += full[m] * w[m]
    info[0] = math.log(total) + wmax + counts.log_scale
    # background cells
    if background > 0:
        num = 0.0
        any_mine = _NO
        any_safe = _NO
        for m in range(fl):
            if w[m] > 0 or (logw[m] > -np.inf):
                r = mines_left - m
                num += full[m] * w[m] * r / background
                if r > 0:
                    any_mine = True
                if r < background:
                    any_safe = True
        p = num / total
        p = _clamp(p, any_mine, any_safe)
        for t in range(background):
            prob[counts.background[t]] = p
    # frontier groups
    weights = np.zeros(width)
    wok = np.zeros(width, np.bool_)
    w_ok = logw[:fl] > -np.inf
    for k in range(counts.n_comps):
        top = min(counts.comp_top[k], fl - 1)
        mine_count_weights(others, others_ok, others_deg, k, top, counts.possible, w[:fl], w_ok, weights, wok)
        for t in range(counts.comp_start[k], counts.comp_start[k + 1]):
            g = counts.comp_groups[t]
            num = 0.0
            any_mine = _NO
            any_safe = _NO
            for mi in range(top + 1):
                if wok[mi]:
                    num += counts.group_mines[t, mi] * weights[mi]
                    any_mine = any_mine or counts.some_mine[t, mi]
                    any_safe = any_safe or counts.some_safe[t, mi]
            p = _clamp(num / (counts.group_size[g] * total), any_mine, any_safe)
            for u in range(counts.group_off[g], counts.group_off[g + 1]):
                prob[counts.group_cells[u]] = p
    return 1


@njit(cache=True)
def _closure(state: np.ndarray, nbr: np.ndarray) -> bool:  # pragma: no cover - compiled
    """The single-number rules to a fixpoint, in place: proved mines become FLAG, proved safe cells SAFE.

    Returns False when a number cannot be satisfied.
    """
    n = state.shape[0]
    deg = nbr.shape[1]
    changed = True
    while changed:
        changed = False
        for i in range(n):
            v = state[i]
            if v < 0:
                continue
            h = 0
            f = 0
            for k in range(deg):
                j = nbr[i, k]
                if j < n:
                    if state[j] == HIDDEN:
                        h += 1
                    elif state[j] == FLAG:
                        f += 1
            if f > v or v - f > h:
                return False
            if h == 0:
                continue
            mark = SAFE if f == v else FLAG if v - f == h else 0
            if mark:
                for k in range(deg):
                    j = nbr[i, k]
                    if j < n and state[j] == HIDDEN:
                        state[j] = mark
                changed = True
    return True


@njit(cache=True)
def _clamp(p: float, can_be_mine: bool, can_be_safe: bool) -> float:  # pragma: no cover - compiled
    if not can_be_mine:
        return 0.0
    if not can_be_safe:
        return 1.0
    if p <= 0.0:
        return 5e-324
    if p >= 1.0:
        return 1.0 - 1e-16
    return p
