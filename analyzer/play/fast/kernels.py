"""Compiled kernels (numba) of the fast play engine: mine probabilities in float64 and the game loop.

A position is a flat ``int8`` array ``state``: ``-1`` a hidden cell, ``-2`` a
flag (a trusted mine), ``0..8`` a revealed number. Neighbourhoods come from
:func:`analyzer.board.topology.neighbour_array` (``N`` pads a short row), so
every topology the board knows works here too.

:func:`probabilities` runs the exact solve's compiled core
(:mod:`analyzer.solver.kernels`) with floats: each number with hidden
neighbours is an equation; hidden cells next to the same numbers form a group
(:func:`~analyzer.solver.kernels.constraint_arrays`); numbers that share a
group form a component (:func:`~analyzer.solver.kernels.split_components`);
each component is enumerated by the solve's own search
(:func:`~analyzer.solver.kernels.search_component`, counting in float64) into
layouts by mine count and mines by group; a dynamic programme over mine counts joins the components with
the background, whose weights ``C(B, L - m)`` are taken in log space and
rescaled, so 100x100 boards neither overflow nor underflow the totals. Which
cells are *certainly* safe or mines is decided apart, by exact boolean
feasibility of the same sums, so a rounding error can never make a guess look
safe. The exact engine (:func:`analyzer.solve`) checks these floats in the tests.
"""

from __future__ import annotations

import math

import numpy as np

from analyzer.jit import njit
from analyzer.play.fast.candidates import (
    _far_cells,
    _guess_candidates,
    _split_candidates,
    lowest_probability_cell,
)
from analyzer.play.fast.endgame import endgame_move, layouts
from analyzer.play.fast.layout import _open, positions_to_mask, sample_layout, select_block  # noqa: F401  (its importers' names, for now)
from analyzer.play.fast.probabilities import (
    _NO,
    DEFAULT_MAX_NODES,  # noqa: F401  (its importers' name, for now)
    FLAG,
    HIDDEN,
    SAFE,
    _closure,
    _count_components,
    probabilities,
)
from analyzer.solver.kernels import FLOAT_BINOMIALS as _FLOAT_BINOMIALS
from analyzer.solver.kernels import find_root
from analyzer.solver.kernels import mul_counts as _mul
from analyzer.solver.kernels import products_of_others as _products

# -------------------------------------------------------------------- PSEQ
_TOL = 1e-8  # MineSweeperProb keeps scores within a relative 1e-8 of the best


@njit(cache=True)
def _degree(nbr: np.ndarray, c: int) -> int:  # pragma: no cover - compiled
    """The number of cells around ``c`` on the board (``nbr`` pads a short row with ``n``)."""
    n = nbr.shape[0]
    deg = 0
    for k in range(nbr.shape[1]):
        if nbr[c, k] < n:
            deg += 1
    return deg


@njit(cache=True)
def _shares(logs: np.ndarray) -> np.ndarray:  # pragma: no cover - compiled
    """The chance of each number from the logs of its layouts (``-inf``: none), rescaled by the largest."""
    top = -np.inf
    for v in range(logs.shape[0]):
        if logs[v] > top:
            top = logs[v]
    share = np.zeros(logs.shape[0])
    if top == -np.inf:
        return share
    total = 0.0
    for v in range(logs.shape[0]):
        if logs[v] > -np.inf:
            share[v] = math.exp(logs[v] - top)
            total += share[v]
    for v in range(logs.shape[0]):
        share[v] /= total
    return share


@njit(cache=True)
def _reveal_outlook(
    known: np.ndarray,
    nbr: np.ndarray,
    mines: int,
    c: int,
    max_nodes: int,
    out: np.ndarray,
    blend: bool = False,
    living: bool = False,
) -> bool:  # pragma: no cover - compiled
    """What revealing safe cell ``c`` would show: out = (P(some new safe cell), E[new safe cells], entropy,
    secondary safety).

    For each number ``v`` the cell could show, the position with ``c`` showing
    ``v`` is solved: its weight is its number of layouts, and the cells it
    proves safe are those other hidden cells of probability exactly 0. The
    secondary safety is E[1 if some cell is proved safe, else 1 - the lowest
    probability among the other hidden cells (1 when none is left but
    mines)]; with ``blend``, E[(4 s1 + s2) / 5] where s1 and s2 are the two
    highest safeties among the other hidden cells (a proved-safe cell's is 1;
    s2 = s1 when one cell that can be safe is left; 1 when none is). All four
    are conditional on ``c`` being safe. With ``living``, the secondary
    safety counts a number as proving a cell safe only when some proved-safe
    cell has a neighbour still in doubt (probability strictly between 0 and 1:
    revealing it can show something); the first three figures are unchanged.
    False when a position is too hard.
    """
    n = known.shape[0]
    deg = _degree(nbr, c)
    trial = known.copy()
    prob = np.empty(n)
    info = np.zeros(1)
    logs = np.full(deg + 1, -np.inf)
    counts = np.zeros(deg + 1)
    next_safety = np.ones(deg + 1)
    lives = np.ones(deg + 1, np.bool_)
    for v in range(deg + 1):
        trial[:] = known
        trial[c] = v
        status = probabilities(trial, nbr, mines, prob, max_nodes, info)
        if status < 0:
            return False
        if status == 0:
            continue
        logs[v] = info[0]
        made = 0
        alive = not living  # some proved-safe cell can show something
        lowest = 1.0
        runner_up = 1.0  # the second-lowest probability (a tie counts twice)
        doubt = 1.0  # the lowest probability above 0: the next guess once the proved-safe cells are open
        for j in range(n):
            if j != c and known[j] == HIDDEN:
                if living and 0.0 < prob[j] < doubt:
                    doubt = prob[j]
                if prob[j] == 0.0:
                    made += 1
                    if not alive:
                        for k in range(nbr.shape[1]):
                            m = nbr[j, k]
                            if m < n and 0.0 < prob[m] < 1.0:
                                alive = True
                                break
                if prob[j] < lowest:
                    lowest, runner_up = prob[j], lowest
                elif prob[j] < runner_up:
                    runner_up = prob[j]
        counts[v] = made
        lives[v] = alive
        if living:
            next_safety[v] = 1.0 - doubt if doubt < 1.0 else 1.0
        elif lowest >= 1.0:
            next_safety[v] = 1.0  # nothing left to guess: won
        elif blend:
            second = runner_up if runner_up < 1.0 else lowest
            next_safety[v] = (4.0 * (1.0 - lowest) + (1.0 - second)) / 5.0
        else:
            next_safety[v] = 1.0 - lowest
    share = _shares(logs)
    some = 0.0
    expected = 0.0
    entropy = 0.0
    second = 0.0
    for v in range(deg + 1):
        if logs[v] == -np.inf:
            continue
        p = share[v]
        second += p * (1.0 if counts[v] > 0 and lives[v] and not blend else next_safety[v])
        if counts[v] > 0:
            some += p
        expected += p * counts[v]
        if p > 0:
            entropy -= p * math.log2(p)
    out[0] = some
    out[1] = expected
    out[2] = entropy
    out[3] = second
    return True


@njit(cache=True)
def _keep_best(cands: np.ndarray, count: int, score: np.ndarray) -> int:  # pragma: no cover - compiled
    """Keep the candidates whose score is within a relative 1e-8 of the best (in place)."""
    best = -np.inf
    for t in range(count):
        if score[cands[t]] > best:
            best = score[cands[t]]
    kept = 0
    for t in range(count):
        if score[cands[t]] >= best - abs(best) * _TOL:
            cands[kept] = cands[t]
            kept += 1
    return kept


