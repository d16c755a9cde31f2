"""A small board solved in one compiled call, every stage up to the join (:func:`board_solution`),
and its packed counts read back as lists (:func:`unpack_board_counts`).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from analyzer.jit import njit
from analyzer.solver.kernels.components import component_equations, split_components
from analyzer.solver.kernels.constraints import constraint_arrays
from analyzer.solver.kernels.deduction import closure
from analyzer.solver.kernels.enumerate import (
    _OVERFLOW_GUARD,
    BINOMIALS,
    ENUMERATION_BUDGET,
    MAX_COMPILED_CELLS,
    _count_arrays,
    search_component,
)
from analyzer.solver.kernels.frontier import FRONTIER_OVERFLOW, frontier_component
from analyzer.solver.kernels.join import mine_count_weights, products_of_others

__all__ = ["BoardCounts", "board_solution", "BOARD_JOINED", "JOIN_BITS", "unpack_board_counts"]


#: :func:`board_solution` searches a component within so many nodes first (about 0.5 ms: 20 to 35 ns a node),
#: then sweeps it with the frontier programme (0.15 to 0.7 us a state): one of at most
#: :data:`~analyzer.solver.kernels.enumerate.MAX_COMPILED_CELLS` cells within so many states; only then does
#: it search the component within its whole node budget. Chosen on the components of 6 to 59 cells past 4,096
#: nodes of 660 random boards (16x16/51 and 30x16/99 layouts showing their 3s or 2s, 7x7 lattices, expert
#: mid-games): their time falls to a third in all, none takes more than 1.5 times as long as before.
FIRST_SEARCH_NODES = 16_384
FIRST_FRONTIER_STATES = 4096

#: :func:`board_solution` statuses: counted, or why the general pipeline must take the board.
BOARD_COUNTED, BOARD_STUCK, BOARD_CONFLICT, BOARD_TOO_LARGE, BOARD_NO_LAYOUT = 0, 1, 2, 3, 4


class _Counted(NamedTuple):
    """What :func:`_board_arrays` finds: a status, and where it is :data:`BOARD_COUNTED` the counts
    :func:`_pack_counts` packs (in its order)."""

    status: int | np.int64
    known_mines: int | np.int64
    n_background: int | np.int64
    cell_slot: np.ndarray
    sizes: np.ndarray
    fixed: np.ndarray
    comp_of: np.ndarray
    top: np.ndarray
    layouts: np.ndarray
    comp_off: np.ndarray
    group_mines: np.ndarray
    gm_off: np.ndarray


# Kernels pass kernels np.int64 / np.bool_ values rather than literals: a literal argument is a
# signature of its own, compiled apart (see analyzer.play.fast.probabilities._NO).
@njit(cache=True)
def _failed(status: int) -> _Counted:
    """:func:`_board_arrays`' answer when the general path takes the board."""  # pragma: no cover - compiled
    none = np.zeros(0, np.int64)
    return _Counted(status, np.int64(0), np.int64(0), none, none, none, none, none, none, none, none, none)


