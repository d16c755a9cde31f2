"""What each guess would show, for the fast play engine's players to score it by (numba).

For a safe cell, the *outlook* is what revealing it would show: the chance that
the number shown proves another cell safe, the cells proved safe on average,
the entropy of the number, and the secondary safety (the chance of surviving
this guess and the next). :func:`_reveal_outlook` solves the position once for
each number the cell could show; :func:`_outlooks` reads most of them from the
position's counts instead (:func:`_outlook_from_counts`), for every candidate
at once. :func:`_tertiary` looks a click further (the ``expert`` player's
tertiary score); :func:`_living_least_likely` takes the least likely cell among
those whose outlook shows more than one number (the ``expert`` player's pick
among pseudo-50/50 cells). The ``pseq`` player's filters are outlooks too
(:mod:`analyzer.play.fast.pseq`). Positions and codes are those of
:mod:`analyzer.play.fast.probabilities`.
"""

from __future__ import annotations

import math

import numpy as np

from analyzer.jit import njit
from analyzer.play.fast.candidates import _far_cells, _guess_candidates
from analyzer.play.fast.probabilities import _NO, FLAG, HIDDEN, _count_components, probabilities
from analyzer.solver.kernels.enumerate import FLOAT_BINOMIALS as _FLOAT_BINOMIALS
from analyzer.solver.kernels.join import mul_counts as _mul
from analyzer.solver.kernels.join import products_of_others as _products

__all__: list[str] = []  # kernels for the other stages' modules only


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
    with_second: bool,
    blend: bool = False,
    living: bool = False,
) -> tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:  # pragma: no cover - compiled
    """:func:`_reveal_outlook` of each of the first ``count`` cells of ``cands``: how many were read from
    the counts, and the four figures by cell (some, expected, entropy, second; set at ``cands[:count]``).

    The first three figures are read from the position's counts
    (:func:`_outlook_from_counts`) where that applies; the secondary safety
    (``with_second``, else NaN) and the other cases solve the position once for
    each number the cell could show. Far cells (:func:`_far_cells`) with as
    many neighbours are alike, so their outlook is computed once per
    neighbourhood size. How many were read is -1 when a position was too hard
    to enumerate.
    """
    n = state.shape[0]
    some = np.empty(n)
    expected = np.empty(n)
    entropy = np.empty(n)
    second = np.empty(n)
    deg = nbr.shape[1]
    far = _far_cells(state, nbr)  # far cells of one neighbourhood size are alike: solved once
    # The position's counts, once for every candidate. The secondary safety solves each
    # number instead, so it counts an empty board (no work; the same types either way).
    record = np.empty(0 if with_second else _RECORD_CAP, np.int64)
    counted = known[:0] if with_second else known
    counts = _count_components(counted, nbr, max_nodes, record)
    reuse = counts.status == 1 and not with_second and (counts.n_comps == 0 or counts.n_solutions[0] >= 0)
    mines_left = mines
    for i in range(n):
        if known[i] == FLAG:
            mines_left -= 1
    group_of = np.full(n, -1, np.int64)
    rec_start = np.zeros(max(counts.n_comps, 1), np.int64)
    if reuse:
        for g in range(counts.group_size.shape[0]):
            for u in range(counts.group_off[g], counts.group_off[g + 1]):
                group_of[counts.group_cells[u]] = g
        for k in range(counts.n_comps - 1):
            rec_start[k + 1] = rec_start[k] + counts.n_solutions[k] * (
                counts.comp_start[k + 1] - counts.comp_start[k]
            )
    limit = max(mines_left, 0)
    full, others, full_ok, others_ok, others_deg = _products(
        counts.layouts, counts.possible, counts.n_comps, counts.comp_top, limit
    )
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
            counts.group_size,
            counts.comp_of,
            counts.comp_start,
            counts.comp_groups,
            counts.comp_top,
            counts.n_comps,
            counts.layouts,
            counts.possible,
            counts.n_solutions,
            rec_start,
            record,
            counts.background.shape[0],
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
            return -1, some, expected, entropy, second
        some[c], expected[c], entropy[c], second[c] = outlook[0], outlook[1], outlook[2], outlook[3]
        if pure:
            cached[size, 0] = 1.0
            cached[size, 1], cached[size, 2], cached[size, 3], cached[size, 4] = outlook
    return read, some, expected, entropy, second


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
def _living_least_likely(
    prob: np.ndarray, cells: np.ndarray, count: int, entropy: np.ndarray
) -> int:  # pragma: no cover - compiled
    """The living cell of ``cells[:count]`` least likely to be a mine (ties to the first); -1 when none lives.

    Living: it could show more than one number (its ``entropy``, as :func:`_outlooks` gives it, above 0).
    """
    best = -1
    best_p = 2.0
    for t in range(count):
        c = cells[t]
        if entropy[c] > 0.0 and prob[c] < best_p - 1e-12:
            best, best_p = c, prob[c]
    return best