_RECORD_CAP = 1 << 16
"""Mines by group of a position's solutions kept for the outlooks (beyond: each number is solved)."""
_COMBINATIONS_CAP = 1 << 12
"""Solutions of the components around one candidate read together (beyond: each number is solved)."""


@njit(cache=True)
def _outlook_from_counts(
    c: int,
    known: np.ndarray,
    nbr: np.ndarray,
    mines_left: int,
    group_of: np.ndarray,
    group_size: np.ndarray,
    comp_of: np.ndarray,
    comp_start: np.ndarray,
    comp_groups: np.ndarray,
    comp_top: np.ndarray,
    n_comps: int,
    lay: np.ndarray,
    possible: np.ndarray,
    n_sol: np.ndarray,
    rec_start: np.ndarray,
    record: np.ndarray,
    background: int,
    full: np.ndarray,
    full_ok: np.ndarray,
    others: np.ndarray,
    others_ok: np.ndarray,
    others_deg: np.ndarray,
    out: np.ndarray,
) -> bool:  # pragma: no cover - compiled
    """:func:`_reveal_outlook`'s first three figures, read from the position's counts (no solve per number).

    The number ``c`` shows is the mines in its neighbourhood: each solution
    of the components ``c`` touches (mines by group) spreads over the part of
    each group inside the neighbourhood and the part outside
    (hypergeometrically, ``c`` itself safe), the background cells around
    ``c`` take their share, and the other components and the rest of the
    background weigh each total by their layouts (the position's product of
    the other components). A part is proved safe by a number when no
    feasible layout (exact booleans, beside the floats) puts a mine in it.
    False when this does not apply: the solutions were not kept, too many
    combine, or a number would restrict the other components' mine counts
    (and so could prove one of their cells safe); the caller then solves each
    number.
    """
    n = known.shape[0]
    deg = nbr.shape[1]
    if deg > 8:
        return False
    n_groups = group_size.shape[0]
    flags_adj = 0
    b_in = 0
    inside = np.zeros(max(n_groups, 1), np.int64)
    touched = np.empty(deg + 1, np.int64)  # the components around c
    n_touched = 0
    for k in range(deg + 1):
        j = nbr[c, k] if k < deg else c
        if j >= n:
            continue
        if known[j] == FLAG:
            flags_adj += 1
            continue
        if known[j] != HIDDEN:
            continue
        g = group_of[j]
        if g < 0:
            if k < deg:
                b_in += 1
            continue
        if k < deg:
            inside[g] += 1
        a = comp_of[g]
        seen = False
        for t in range(n_touched):
            if touched[t] == a:
                seen = True
        if not seen:
            touched[n_touched] = a
            n_touched += 1
    own = group_of[c]
    rest = background - b_in - (1 if own < 0 else 0)  # background cells neither c nor around it
    combinations = 1
    for t in range(n_touched):
        if n_sol[touched[t]] < 0:
            return False
        combinations *= n_sol[touched[t]]
        if combinations > _COMBINATIONS_CAP:
            return False
    # The other components' layouts by mine count.
    size = full.shape[0]
    if n_touched == 0:
        pu, pu_ok, pu_deg = full, full_ok, size - 1
    elif n_touched == 1:
        a = touched[0]
        pu, pu_ok, pu_deg = others[a], others_ok[a], others_deg[a]
    else:
        pu = np.zeros(size)
        pu_ok = np.zeros(size, np.bool_)
        pu[0] = 1.0
        pu_ok[0] = True
        pu_deg = 0
        for k in range(n_comps):
            skip = False
            for t in range(n_touched):
                if touched[t] == k:
                    skip = True
            if skip:
                continue
            nxt = np.zeros(size)
            nxt_ok = np.zeros(size, np.bool_)
            _mul(pu, pu_ok, pu_deg, lay[k], possible[k], comp_top[k], nxt, nxt_ok)
            pu, pu_ok = nxt, nxt_ok
            pu_deg = min(pu_deg + comp_top[k], size - 1)
    # The groups around c: cells in c's neighbourhood and out of it (c itself taken out).
    n_aff = 0
    for t in range(n_touched):
        k = touched[t]
        n_aff += comp_start[k + 1] - comp_start[k]
    aff_size = np.empty(n_aff + 1, np.int64)
    aff_in = np.empty(n_aff + 1, np.int64)
    aff_rec = np.empty(n_aff, np.int64)  # where its mines sit in the first solution of its component
    aff_stride = np.empty(n_aff, np.int64)
    aff_touched = np.empty(n_aff, np.int64)
    cells_around = b_in
    i = 0
    for t in range(n_touched):
        k = touched[t]
        width = comp_start[k + 1] - comp_start[k]
        for u in range(width):
            g = comp_groups[comp_start[k] + u]
            aff_size[i] = group_size[g] - (1 if g == own else 0)
            aff_in[i] = inside[g]
            aff_rec[i] = rec_start[k] + u
            aff_stride[i] = width
            aff_touched[i] = t
            cells_around += group_size[g]
            i += 1
    aff_size[n_aff] = b_in  # the background around c, as one more part (all of it inside)
    aff_in[n_aff] = b_in
    # What the rest of the board makes of each total left: weight, feasibility, a mine in the rest.
    low = max(mines_left - cells_around, 0)
    span = mines_left - low + 1
    if span <= 0:
        return False
    top_r = min(rest, mines_left)
    comb = np.zeros(max(top_r, 0) + 1)
    value = 1.0
    for r in range(top_r + 1):
        comb[r] = value
        value = value * (rest - r) / (r + 1)
        if value > 1e250:
            value *= 1e-250
            for q in range(r + 1):
                comb[q] *= 1e-250
    weight_left = np.zeros(span)
    ok_left = np.zeros(span, np.bool_)
    mine_left = np.zeros(span, np.bool_)
    for d in range(span):
        t_left = low + d
        for m in range(min(pu_deg, t_left) + 1):
            r = t_left - m
            if r <= rest and pu_ok[m]:
                weight_left[d] += pu[m] * comb[r]
                ok_left[d] = True
                if r > 0:
                    mine_left[d] = True
    # Every solution of the touched components, spread over the parts.
    n_values = deg + 1
    weights = np.zeros(n_values)
    feasible = np.zeros(n_values, np.bool_)
    in_mine = np.zeros((n_aff + 1, n_values), np.bool_)
    out_mine = np.zeros((n_aff + 1, n_values), np.bool_)
    reached = np.zeros((n_values, span), np.bool_)
    index = np.zeros(max(n_touched, 1), np.int64)
    x = np.empty(n_aff + 1, np.int64)
    lo = np.empty(n_aff + 1, np.int64)
    hi = np.empty(n_aff + 1, np.int64)
    s = np.empty(n_aff + 1, np.int64)
    for _ in range(combinations):
        base = 1.0
        mines_x = 0
        fits = True
        for i in range(n_aff):
            xi = record[aff_rec[i] + index[aff_touched[i]] * aff_stride[i]]
            x[i] = xi
            mines_x += xi
            if xi > aff_size[i]:
                fits = False
            lo[i] = max(0, xi - (aff_size[i] - aff_in[i]))
            hi[i] = min(aff_in[i], xi)
        x[n_aff] = b_in
        lo[n_aff] = 0
        hi[n_aff] = b_in
        if fits:
            for i in range(n_aff + 1):
                s[i] = lo[i]
            while True:
                factor = base
                around = flags_adj
                taken = mines_x
                for i in range(n_aff):
                    outside_part = _FLOAT_BINOMIALS[aff_size[i] - aff_in[i], x[i] - s[i]]
                    factor *= _FLOAT_BINOMIALS[aff_in[i], s[i]] * outside_part
                    around += s[i]
                factor *= _FLOAT_BINOMIALS[b_in, s[n_aff]]
                around += s[n_aff]
                taken += s[n_aff]
                d = mines_left - taken - low
                if 0 <= d < span and ok_left[d]:
                    weights[around] += factor * weight_left[d]
                    feasible[around] = True
                    reached[around, d] = True
                    for i in range(n_aff):
                        if s[i] > 0:
                            in_mine[i, around] = True
                        if x[i] - s[i] > 0:
                            out_mine[i, around] = True
                    if s[n_aff] > 0:
                        in_mine[n_aff, around] = True
                # the next spread (an odometer over the parts)
                i = n_aff
                while i >= 0 and s[i] >= hi[i]:
                    s[i] = lo[i]
                    i -= 1
                if i < 0:
                    break
                s[i] += 1
        # the next combination of the touched components' solutions
        t = n_touched - 1
        while t >= 0:
            index[t] += 1
            if index[t] < n_sol[touched[t]]:
                break
            index[t] = 0
            t -= 1
    total = 0.0
    for v in range(n_values):
        total += weights[v]
    cover = np.zeros(pu_deg + 2, np.int64)
    some = 0.0
    expected = 0.0
    entropy = 0.0
    for v in range(n_values):
        if not feasible[v]:
            continue
        # the other components keep every mine count they can take, so none of their cells is proved safe
        cover[:] = 0
        for d in range(span):
            if reached[v, d]:
                first = max(low + d - rest, 0)
                last = min(low + d, pu_deg)
                if first <= last:
                    cover[first] += 1
                    cover[last + 1] -= 1
        running = 0
        for m in range(pu_deg + 1):
            running += cover[m]
            if pu_ok[m] and running == 0:
                return False
        made = 0
        for i in range(n_aff + 1):
            if not in_mine[i, v]:
                made += aff_in[i]
            if i < n_aff and not out_mine[i, v]:
                made += aff_size[i] - aff_in[i]
        rest_mine = False
        for d in range(span):
            if reached[v, d] and mine_left[d]:
                rest_mine = True
        if not rest_mine:
            made += rest
        p = weights[v] / total if total > 0 else 0.0
        if made > 0:
            some += p
        expected += p * made
        if p > 0:
            entropy -= p * math.log2(p)
    out[0] = some
    out[1] = expected
    out[2] = entropy
    out[3] = np.nan
    return True