@njit(cache=True)
def _board_arrays(
    values: np.ndarray,
    around: np.ndarray,
    trust_flags: bool,
    max_cells: int,
    max_nodes: int,
    max_large_nodes: int,
    max_board_nodes: int,
    max_frontier_states: int,
    max_frontier_coefficients: int,
) -> tuple:  # type: ignore[type-arg]
    """The whole pipeline up to the combination, for boards whose components are small.

    The clues and groups (:func:`~analyzer.solver.kernels.constraints.constraint_arrays`), the single-clue and
    subset rules to their fixpoint (:func:`~analyzer.solver.kernels.deduction.closure`), the components of the
    groups left free (union-find over the clues that still hold them) and each component's counts by mine
    number (:func:`~analyzer.solver.kernels.enumerate.search_component`, exact in 64 bits, within
    ``max_nodes`` search nodes, or ``max_large_nodes`` for a component of more than
    :data:`~analyzer.solver.kernels.enumerate.MAX_COMPILED_CELLS` cells: large components are mostly tangled
    ones; none of more than ``max_cells`` cells, declined before its counts' arrays, which grow as its groups
    times its cells, are made). A component past :data:`FIRST_SEARCH_NODES` nodes is swept by
    :func:`~analyzer.solver.kernels.frontier.frontier_component` (within :data:`FIRST_FRONTIER_STATES` states
    first when it has at most :data:`~analyzer.solver.kernels.enumerate.MAX_COMPILED_CELLS` cells, then again
    past its node budget), within ``max_frontier_coefficients`` counts and what is left of
    ``max_frontier_states`` states for the whole board (0: never).

    Returns ``(status, known_mines, background, cell_slot, sizes, fixed, comp_of,
    top, layouts, comp_off, group_mines, gm_off)`` (:func:`_pack_counts` says what
    each holds). ``status`` is :data:`BOARD_COUNTED`, or why the general pipeline
    must take the board, the arrays empty then: a number whose flags cannot match
    it (:data:`BOARD_STUCK`), rules that meet a contradiction
    (:data:`BOARD_CONFLICT`), a component of more than ``max_cells`` cells, past
    its node budget or whose counts would pass 64 bits, or components of more than
    ``max_board_nodes`` search nodes in all (:data:`BOARD_TOO_LARGE`), a component
    with no layout (:data:`BOARD_NO_LAYOUT`).
    """  # pragma: no cover - compiled
    n = values.shape[0]
    (
        stuck,
        _flags_at_stuck,
        known_mines,
        _clue_pos,
        clue_need,
        _clue_off,
        _clue_cells,
        group_off,
        group_cells,
        sig_off,
        sig_clues,
        background,
    ) = constraint_arrays(values, around, trust_flags)
    if stuck >= 0:
        return _failed(np.int64(BOARD_STUCK))
    n_groups = group_off.shape[0] - 1
    n_clues = clue_need.shape[0]
    # Few allocations (each costs a small board more than its work): slices of blocks.
    block = np.empty(n + 2 * n_groups, np.int64)
    cell_slot = block[:n]
    cell_slot[:] = -1
    sizes = block[n : n + n_groups]
    for g in range(n_groups):
        sizes[g] = group_off[g + 1] - group_off[g]
    fixed = block[n + n_groups :]
    fixed[:] = -1
    ok, left, live, c_off, c_groups = closure(sizes, sig_off, sig_clues, clue_need, fixed)
    if not ok:
        return _failed(np.int64(BOARD_CONFLICT))
    n_comps, comp_of, local, cells, n_members, members, n_eqs, eqs = split_components(
        sizes, fixed, live, sig_off, sig_clues
    )
    for g in range(n_groups):
        if comp_of[g] >= 0 and (sizes[g] > 8 or cells[comp_of[g]] > max_cells):
            return _failed(np.int64(BOARD_TOO_LARGE))  # no neighbourhood makes a group of 9
    offsets = np.zeros(2 * n_comps + n_groups + 2 * n_clues + 2, np.int64)
    comp_off = offsets[: n_comps + 1]
    for k in range(n_comps):
        comp_off[k + 1] = comp_off[k] + cells[k] + 1
    gm_off = offsets[n_comps + 1 : n_comps + n_groups + 2]
    for g in range(n_groups):
        gm_off[g + 1] = gm_off[g] + (cells[comp_of[g]] + 1 if comp_of[g] >= 0 else 0)
    t = n_comps + n_groups + 2
    room = offsets[t : t + n_clues]
    scratch = offsets[t + n_clues : t + 2 * n_clues]
    top = offsets[t + 2 * n_clues :]
    counts = np.zeros(comp_off[n_comps] + gm_off[n_groups], np.int64)
    layouts = counts[: comp_off[n_comps]]
    group_mines = counts[comp_off[n_comps] :]
    for c in range(n_clues):
        for t in range(c_off[c], c_off[c + 1]):
            if fixed[c_groups[t]] < 0:
                room[c] += sizes[c_groups[t]]
    no_flags = np.zeros((0, 0), np.bool_)
    no_record = np.zeros(0, np.int64)
    used = 0
    swept = 0
    for k in range(n_comps):
        groups = members[n_members[k] : n_members[k + 1]]
        small = cells[k] <= MAX_COMPILED_CELLS
        budget = min(max_nodes if small else max_large_nodes, max_board_nodes - used)
        # A component is searched within FIRST_SEARCH_NODES first; past them, the frontier
        # programme sweeps it (a small one within FIRST_FRONTIER_STATES, a large one within the
        # states the board has left); past those, it is searched within its whole budget and a
        # small one last swept within the states the board has left. A long chain-like component
        # (many layouts, a narrow sweep) can take the search its whole budget where the sweep
        # counts it in a few hundred states; a tangle of few layouts, the other way round.
        step = min(budget, FIRST_SEARCH_NODES) if swept < max_frontier_states else budget
        tried = 0
        while True:
            lay, gm = _count_arrays(sizes[groups])
            nodes, _solutions = search_component(
                groups,
                sizes,
                sig_off,
                sig_clues,
                live,
                left,
                room,
                scratch,
                step,
                BINOMIALS,
                _OVERFLOW_GUARD,
                lay,
                gm,
                no_flags,
                no_flags,
                no_record,
            )
            if nodes != ENUMERATION_BUDGET:
                break
            cap = max_frontier_states - swept
            if step < budget and small:
                cap = min(cap, FIRST_FRONTIER_STATES)
            if cap > tried:
                # A tangled component: the frontier programme, within the states the board has left.
                eq_off, eq_groups, rhs = component_equations(
                    eqs[n_eqs[k] : n_eqs[k + 1]], live, left, c_off, c_groups, fixed, local
                )
                states, _solutions, swept_lay, swept_gm = frontier_component(
                    sizes[groups], eq_off, eq_groups, rhs, cap, max_frontier_coefficients
                )
                if states >= 0:
                    swept += states
                    nodes = 0
                    lay = swept_lay
                    gm = swept_gm
                    break
                # Past its budget, or (whatever the budget) a count past 64 bits.
                tried = max_frontier_states if states == FRONTIER_OVERFLOW else cap
            if step >= budget:
                break
            step = budget
        used += nodes
        if nodes < 0 or used > max_board_nodes:
            return _failed(np.int64(BOARD_TOO_LARGE))
        some = False
        for m in range(lay.shape[0]):
            layouts[comp_off[k] + m] = lay[m]
            if lay[m] != 0:
                some = True
        if not some:
            return _failed(np.int64(BOARD_NO_LAYOUT))
        for h in range(groups.shape[0]):
            g = groups[h]
            for m in range(lay.shape[0]):
                group_mines[gm_off[g] + m] = gm[h, m]
    for i in range(n):
        if values[i] == -2 and trust_flags:
            cell_slot[i] = -2
    for g in range(n_groups):
        for t in range(group_off[g], group_off[g + 1]):
            cell_slot[group_cells[t]] = g
    for t in range(background.shape[0]):
        cell_slot[background[t]] = -3
    # Each component's counts end at its largest mine count with a layout.
    for k in range(n_comps):
        for m in range(comp_off[k], comp_off[k + 1]):
            if layouts[m] != 0:
                top[k] = m - comp_off[k]
    return _Counted(
        np.int64(BOARD_COUNTED),
        known_mines,
        background.shape[0],
        cell_slot,
        sizes,
        fixed,
        comp_of,
        top,
        layouts,
        comp_off,
        group_mines,
        gm_off,
    )