@njit(cache=True)
def _outlooks(
    state: np.ndarray,
    known: np.ndarray,
    nbr: np.ndarray,
    mines: int,
    cands: np.ndarray,
    count: int,
    max_nodes: int,
    some: np.ndarray,
    expected: np.ndarray,
    entropy: np.ndarray,
    second: np.ndarray,
    with_second: bool,
    blend: bool = False,
    living: bool = False,
) -> int:  # pragma: no cover - compiled
    """:func:`_reveal_outlook` of each of the first ``count`` cells of ``cands``, into the four arrays.

    The first three figures are read from the position's counts
    (:func:`_outlook_from_counts`) where that applies; the secondary safety
    (``with_second``, else NaN) and the other cases solve the position once for
    each number the cell could show. Far cells (:func:`_far_cells`) with as
    many neighbours are alike, so their outlook is computed once per
    neighbourhood size. Returns how many were read from the counts, or -1 when
    a position was too hard to enumerate.
    """
    n = state.shape[0]
    deg = nbr.shape[1]
    far = _far_cells(state, nbr)  # far cells of one neighbourhood size are alike: solved once
    # The position's counts, once for every candidate. The secondary safety solves each
    # number instead, so it counts an empty board (no work; the same types either way).
    record = np.empty(0 if with_second else _RECORD_CAP, np.int64)
    counted = known[:0] if with_second else known
    (
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
        _gmines,
        _gpos,
        _gneg,
        possible,
        _log_scale,
        n_sol,
    ) = _count_components(counted, nbr, max_nodes, record)
    reuse = status == 1 and not with_second and (n_comps == 0 or n_sol[0] >= 0)
    mines_left = mines
    for i in range(n):
        if known[i] == FLAG:
            mines_left -= 1
    group_of = np.full(n, -1, np.int64)
    rec_start = np.zeros(max(n_comps, 1), np.int64)
    if reuse:
        for g in range(group_size.shape[0]):
            for u in range(group_off[g], group_off[g + 1]):
                group_of[group_cells[u]] = g
        for k in range(n_comps - 1):
            rec_start[k + 1] = rec_start[k] + n_sol[k] * (comp_start[k + 1] - comp_start[k])
    limit = max(mines_left, 0)
    full, others, full_ok, others_ok, others_deg = _products(lay, possible, n_comps, comp_top, limit)
    cached = np.zeros((deg + 1, 5))  # per neighbourhood size: done, some, expected, entropy, second
    outlook = np.zeros(4)
    read = 0
    for t in range(count):
        c = cands[t]
        size = far[c]
        pure = size >= 0
        if pure and cached[size, 0] == 1.0:
            some[c], expected[c], entropy[c] = cached[size, 1], cached[size, 2], cached[size, 3]
            second[c] = cached[size, 4]
            continue
        done = reuse and _outlook_from_counts(
            c,
            known,
            nbr,
            mines_left,
            group_of,
            group_size,
            comp_of,
            comp_start,
            comp_groups,
            comp_top,
            n_comps,
            lay,
            possible,
            n_sol,
            rec_start,
            record,
            outside.shape[0],
            full,
            full_ok,
            others,
            others_ok,
            others_deg,
            outlook,
        )
        if done:
            read += 1
        elif not _reveal_outlook(known, nbr, mines, c, max_nodes, outlook, blend, living):
            return -1
        some[c], expected[c], entropy[c], second[c] = outlook[0], outlook[1], outlook[2], outlook[3]
        if pure:
            cached[size, 0] = 1.0
            cached[size, 1], cached[size, 2], cached[size, 3], cached[size, 4] = outlook
    return read


@njit(cache=True)
def pseq_candidates(
    state: np.ndarray,
    known: np.ndarray,
    nbr: np.ndarray,
    mines: int,
    prob: np.ndarray,
    max_nodes: int,
    out: np.ndarray,
) -> int:
    """PSEQ's guess: the cells left after its filters P, S, E, Q, written to ``out``; their count.

    P keeps the lowest mine probability; S the highest (1 - p) x P(the number
    shown proves another cell safe); E the highest (1 - p) x E[cells proved
    safe]; Q the highest entropy of the number shown. Each keeps scores within a
    relative 1e-8 of the best. The caller draws among the survivors uniformly.
    Returns -1 when a position was too hard to enumerate.
    """  # pragma: no cover - compiled
    n = state.shape[0]
    count = np.int64(0)
    for i in range(n):
        if state[i] == HIDDEN and known[i] == HIDDEN and 0.0 < prob[i] < 1.0:
            out[count] = i
            count += 1
    if count <= 1:
        return int(count)  # int64 from the start (see _NO)
    score = np.empty(n)
    for t in range(count):
        score[out[t]] = -prob[out[t]]
    count = _keep_best(out, count, score)
    if count <= 1:
        return count
    some = np.empty(n)
    expected = np.empty(n)
    entropy = np.empty(n)
    second = np.empty(n)
    if (
        _outlooks(
            state, known, nbr, mines, out, count, max_nodes, some, expected, entropy, second, _NO, _NO, _NO
        )
        < 0
    ):
        return -1
    for t in range(count):
        score[out[t]] = (1.0 - prob[out[t]]) * some[out[t]]
    count = _keep_best(out, count, score)
    if count > 1:
        for t in range(count):
            score[out[t]] = (1.0 - prob[out[t]]) * expected[out[t]]
        count = _keep_best(out, count, score)
    if count > 1:
        for t in range(count):
            score[out[t]] = entropy[out[t]]
        count = _keep_best(out, count, score)
    return count


# ------------------------------------------------------------------ forced 50/50s
# The compiled form of analyzer.play.forced (which says what a pattern, its end cells and a
# pseudo-50/50 cell are): the same cells, in floats.


@njit(cache=True)
def _neighbours(nbr: np.ndarray, a: int, b: int) -> bool:  # pragma: no cover - compiled
    for k in range(nbr.shape[1]):  # noqa: SIM110 - a loop numba compiles without a generator
        if nbr[a, k] == b:
            return True
    return False


@njit(cache=True)
def _pattern_ends(
    nbr: np.ndarray, side: np.ndarray, k: int, ends: np.ndarray
) -> int:  # pragma: no cover - compiled
    """The end cells of the pattern ``side[:k]`` against ``side[k:2k]``, into ``ends`` ascending; how many."""
    n = nbr.shape[0]
    count = 0
    for t in range(2 * k):
        for u in range(nbr.shape[1]):
            x = nbr[side[t], u]
            if x >= n:
                continue
            seen = False
            for v in range(2 * k):
                seen = seen or side[v] == x
            for v in range(count):
                seen = seen or ends[v] == x
            if seen:
                continue
            first = 0
            second = 0
            for v in range(k):
                first += _neighbours(nbr, x, side[v])
                second += _neighbours(nbr, x, side[k + v])
            if first != second:
                ends[count] = x
                count += 1
    ends[:count].sort()
    return count