@njit(cache=True)
def _pack_counts(
    known_mines: int,
    n_background: int,
    cell_slot: np.ndarray,
    sizes: np.ndarray,
    fixed: np.ndarray,
    comp_of: np.ndarray,
    top: np.ndarray,
    layouts: np.ndarray,
    comp_off: np.ndarray,
    group_mines: np.ndarray,
    gm_off: np.ndarray,
) -> np.ndarray:  # pragma: no cover - compiled
    """The counts of :func:`_board_arrays` as one array (boxing each array costs more than the work
    on a small board), which :func:`unpack_board_counts` reads.

    One after the other: ``known_mines``, the number of background cells, of groups
    ``G``, of components ``K`` and of cells ``n``; ``cell_slot`` (``n``: ``-1`` revealed,
    ``-2`` trusted flag, ``-3`` background, else the cell's group); each group's size,
    ``fixed`` (the mines the rules fixed in it, ``-1`` while free) and component (``-1``
    if fixed); each component's top, its largest mine count with a layout; each
    component's layouts by mine number (``0..top``); and for each free group, in group
    order, its mines summed over its component's layouts, by the component's mine number
    (``0..top``).
    """
    n = cell_slot.shape[0]
    n_groups = sizes.shape[0]
    n_comps = top.shape[0]
    # One array out (boxing each array costs more than the work on a small board).
    n_poly = 0
    for k in range(n_comps):
        n_poly += top[k] + 1
    n_free = 0
    for g in range(n_groups):
        if comp_of[g] >= 0:
            n_free += top[comp_of[g]] + 1
    packed = np.empty(5 + n + 3 * n_groups + n_comps + n_poly + n_free, np.int64)
    packed[0] = known_mines
    packed[1] = n_background
    packed[2] = n_groups
    packed[3] = n_comps
    packed[4] = n
    t = 5
    packed[t : t + n] = cell_slot
    t += n
    packed[t : t + n_groups] = sizes
    t += n_groups
    packed[t : t + n_groups] = fixed
    t += n_groups
    packed[t : t + n_groups] = comp_of
    t += n_groups
    packed[t : t + n_comps] = top
    t += n_comps
    for k in range(n_comps):
        for m in range(top[k] + 1):
            packed[t] = layouts[comp_off[k] + m]
            t += 1
    for g in range(n_groups):
        k = comp_of[g]
        if k >= 0:
            for m in range(top[k] + 1):
                packed[t] = group_mines[gm_off[g] + m]
                t += 1
    return packed


#: :func:`board_solution` joined the counts itself: ``out`` holds the answer.
BOARD_JOINED = 5

#: :func:`board_solution` joins in 64-bit integers while every number of the join is below
#: ``2**JOIN_BITS``: then each is exact, and so is each as a float (53 bits), so a
#: probability's float is its fraction's correctly rounded value.
JOIN_BITS = 52


@njit(cache=True)
def board_solution(
    values: np.ndarray,
    around: np.ndarray,
    trust_flags: bool,
    mines: int,
    join_bits: int,
    max_cells: int,
    max_nodes: int,
    max_large_nodes: int,
    max_board_nodes: int,
    max_frontier_states: int,
    max_frontier_coefficients: int,
) -> tuple:  # type: ignore[type-arg]
    """The whole pipeline in one compiled call for boards whose components are small (:func:`_board_arrays`),
    the join under the mine total included where its numbers are small.

    Returns ``(status, total, known_mines, background, fixed_mines, n_slots, out)``: one
    array (each array a compiled function hands back costs a tiny board's solve a
    quarter of a microsecond), the numbers beside it. Where the board's every count,
    and every number on the way to its probabilities, is below ``2**join_bits`` (at
    most :data:`JOIN_BITS`; 0: never join here), bounded before the join (none
    exceeds ``max(8, U)`` times the largest ``C(U, d)``, ``d`` up to the mines left,
    ``U`` the unknown cells left), the components are joined here
    (:func:`~analyzer.solver.kernels.join.products_of_others` and
    :func:`~analyzer.solver.kernels.join.mine_count_weights` over exact integers: the same join as
    :func:`analyzer.solver.combination.join`) and ``status`` is
    :data:`BOARD_JOINED`: ``total`` layouts, the mines known from the flags and
    numbers, the background cells, the mines the rules fixed, the number of slots
    ``S`` (the groups, then the background, trusted flags and revealed cells: a
    cell's slot read from the end when negative, as :func:`_pack_counts` numbers
    them); ``out`` (``float64``) holds each of the ``n`` cells' probability (NaN where
    revealed), then, each exact as a float (below ``2**52``): each slot's numerator,
    then its denominator, each cell's slot, and pairs (constrained mines, layouts).
    Where they are larger, ``status`` is :data:`BOARD_COUNTED` and ``out`` holds the
    bits of the ``int64`` counts of :func:`_pack_counts` (read them with
    ``out.view(numpy.int64)``), which the caller joins with Python integers; other
    statuses are :func:`_board_arrays`', ``out`` empty. :data:`BOARD_NO_LAYOUT` also
    when the mine total leaves no layout.
    """  # pragma: no cover - compiled
    counted = _board_arrays(
        values,
        around,
        trust_flags,
        max_cells,
        max_nodes,
        max_large_nodes,
        max_board_nodes,
        max_frontier_states,
        max_frontier_coefficients,
    )
    if counted.status != BOARD_COUNTED:
        return counted.status, 0, 0, 0, 0, 0, np.zeros(0, np.float64)
    n_groups = counted.sizes.shape[0]
    n_comps = counted.top.shape[0]
    fixed_mines = 0
    unknown = counted.n_background
    for g in range(n_groups):
        if counted.fixed[g] > 0:
            fixed_mines += counted.fixed[g]
        elif counted.fixed[g] < 0:
            unknown += counted.sizes[g]
    rest = mines - counted.known_mines - fixed_mines
    if rest < 0 or rest > unknown:
        return BOARD_NO_LAYOUT, 0, 0, 0, 0, 0, np.zeros(0, np.float64)
    d = min(rest, unknown // 2)  # C(U, d) grows with d up to U / 2
    ln_largest = math.lgamma(unknown + 1) - math.lgamma(d + 1) - math.lgamma(unknown - d + 1)
    # + 1: lgamma's rounding, generously.
    if ln_largest / math.log(2) + math.log2(max(8, unknown)) + 1 > min(join_bits, JOIN_BITS):
        return (
            BOARD_COUNTED,
            0,
            counted.known_mines,
            counted.n_background,
            fixed_mines,
            0,
            _pack_counts(*counted[1:]).view(np.float64),
        )
    width = 1
    for k in range(n_comps):
        width = max(width, counted.top[k] + 1)
    n_slots = n_groups + 3
    # One allocation a type for the join's arrays: the layouts by component, C(B, r) by r,
    # each slot's numerator and denominator, a component's weights by mine count.
    rows = max(n_comps, 1)
    block = np.zeros(rows * width + rest + 1 + 2 * n_slots + width, np.int64)
    marks = np.zeros(rows * width + width, np.bool_)
    lay = block[: rows * width].reshape((rows, width))
    possible = marks[: rows * width].reshape((rows, width))
    for k in range(n_comps):
        for m in range(counted.top[k] + 1):
            lay[k, m] = counted.layouts[counted.comp_off[k] + m]
            possible[k, m] = lay[k, m] != 0
    t = rows * width
    row = block[t : t + rest + 1]
    num = block[t + rest + 1 : t + rest + 1 + n_slots]
    den = block[t + rest + 1 + n_slots : t + rest + 1 + 2 * n_slots]
    weight = block[t + rest + 1 + 2 * n_slots :]
    weight_ok = marks[rows * width :]
    full, others, full_ok, others_ok, others_deg = products_of_others(
        lay, possible, n_comps, counted.top, rest
    )
    # C(B, r) for r = 0..rest: C(B, r + 1) = C(B, r) (B - r) / (r + 1), exactly.
    row[0] = 1
    for r in range(min(rest, counted.n_background)):
        row[r + 1] = row[r] * (counted.n_background - r) // (r + 1)
    fl = full.shape[0]
    w = row[rest - fl + 1 :][::-1]  # w[m] = C(B, rest - m): the background's layouts
    w_ok = w != 0
    total = 0
    n_dist = 0
    background_numerator = 0
    for m in range(fl):
        if full_ok[m] and w_ok[m]:
            total += full[m] * w[m]
            n_dist += 1
            if counted.n_background:
                # C(B - 1, j - 1) = C(B, j) j / B: layouts with a mine on a given background cell.
                background_numerator += full[m] * (w[m] * (rest - m) // counted.n_background)
    if total == 0:
        return BOARD_NO_LAYOUT, 0, 0, 0, 0, 0, np.zeros(0, np.float64)
    n = counted.cell_slot.shape[0]
    out = np.empty(2 * n + 2 * n_slots + 2 * n_dist, np.float64)
    for k in range(n_comps):
        mine_count_weights(
            others, others_ok, others_deg, k, min(counted.top[k], rest), possible, w, w_ok, weight, weight_ok
        )
        for g in range(n_groups):
            if counted.comp_of[g] == k:
                acc = 0
                for m in range(min(counted.top[k], rest) + 1):
                    acc += counted.group_mines[counted.gm_off[g] + m] * weight[m]
                num[g] = acc
                den[g] = total * counted.sizes[g]
    for g in range(n_groups):
        if counted.comp_of[g] < 0:  # fixed by the rules: all mines or all safe
            num[g] = 1 if counted.fixed[g] > 0 else 0
            den[g] = 1
    num[n_groups] = background_numerator
    den[n_groups] = total
    num[n_groups + 1] = 1  # trusted flags
    den[n_groups + 1] = 1
    num[n_groups + 2] = 0  # revealed cells: never read
    den[n_groups + 2] = 1
    t = n
    for s in range(n_slots):
        out[t + s] = num[s]
        out[t + n_slots + s] = den[s]
    t += 2 * n_slots
    for i in range(n):
        out[t + i] = counted.cell_slot[i]
    t += n
    for m in range(fl):
        if full_ok[m] and w_ok[m]:
            out[t] = m
            out[t + 1] = full[m] * w[m]
            t += 2
    # Each cell's float: numerator and denominator below 2**53 are exact as floats, so
    # their quotient is the fraction's correctly rounded value.
    for i in range(n):
        s = counted.cell_slot[i]
        if s == -1:
            out[i] = np.nan
        else:
            s = s if s >= 0 else n_slots + s
            out[i] = num[s] / den[s]
    return BOARD_JOINED, total, counted.known_mines, counted.n_background, fixed_mines, n_slots, out


class BoardCounts(NamedTuple):
    """What :func:`_pack_counts` packed, as lists (see its docstring)."""

    known_mines: int
    background: int
    cell_slot: list[int]
    sizes: list[int]
    fixed: list[int]
    comp_of: list[int]
    layouts: list[list[int]]
    group_mines: list[list[int] | None]


def unpack_board_counts(packed: np.ndarray) -> BoardCounts:
    """The lists of :func:`_pack_counts`' ``packed`` (:func:`board_solution`'s ``out`` with
    :data:`BOARD_COUNTED`, viewed as ``int64``)."""
    values = packed.tolist()
    known_mines, background, n_groups, n_comps, n = values[:5]
    t = 5
    cell_slot = values[t : t + n]
    t += n
    sizes = values[t : t + n_groups]
    t += n_groups
    fixed = values[t : t + n_groups]
    t += n_groups
    comp_of = values[t : t + n_groups]
    t += n_groups
    tops = values[t : t + n_comps]
    t += n_comps
    layouts = []
    for top in tops:
        layouts.append(values[t : t + top + 1])
        t += top + 1
    group_mines: list[list[int] | None] = []
    for k in comp_of:
        if k < 0:
            group_mines.append(None)
            continue
        length = tops[k] + 1
        group_mines.append(values[t : t + length])
        t += length
    return BoardCounts(known_mines, background, cell_slot, sizes, fixed, comp_of, layouts, group_mines)