@njit(cache=True)
def fifty_fifty_patterns(nbr: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every pattern of a neighbour table, as :func:`analyzer.play.forced.fifty_fifty_patterns` lists them.

    Returns ``(sides, sizes, ends, end_counts)``: row ``q`` of ``sides`` holds
    the pattern's first side (``sizes[q]`` cells) then its second; row ``q`` of
    ``ends`` its ``end_counts[q]`` end cells.
    """
    n = nbr.shape[0]
    deg = nbr.shape[1]
    sides = np.empty((0, 4), np.int64)
    sizes = np.empty(0, np.int64)
    ends = np.empty((0, 4 * deg), np.int64)
    counts = np.empty(0, np.int64)
    side = np.empty(4, np.int64)
    buffer = np.empty(4 * deg, np.int64)
    later = np.empty(deg, np.int64)
    for rounds in range(2):  # count, then fill
        q = np.int64(0)
        for pairs in (True, False):  # every pair first, then every 4-clique
            for a in range(n):
                m = np.int64(0)
                for u in range(deg):
                    if a < nbr[a, u] < n:
                        later[m] = nbr[a, u]
                        m += 1
                later[:m].sort()
                if pairs:
                    for i in range(m):
                        if rounds == 1:
                            side[0], side[1] = a, later[i]
                            sides[q, :2] = side[:2]
                            sizes[q] = 1
                            counts[q] = _pattern_ends(nbr, side, np.int64(1), buffer)
                            ends[q, : counts[q]] = buffer[: counts[q]]
                        q += 1
                    continue
                q = _cliques(nbr, a, later, m, rounds == 1, q, side, sides, sizes, ends, counts, buffer)
        if rounds == 0:
            sides = np.zeros((q, 4), np.int64)
            sizes = np.zeros(q, np.int64)
            ends = np.zeros((q, 4 * deg), np.int64)
            counts = np.zeros(q, np.int64)
    return sides, sizes, ends, counts


@njit(cache=True)
def _cliques(
    nbr: np.ndarray,
    a: int,
    later: np.ndarray,
    m: int,
    fill: bool,
    q: int,
    side: np.ndarray,
    sides: np.ndarray,
    sizes: np.ndarray,
    ends: np.ndarray,
    counts: np.ndarray,
    buffer: np.ndarray,
) -> int:  # pragma: no cover - compiled
    """The three splits of each 4-clique of first cell ``a`` (the rest from ``later[:m]``), from row ``q``."""
    for i in range(m):
        for j in range(i + 1, m):
            for h in range(j + 1, m):
                b, c, d = later[i], later[j], later[h]
                if not (_neighbours(nbr, b, c) and _neighbours(nbr, b, d) and _neighbours(nbr, c, d)):
                    continue
                for split in range(3):
                    if fill:
                        if split == 0:
                            side[0], side[1], side[2], side[3] = a, b, c, d
                        elif split == 1:
                            side[0], side[1], side[2], side[3] = a, c, b, d
                        else:
                            side[0], side[1], side[2], side[3] = a, d, b, c
                        sides[q] = side
                        sizes[q] = 2
                        counts[q] = _pattern_ends(nbr, side, np.int64(2), buffer)
                        ends[q, : counts[q]] = buffer[: counts[q]]
                    q += 1
    return q


_PSEUDO_TOL = 1e-9
"""Relative tolerance of a pseudo-50/50 cell's probability against its 50/50's share (floats)."""


@njit(cache=True)
def _pattern_share(
    known: np.ndarray,
    nbr: np.ndarray,
    mines: int,
    log_total: float,
    max_nodes: int,
    side: np.ndarray,
    k: int,
    missing: np.ndarray,
    m: int,
    trial: np.ndarray,
) -> float:  # pragma: no cover - compiled
    """The share of the layouts of ``known`` (``log_total`` the log of their number) with
    ``missing[:m]`` and ``side[:k]`` mines and ``side[k:2k]`` safe: 0.0 when none fits, -1.0 when
    the position was too hard to enumerate. ``trial`` is scratch space of ``known``'s size."""
    trial[:] = known
    for t in range(m):
        trial[missing[t]] = FLAG
    for t in range(k):
        trial[side[t]] = FLAG
        trial[side[k + t]] = SAFE
    info = np.zeros(1)
    status = probabilities(trial, nbr, mines, np.empty(known.shape[0]), max_nodes, info)
    if status < 0:
        return -1.0
    if status == 0:
        return 0.0
    return math.exp(info[0] - log_total)


@njit(cache=True)
def _union(cells: np.ndarray, count: int, more: np.ndarray, extra: int) -> int:  # pragma: no cover - compiled
    """``cells[:count]`` and ``more[:extra]`` (each ascending) merged into ``cells``: ascending, once each.

    Returns how many cells ``cells`` then holds."""
    merged = np.empty(count + extra, np.int64)
    i = 0
    j = 0
    m = 0
    while i < count or j < extra:
        if j == extra or (i < count and cells[i] <= more[j]):
            cell = cells[i]
            i += 1
        else:
            cell = more[j]
            j += 1
        if m == 0 or merged[m - 1] != cell:
            merged[m] = cell
            m += 1
    cells[:m] = merged[:m]
    return m


@njit(cache=True)
def pseudo_fifty_fifties(
    known: np.ndarray,
    nbr: np.ndarray,
    mines: int,
    prob: np.ndarray,
    log_total: float,
    max_nodes: int,
    patterns: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    out: np.ndarray,
) -> int:  # pragma: no cover - compiled
    """The pseudo-50/50 cells of the position (:func:`analyzer.play.forced.pseudo_fifty_fifties`), ascending.

    ``known`` is the position after the single-number rules, ``prob`` its
    probabilities, ``log_total`` the natural log of its layouts, ``patterns``
    :func:`fifty_fifty_patterns` of ``nbr``. Each pattern looked at is
    counted by solving the position with its end cells and first side flagged
    and its second side marked safe. Writes the cells to ``out`` and returns
    their number, or -1 when a position was too hard to enumerate.
    """
    sides, sizes, ends, end_counts = patterns
    n = known.shape[0]
    found = np.zeros(n, np.bool_)
    trial = np.empty_like(known)
    missing = np.empty(ends.shape[1], np.int64)
    for q in range(sides.shape[0]):
        k = sizes[q]
        usable = True
        lowest = 1.0
        for t in range(2 * k):
            c = sides[q, t]
            if known[c] != HIDDEN or not 0.0 < prob[c] < 1.0:
                usable = False
                break
            lowest = min(lowest, prob[c])
        m = np.int64(0)
        for e in range(end_counts[q]):
            if not usable:
                break
            j = ends[q, e]
            if known[j] >= 0 or known[j] == SAFE:
                usable = False  # a revealed end cell is no mine: this pattern cannot form
            elif known[j] != FLAG and prob[j] < 1.0:
                if m == k or prob[j] < lowest * (1.0 - _PSEUDO_TOL):
                    usable = False  # too many unknown end cells, or one less likely than every cell here
                else:
                    missing[m] = j
                    m += 1
        if not usable:
            continue
        share = _pattern_share(known, nbr, mines, log_total, max_nodes, sides[q], k, missing, m, trial)
        if share < 0.0:
            return -1
        if share == 0.0:
            continue
        for t in range(2 * k):
            c = sides[q, t]
            if abs(share - prob[c]) <= _PSEUDO_TOL * prob[c]:
                found[c] = True
    count = 0
    for i in range(n):
        if found[i]:
            out[count] = i
            count += 1
    return count


_CHAIN_SIDE = 4
"""A chain of linked pairs is a pattern with at most this many cells a side (as
``analyzer.play.forced.CHAIN_SIDE``)."""


@njit(cache=True)
def chain_patterns(
    known: np.ndarray, nbr: np.ndarray, prob: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:  # pragma: no cover - compiled
    """The position's chains of linked pairs that may be 50/50s (:func:`analyzer.play.forced.chain_patterns`).

    ``known`` is the position after the single-number rules and ``prob`` its
    probabilities. The patterns come as :func:`fifty_fifty_patterns` gives
    them (rows of ``sides`` of width ``2 * _CHAIN_SIDE``), in the order of
    their lowest cell; an empty set when there is none.
    """
    n = known.shape[0]
    deg = nbr.shape[1]
    first = np.full(n, -1, np.int64)  # links as lists: each cell's first link, each link's next
    after = np.empty(2 * n, np.int64)
    target = np.empty(2 * n, np.int64)
    links = 0
    for y in range(n):
        if known[y] < 0:
            continue
        a = -1
        b = -1
        unknown = 0
        for t in range(deg):
            x = nbr[y, t]
            if x >= n:
                continue
            if known[x] == HIDDEN and 0.0 < prob[x] < 1.0:
                unknown += 1
                if unknown == 1:
                    a = x
                else:
                    b = x
        if unknown == 2:  # a number that sees two cells in doubt needs one mine among them
            for u, v in ((a, b), (b, a)):
                target[links] = v
                after[links] = first[u]
                first[u] = links
                links += 1
    limit = n // 4 + 1
    sides = np.zeros((limit, 2 * _CHAIN_SIDE), np.int64)
    sizes = np.zeros(limit, np.int64)
    ends = np.zeros((limit, 2 * _CHAIN_SIDE * deg), np.int64)
    counts = np.zeros(limit, np.int64)
    colour = np.full(n, -1, np.int64)
    chain = np.empty(n, np.int64)
    side = np.empty(2 * _CHAIN_SIDE, np.int64)
    q = 0
    for start in range(n):
        if first[start] < 0 or colour[start] >= 0:
            continue
        colour[start] = 0
        chain[0] = start
        size = 1
        done = 0
        while done < size:  # breadth first: the queue is the chain itself
            cell = chain[done]
            done += 1
            link = first[cell]
            while link >= 0:
                other = target[link]
                if colour[other] < 0:
                    colour[other] = 1 - colour[cell]
                    chain[size] = other
                    size += 1
                link = after[link]
        k = np.int64(0)
        for t in range(size):
            k += colour[chain[t]] == 0
        if 2 * k != size or not 2 <= k <= _CHAIN_SIDE:
            continue
        ones = 0
        twos = k
        chain[:size].sort()
        for t in range(size):
            if colour[chain[t]] == colour[start]:
                side[ones] = chain[t]
                ones += 1
            else:
                side[twos] = chain[t]
                twos += 1
        sides[q, : 2 * k] = side[: 2 * k]
        sizes[q] = k
        counts[q] = _pattern_ends(nbr, side, k, ends[q])
        q += 1
    return sides[:q], sizes[:q], ends[:q], counts[:q]


_LONGTERM_MISSING = 3
"""At most this many end cells of a 50/50 that may form can still be unknown (neither flagged nor certain)."""


@njit(cache=True)
def fifty_influence(
    known: np.ndarray,
    nbr: np.ndarray,
    mines: int,
    prob: np.ndarray,
    log_total: float,
    max_nodes: int,
    patterns: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    cands: np.ndarray,
    count: int,
    influence: np.ndarray,
) -> int:  # pragma: no cover - compiled
    """The chance that a 50/50 forms around each of ``cands[:count]``, into ``influence``.

    A pattern (:func:`fifty_fifty_patterns`) may form where its side cells are
    in doubt (hidden, probability strictly between 0 and 1), none of its end
    cells is revealed or safe, and at most ``_LONGTERM_MISSING`` end cells are
    unknown (neither flagged nor certain mines). Its share is the fraction of
    the layouts with its unknown end cells and first side mines and its
    second side safe (solved as :func:`pseudo_fifty_fifties` does). A
    candidate's influence sums the shares of the patterns it is a side cell
    of, and of those whose only unknown end cell it is (a guess there stops
    the 50/50 forming), at most its probability and its safety. Returns 1, or
    -1 when a position was too hard to enumerate.
    """
    sides, sizes, ends, end_counts = patterns
    n = known.shape[0]
    wanted = np.zeros(n, np.bool_)
    for t in range(count):
        wanted[cands[t]] = True
        influence[cands[t]] = 0.0
    trial = np.empty_like(known)
    missing = np.empty(ends.shape[1], np.int64)
    for q in range(sides.shape[0]):
        k = sizes[q]
        usable = True
        touches = False
        for t in range(2 * k):
            c = sides[q, t]
            if known[c] != HIDDEN or not 0.0 < prob[c] < 1.0:
                usable = False
                break
            touches = touches or wanted[c]
        m = np.int64(0)
        for e in range(end_counts[q]):
            if not usable:
                break
            j = ends[q, e]
            if known[j] >= 0 or known[j] == SAFE or (known[j] == HIDDEN and prob[j] == 0.0):
                usable = False  # an end cell that is no mine: this pattern cannot form
            elif known[j] != FLAG and prob[j] < 1.0:
                if m == _LONGTERM_MISSING:
                    usable = False
                else:
                    missing[m] = j
                    m += 1
        if not usable:
            continue
        stops = m == 1 and wanted[missing[0]]
        if not (touches or stops):
            continue
        share = _pattern_share(known, nbr, mines, log_total, max_nodes, sides[q], k, missing, m, trial)
        if share < 0.0:
            return -1
        if share == 0.0:
            continue
        for t in range(2 * k):
            if wanted[sides[q, t]]:
                influence[sides[q, t]] += share
        if stops:
            influence[missing[0]] += share
    for t in range(count):
        c = cands[t]
        influence[c] = min(influence[c], prob[c], 1.0 - prob[c])
    return 1


# ------------------------------------------------------------------ expert
# The exact player's defaults (ExpertPlayer: margin 1/50, candidates, endgame_layouts, endgame_nodes);
# only a player with these plays compiled.
EXPERT_MARGIN = 0.02
EXPERT_CANDIDATES = 8
EXPERT_ENDGAME_LAYOUTS = 60
EXPERT_ENDGAME_NODES = 20_000


@njit(cache=True)
def _tertiary(
    known: np.ndarray,
    nbr: np.ndarray,
    mines: int,
    c: int,
    margin: float,
    candidates: int,
    max_nodes: int,
) -> float:  # pragma: no cover - compiled
    """P(surviving the next two clicks after safe cell ``c``), played best: the tertiary score over ``1 - p``.

    For each number ``v`` the cell could show, the position with ``c``
    showing ``v`` is solved. When it proves a cell safe, the next click is the
    first such cell in the guess order and its value that cell's own outlook
    (:func:`_reveal_outlook`: 1 if a safe cell follows it, else the safety
    of the safest cell after it). Else the next click is a guess: the best
    secondary safety (times the cell's safety) among the position's own
    candidates (:func:`_guess_candidates` with the same ``margin`` and
    ``candidates``), taken in the guess order and stopped once a cell's
    safety cannot beat the best found (secondary safety is at most safety).
    A position with nothing left to guess counts 1. As minesolve's depth-3
    search counts its clicks, a safe click is a click. Returns -1.0 when a
    position was too hard to enumerate.
    """
    n = known.shape[0]
    deg = _degree(nbr, c)
    trial = known.copy()
    prob = np.empty(n)
    info = np.zeros(1)
    outlook = np.zeros(4)
    logs = np.full(deg + 1, -np.inf)
    value = np.ones(deg + 1)
    for v in range(deg + 1):
        trial[:] = known
        trial[c] = v
        status = probabilities(trial, nbr, mines, prob, max_nodes, info)
        if status < 0:
            return -1.0
        if status == 0:
            continue
        logs[v] = info[0]
        guessable = False
        for j in range(n):
            if trial[j] == HIDDEN and prob[j] < 1.0:
                guessable = True
        if not guessable:
            continue  # nothing is left to guess: 1
        nexts = _guess_candidates(trial, nbr, prob, margin, candidates, _NO)
        if prob[nexts[0]] == 0.0:
            # a safe cell follows: its own outlook (the next click is safe; then the safest after it)
            if not _reveal_outlook(trial, nbr, mines, nexts[0], max_nodes, outlook, _NO, _NO):
                return -1.0
            value[v] = outlook[3]
            continue
        best = 0.0
        for t in range(nexts.shape[0]):
            d = nexts[t]
            if 1.0 - prob[d] <= best + 1e-12:
                break
            if not _reveal_outlook(trial, nbr, mines, d, max_nodes, outlook, _NO, _NO):
                return -1.0
            score = (1.0 - prob[d]) * outlook[3]
            if score > best + 1e-12:
                best = score
        value[v] = best
    if logs.max() == -np.inf:
        return 1.0  # no number is possible (c cannot be safe): nothing to weigh
    share = _shares(logs)
    expected = 0.0
    for v in range(deg + 1):
        expected += share[v] * value[v]
    return expected


@njit(cache=True)
def no_patterns() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """No 50/50 patterns: what :func:`expert_guess` takes when pseudo-50/50s are not looked for."""
    return (
        np.empty((0, 4), np.int64),
        np.empty(0, np.int64),
        np.empty((0, 1), np.int64),
        np.empty(0, np.int64),
    )


@njit(cache=True)
def _living_least_likely(
    state: np.ndarray,
    known: np.ndarray,
    nbr: np.ndarray,
    mines: int,
    prob: np.ndarray,
    cells: np.ndarray,
    count: int,
    max_nodes: int,
) -> int:  # pragma: no cover - compiled
    """The living cell of ``cells[:count]`` least likely to be a mine (ties to the first); -2 when none lives.

    Living: it could show more than one number. -1 when a position was too hard.
    """
    n = state.shape[0]
    some = np.empty(n)
    expected = np.empty(n)
    entropy = np.empty(n)
    second = np.empty(n)
    if (
        _outlooks(
            state, known, nbr, mines, cells, count, max_nodes, some, expected, entropy, second, _NO, _NO, _NO
        )
        < 0
    ):
        return -1
    best = -2
    best_p = 2.0
    for t in range(count):
        c = cells[t]
        if entropy[c] > 0.0 and prob[c] < best_p - 1e-12:
            best, best_p = c, prob[c]
    return best


@njit(cache=True)
def isolated_parts(state: np.ndarray, nbr: np.ndarray, prob: np.ndarray, part_of: np.ndarray) -> int:
    """The closed-off parts of a position, numbered in ``part_of`` (``-1``: in none); returns how many.

    The cells in play are the hidden ones of probability strictly between 0
    and 1 next to a revealed number; two are in one part when they share a
    number. A part is *closed off* when every cell around each of its cells
    is revealed, a certain mine (probability 1) or in the part: no reveal
    outside it can ever show anything about it. Parts are numbered by their
    lowest cell.
    """  # pragma: no cover - compiled
    n = state.shape[0]
    deg = nbr.shape[1]
    parent = np.arange(n)
    front = np.zeros(n, np.bool_)
    for i in range(n):
        if state[i] >= 0:
            first = np.int64(-1)
            for k in range(deg):
                j = nbr[i, k]
                if j < n and state[j] == HIDDEN and 0.0 < prob[j] < 1.0:
                    front[j] = True
                    if first < 0:
                        first = j
                    else:
                        a = find_root(parent, first)
                        b = find_root(parent, j)
                        if a != b:
                            parent[max(a, b)] = min(a, b)
    open_part = np.zeros(n, np.bool_)  # by root: some cell around the part is neither in it nor known
    for i in range(n):
        if front[i]:
            r = find_root(parent, i)
            for k in range(deg):
                j = nbr[i, k]
                if j < n and state[j] < 0 and prob[j] < 1.0 and not (front[j] and find_root(parent, j) == r):
                    open_part[r] = True
    number = np.full(n, -1, np.int64)
    parts = 0
    for i in range(n):
        part_of[i] = -1
        if front[i]:
            r = find_root(parent, i)
            if not open_part[r]:
                if number[r] < 0:
                    number[r] = parts
                    parts += 1
                part_of[i] = number[r]
    return parts


@njit(cache=True)
def isolated_move(
    state: np.ndarray, nbr: np.ndarray, mines: int, prob: np.ndarray, limit: int, max_nodes: int
) -> int:
    """The exact best reveal inside a closed-off part of fixed mine count (``-1``: no such part searched).

    A closed-off part (:func:`isolated_parts`) all of whose layouts hold the
    same number of mines is a game of its own: nothing outside it tells about
    it and its layouts do not weigh the rest's, so its best play is the end
    game's over its own layouts, whatever is played elsewhere. The parts are
    tried in order (by their lowest cell); the first with at most ``limit``
    layouts whose search ends within ``max_nodes`` positions gives the move
    (:func:`~analyzer.play.fast.endgame.endgame_move` on the part alone: the
    revealed numbers around it kept, certain mines flagged, every other cell
    out of play).
    """  # pragma: no cover - compiled
    n = state.shape[0]
    deg = nbr.shape[1]
    part_of = np.empty(n, np.int64)
    parts = isolated_parts(state, nbr, prob, part_of)
    sub = np.empty(n, np.int8)
    for p in range(parts):
        size = 0
        flags = 0
        for i in range(n):
            if part_of[i] == p:
                sub[i] = HIDDEN
                size += 1
            elif state[i] < 0 and prob[i] == 1.0:
                sub[i] = FLAG
                flags += 1
            else:
                sub[i] = SAFE  # out of play: neither a number nor a cell of the part
        for i in range(n):
            if part_of[i] == p:
                for k in range(deg):
                    j = nbr[i, k]
                    if j < n and state[j] >= 0:
                        sub[j] = state[j]
        count = -1  # the part's mine count, -2 when it can hold more than one or too many layouts
        for k in range(size + 1):
            found = layouts(sub, nbr, flags + k, limit)
            if found.shape[1] != n:
                count = -2
                break
            if found.shape[0] > 0:
                if count >= 0:
                    count = -2
                    break
                count = k
        if count < 0:
            continue
        cell = endgame_move(sub, nbr, flags + count, limit, max_nodes)
        if cell >= 0:
            return cell
    return -1


@njit(cache=True)
def expert_guess(
    state: np.ndarray,
    known: np.ndarray,
    nbr: np.ndarray,
    mines: int,
    prob: np.ndarray,
    log_total: float,
    margin: float,
    candidates: int,
    endgame_limit: int,
    endgame_nodes: int,
    max_nodes: int,
    score: int,
    wait_dead: bool,
    patterns: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    isolated: bool = False,
    offedge: int = 0,
    progress: float = 0.0,
    alike_once: bool = False,
    longterm: float = 0.0,
    pseudo_first: bool = True,
    chains: bool = False,
) -> int:
    """The ``expert`` player's guess (see :class:`analyzer.play.players.expert.ExpertPlayer`).

    With at most ``endgame_limit`` layouts (``log_total`` is the natural log of
    their number) the compiled end-game search of :mod:`analyzer.play.fast.endgame` chooses;
    else, or when that search passes ``endgame_nodes``, the first ``candidates``
    cells in the guess order (probability, ties within 1e-12 to fewest
    unrevealed neighbours, then index) whose probability is within ``margin``
    of the lowest are scored ``(1 - p) (1 + P(the number shown proves another
    cell safe | safe))``, or with ``secondary`` by their secondary safety
    ``(1 - p) E[1 if the number shown proves another cell safe, else the
    safety of the safest next guess | safe]`` (the chance of surviving this
    guess and the next one), and the best taken (ties within 1e-12 to the earlier).
    ``score``: 0 progress, 1 secondary safety, 2 tertiary (the candidates by
    secondary safety, best first, scored :func:`_tertiary` while one can still
    win), 3 blended secondary safety (the safest next guess's safety blended
    with the second safest's, 4 to 1: see :func:`_reveal_outlook`). With
    ``wait_dead``, candidates that can show one number only (entropy 0: dead)
    are left out while a living one is among them.
    With ``isolated``, a closed-off part of the board of fixed mine count
    is played by the end game over its own layouts first
    (:func:`isolated_move`). Before any candidate, when ``patterns``
    (:func:`fifty_fifty_patterns`, or none: :func:`no_patterns`) finds living
    pseudo-50/50 cells (:func:`pseudo_fifty_fifties`), the least likely to be
    a mine is guessed (ties to the lowest index). With ``offedge`` above 0 the
    candidates come from :func:`_split_candidates`; a secondary score has
    ``progress`` times ``(1 - p) P(the number shown proves another cell safe
    | safe)`` added. With ``alike_once``, far cells alike count once among the
    candidates (:func:`_guess_candidates`). With ``longterm`` above 0 each
    score is multiplied by ``1 + longterm I / (1 - p)``, ``I`` the chance that
    a 50/50 of ``patterns`` forms around the candidate (:func:`fifty_influence`);
    pseudo-50/50s are looked for only with ``pseudo_first``, and with
    ``chains`` among the position's :func:`chain_patterns` too.
    Returns -1 when a position was too hard to enumerate or beyond the
    compiled end game (the game is then played by the exact engine).
    """  # pragma: no cover - compiled
    n = state.shape[0]
    secondary = score != 0
    third = score == 2
    blend = score == 3
    living = score == 4
    if endgame_limit > 0 and log_total <= math.log(endgame_limit + 0.5):
        cell = endgame_move(state, nbr, mines, endgame_limit, endgame_nodes)
        if cell >= 0:
            return cell
        if cell == -2:
            return -1
    if isolated and endgame_limit > 0:
        cell = isolated_move(state, nbr, mines, prob, endgame_limit, endgame_nodes)
        if cell >= 0:
            return cell
    if pseudo_first and patterns[0].shape[0] > 0:
        pseudo = np.empty(n, np.int64)
        found = pseudo_fifty_fifties(known, nbr, mines, prob, log_total, max_nodes, patterns, pseudo)
        if found >= 0 and chains:
            more = np.empty(n, np.int64)
            extra = pseudo_fifty_fifties(
                known, nbr, mines, prob, log_total, max_nodes, chain_patterns(known, nbr, prob), more
            )
            found = -1 if extra < 0 else _union(pseudo, found, more, extra)
        if found < 0:
            return -1
        if found > 0:
            cell = _living_least_likely(state, known, nbr, mines, prob, pseudo, found, max_nodes)
            if cell != -2:
                return cell
    if offedge > 0:
        cands = _split_candidates(state, nbr, prob, margin, candidates, offedge)
    else:
        cands = _guess_candidates(state, nbr, prob, margin, candidates, alike_once)
    count = cands.shape[0]
    if count == 1:
        return cands[0]
    some = np.empty(n)
    expected = np.empty(n)
    entropy = np.empty(n)
    second = np.empty(n)
    scored = _outlooks(
        state,
        known,
        nbr,
        mines,
        cands,
        count,
        max_nodes,
        some,
        expected,
        entropy,
        second,
        secondary,
        blend,
        living,
    )
    if scored < 0:
        return -1
    influence = np.zeros(n if longterm > 0.0 else 0)  # read only with longterm
    if longterm > 0.0 and (
        fifty_influence(known, nbr, mines, prob, log_total, max_nodes, patterns, cands, count, influence) < 0
    ):
        return -1
    alive = False  # some candidate is living (only asked when dead ones wait)
    if wait_dead:
        for t in range(count):
            if entropy[cands[t]] > 0.0:
                alive = True
    best = cands[0]
    best_score = -1.0
    for t in range(count):
        c = cands[t]
        if wait_dead and alive and entropy[c] == 0.0:
            continue  # its number is known already: it tells nothing, and can wait
        score = (1.0 - prob[c]) * (second[c] + progress * some[c] if secondary else 1.0 + some[c])
        if longterm > 0.0 and influence[c] > 0.0:
            score *= 1.0 + longterm * influence[c] / (1.0 - prob[c])
        if score > best_score + 1e-12:
            best, best_score = c, score
    if not third:
        return best
    # two plies deeper: the candidates by secondary safety, best first (stable), while one can still win
    done = np.zeros(count, np.bool_)
    left = count
    if wait_dead and alive:
        for t in range(count):
            if entropy[cands[t]] == 0.0:
                done[t] = True
                left -= 1
    best = -1
    best_score = -1.0
    for _ in range(left):
        # the next candidate by secondary safety (ties within 1e-12 to the earlier)
        u = -1
        top = -1.0
        for t in range(count):
            if not done[t]:
                value = (1.0 - prob[cands[t]]) * second[cands[t]]
                if value > top + 1e-12:
                    u, top = t, value
        done[u] = True
        c = cands[u]
        if best < 0:
            best = c
        if top <= best_score + 1e-12:
            break
        ahead = _tertiary(known, nbr, mines, c, margin, candidates, max_nodes)
        if ahead < 0:
            return -1
        score = (1.0 - prob[c]) * ahead
        if score > best_score + 1e-12:
            best, best_score = c, score
    return best


PROBABILISTIC = 0
PSEQ = 1
EXPERT = 2
EXPERT_PARAMS = np.array(
    [
        EXPERT_MARGIN,
        EXPERT_CANDIDATES,
        EXPERT_ENDGAME_LAYOUTS,
        EXPERT_ENDGAME_NODES,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
    ]
)
"""The ``expert`` policy's options as :func:`play_policy` takes them: margin, candidates, end-game
layouts, end-game nodes, the score (0.0 progress, 1.0 secondary safety, 2.0 tertiary, 3.0 blended,
4.0 living: see ``analyzer.play.fast.SCORE_CODES``), 1.0 to leave dead candidates for later (0.0:
guess them), 1.0 to guess pseudo-50/50 cells first (2.0: also those of chains of linked pairs, 0.0:
ignore them), 1.0 to play closed-off parts
of fixed mine count by their own end game first (0.0: as the rest), the number of off-front
candidates (0: the candidates are the first cells in the guess order), the weight of progress
added to a secondary score, 1.0 to count far cells alike once among the candidates (0.0: each), and
the weight of the chance that a 50/50 forms around a candidate (0.0: none)."""


@njit(cache=True)
def play_policy(
    policy: int,
    is_mine: np.ndarray,
    nbr: np.ndarray,
    mines: int,
    first: int,
    first_is_guess: bool,
    trace: np.ndarray,
    max_nodes: int,
    rands: np.ndarray,
    params: np.ndarray,
    patterns: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    start: np.ndarray,
    positions: np.ndarray,
) -> tuple[int, int, int, int]:
    """Play one game from its first click with the policy of ``probabilistic``, ``expert`` or PSEQ.

    Certainly safe cells are revealed before any guess, first those the
    single-number rules prove, then those the full probabilities prove; the
    position before each guess is therefore the same as the exact player's
    (revealing a safe cell never makes another one unsafe). The guess is the
    lowest probability (ties within 1e-12 to fewest unrevealed neighbours, then
    index) for ``PROBABILISTIC``; :func:`expert_guess` for ``EXPERT``, with
    ``params`` its options (:data:`EXPERT_PARAMS`) and ``patterns`` the
    board's :func:`fifty_fifty_patterns` when it guesses pseudo-50/50s first
    or weighs the 50/50s that may form (else :func:`no_patterns`); for
    ``PSEQ`` the survivors of :func:`pseq_candidates`, drawn among as
    ``numpy.random.Generator.integers(survivors)`` draws, from ``rands``: the
    generator's 32-bit words in turn (a game that runs out of them returns -1).

    The game starts from ``start`` (the shown numbers, ``HIDDEN`` elsewhere: all
    hidden for a new game, or a position of the game on ``is_mine``), ``first``
    being the first cell opened there. Row ``t`` of ``positions`` (as many rows
    as it has; none to record nothing) receives the position before the
    ``t``-th guessed cell of ``trace`` is opened (row 0: ``start``).

    Returns ``(won, guesses, reveals, traced)``: ``trace`` receives the cells
    guessed, in order (the first click included), ``traced`` of them. ``won``
    is 1 or 0, or -1 when a position was too hard to enumerate within
    ``max_nodes`` (the caller replays the game with the exact engine).
    """  # pragma: no cover - compiled
    n = is_mine.shape[0]
    deg = nbr.shape[1]
    count = np.zeros(n, np.int8)
    for i in range(n):
        if is_mine[i]:
            for k in range(deg):
                j = nbr[i, k]
                if j < n:
                    count[j] += 1
    state = start.copy()
    stack = np.empty(n * (deg + 1), np.int64)
    safe = np.empty(n, np.int64)
    prob = np.empty(n)
    known = np.empty(n, np.int8)
    info = np.zeros(1)
    cands = np.empty(n, np.int64)
    to_open = n - mines
    revealed = 0
    for i in range(n):
        if state[i] >= 0:
            revealed += 1
    if positions.shape[0] > 0:
        positions[0, :] = state
    guesses = 1 if first_is_guess else 0
    reveals = 1
    drawn = 0
    trace[0] = first
    traced = 1
    if is_mine[first]:
        return 0, guesses, reveals, traced
    revealed += _open(first, is_mine, count, nbr, state, stack)
    while revealed < to_open:
        known[:] = state
        _closure(known, nbr)
        found = 0
        for i in range(n):
            if known[i] == SAFE:
                safe[found] = i
                found += 1
        if found == 0:
            status = probabilities(known, nbr, mines, prob, max_nodes, info)
            if status <= 0:
                return -1 if status < 0 else -2, guesses, reveals, traced
            for i in range(n):
                if state[i] == HIDDEN and known[i] == HIDDEN and prob[i] == 0.0:
                    safe[found] = i
                    found += 1
        if found:
            for t in range(found):
                i = safe[t]
                if state[i] == HIDDEN:
                    reveals += 1
                    revealed += _open(i, is_mine, count, nbr, state, stack)
            continue
        if policy == PROBABILISTIC:
            cell = lowest_probability_cell(state, nbr, prob)
        elif policy == EXPERT:
            cell = expert_guess(
                state,
                known,
                nbr,
                mines,
                prob,
                info[0],
                params[0],
                int(params[1]),
                int(params[2]),
                int(params[3]),
                max_nodes,
                int(params[4]),
                params[5] != 0.0,
                patterns,
                params[7] != 0.0,
                int(params[8]),
                params[9],
                params[10] != 0.0,
                params[11],
                params[6] != 0.0,
                params[6] == 2.0,
            )
            if cell < 0:
                return -1, guesses, reveals, traced
        else:
            kept = pseq_candidates(state, known, nbr, mines, prob, max_nodes, cands)
            if kept < 0:
                return -1, guesses, reveals, traced
            cell = cands[0]
            if kept > 1:
                # numpy's Generator.integers(kept), as the Python player draws it: Lemire's
                # method on the generator's stream of 32-bit words, pre-drawn into ``rands``.
                if drawn >= rands.shape[0]:
                    return -1, guesses, reveals, traced
                product = rands[drawn] * kept
                drawn += 1
                low = product & 0xFFFFFFFF
                if low < kept:
                    threshold = (4294967296 - kept) % kept
                    while low < threshold:
                        if drawn >= rands.shape[0]:
                            return -1, guesses, reveals, traced
                        product = rands[drawn] * kept
                        drawn += 1
                        low = product & 0xFFFFFFFF
                cell = cands[product >> 32]
        guesses += 1
        reveals += 1
        if traced < positions.shape[0]:
            positions[traced, :] = state
        trace[traced] = cell
        traced += 1
        if is_mine[cell]:
            return 0, guesses, reveals, traced
        revealed += _open(cell, is_mine, count, nbr, state, stack)
    return 1, guesses, reveals, traced
