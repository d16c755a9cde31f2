"""The frontier programme: a component counted by a dynamic programme over a sweep of its
groups (the compiled half of :mod:`analyzer.solver.counting.frontier`).
"""

from __future__ import annotations

import numpy as np

from analyzer.jit import njit
from analyzer.solver.kernels.components import transpose
from analyzer.solver.kernels.enumerate import _OVERFLOW_GUARD, BINOMIALS, _count_arrays, component_order

__all__ = ["frontier_component", "FRONTIER_BUDGET", "FRONTIER_OVERFLOW"]


#: :func:`frontier_component`'s status when it gives up (its counts otherwise start
#: with the number of states it made): past its budget of states or coefficients,
#: or a count (or a state's key) that would not fit 64 bits.
FRONTIER_BUDGET, FRONTIER_OVERFLOW = -1, -2

# The forward counts are bounded (in floating point, before they are made) below this:
# every integer the sweep adds stays below 2**62.
_FRONTIER_GUARD = float(2**62)


@njit(cache=True)
def frontier_component(
    sizes: np.ndarray,
    eq_off: np.ndarray,
    eq_groups: np.ndarray,
    rhs: np.ndarray,
    max_states: int,
    max_coefficients: int,
) -> tuple:  # type: ignore[type-arg]
    """:func:`analyzer.solver.counting.frontier.count_frontier` compiled, exact in 64 bits.

    The same sweep in the same order (:func:`~analyzer.solver.kernels.enumerate.component_order`): after ``k``
    groups, a state is the mines each open equation still needs (packed into one
    integer, a digit an equation), and each state holds its layouts by mines so
    far over the layer's span of mine counts. States of the next layer are found
    by sorting the keys the moves lead to. A backward pass gives each state's
    completions by mines, and a group's mines summed over layouts by the
    component's mine count are its moves' forward counts times their
    completions: the ``group_mines`` of :func:`~analyzer.solver.kernels.enumerate.enumerate_component`, so the
    caller joins them the same way.

    Returns ``(states, solutions, layouts, group_mines)`` as
    :func:`~analyzer.solver.kernels.enumerate.enumerate_component` does, or ``states`` :data:`FRONTIER_BUDGET`
    past ``max_states`` states or ``max_coefficients`` stored counts, and
    :data:`FRONTIER_OVERFLOW` where a count could pass 64 bits (the forward
    counts are bounded in floating point before they are made, the layouts
    checked below ``2**59``, and every later count is at most 8 times a layout
    count) or a state's key would. Every count it gives is exact.
    """  # pragma: no cover - compiled
    n = sizes.shape[0]
    n_eqs = rhs.shape[0]
    layouts, group_mines = _count_arrays(sizes)
    if n == 0:
        return 1, 1, layouts, group_mines
    of_off, of_eqs = transpose(n, eq_off, eq_groups)
    order = component_order(n, eq_off, eq_groups)
    position = np.empty(n, np.int64)
    for k in range(n):
        position[order[k]] = k
    first = np.full(n_eqs, n, np.int64)
    last = np.full(n_eqs, -1, np.int64)
    for e in range(n_eqs):
        for t in range(eq_off[e], eq_off[e + 1]):
            p = position[eq_groups[t]]
            first[e] = min(first[e], p)
            last[e] = max(last[e], p)
    # Layer k (the state before step k) has the equations with groups on both sides
    # of the sweep there open, ascending: opened[lay_off[k]:lay_off[k + 1]].
    lay_off = np.zeros(n + 2, np.int64)
    for k in range(n + 1):
        count = 0
        for e in range(n_eqs):
            if first[e] < k <= last[e]:
                count += 1
        lay_off[k + 1] = lay_off[k] + count
    opened = np.empty(lay_off[n + 1], np.int64)
    width_max = 0
    for k in range(n + 1):
        t = lay_off[k]
        for e in range(n_eqs):
            if first[e] < k <= last[e]:
                opened[t] = e
                t += 1
        width_max = max(width_max, lay_off[k + 1] - lay_off[k])
    # A state packs into one integer: equation i of the layer is a digit of base
    # rhs + 1 (it needs 0..rhs mines), worth mult[lay_off[k] + i].
    mult = np.ones(lay_off[n + 1], np.int64)
    for k in range(n + 1):
        worth = 1.0
        for t in range(lay_off[k], lay_off[k + 1]):
            if worth * (rhs[opened[t]] + 1) >= _FRONTIER_GUARD:
                return FRONTIER_OVERFLOW, 0, layouts, group_mines
            if t > lay_off[k]:
                mult[t] = mult[t - 1] * (rhs[opened[t - 1]] + 1)
            worth *= rhs[opened[t]] + 1
    place = np.full(n_eqs, -1, np.int64)  # an equation's index in the current layer
    binom = BINOMIALS
    # room_after[t] for the t-th (group, equation) pair of of_eqs: the equation's cells
    # in groups after this one in the sweep.
    room_after = np.zeros(of_eqs.shape[0], np.int64)
    for g in range(n):
        for t in range(of_off[g], of_off[g + 1]):
            e = of_eqs[t]
            for s in range(eq_off[e], eq_off[e + 1]):
                h = eq_groups[s]
                if position[h] > position[g]:
                    room_after[t] += sizes[h]
    # Layer 0: the empty state, one layout of no mines.
    keys = [np.zeros(1, np.int64)]
    counts = [np.ones((1, 1), np.int64)]
    low = np.zeros(n + 1, np.int64)  # each layer's lowest mine count (its counts' column 0)
    targets = []
    solutions = [np.ones(1, np.int64)]
    states = 1
    stored = 1
    state = np.zeros(width_max + 1, np.int64)
    for k in range(n):
        g = order[k]
        size = sizes[g]
        start = lay_off[k]
        before = lay_off[k + 1] - start
        for i in range(before):
            place[opened[start + i]] = i
        after_start = lay_off[k + 1]
        after = lay_off[k + 2] - after_start
        layer_keys = keys[k]
        layer = counts[k]
        rows = layer_keys.shape[0]
        cand_key = np.empty(rows * (size + 1), np.int64)
        cand_from = np.empty(rows * (size + 1), np.int64)
        n_cand = 0
        target = np.full((rows, size + 1), -1, np.int64)
        for r in range(rows):
            code = layer_keys[r]
            for i in range(before):
                base = rhs[opened[start + i]] + 1
                state[i] = code % base
                code //= base
            lo = 0
            hi = size
            for t in range(of_off[g], of_off[g + 1]):
                e = of_eqs[t]
                need = state[place[e]] if first[e] < k else rhs[e]
                if need < hi:
                    hi = need
                if need - room_after[t] > lo:
                    lo = need - room_after[t]
            for x in range(lo, hi + 1):
                key = 0
                for i in range(after):
                    e = opened[after_start + i]
                    need = state[place[e]] if first[e] < k else rhs[e]
                    for t in range(of_off[g], of_off[g + 1]):
                        if of_eqs[t] == e:
                            need -= x
                    key += need * mult[after_start + i]
                cand_key[n_cand] = key
                cand_from[n_cand] = r * (size + 1) + x
                n_cand += 1
        for i in range(before):
            place[opened[start + i]] = -1
        sorted_at = np.argsort(cand_key[:n_cand], kind="mergesort")
        next_keys = np.empty(n_cand, np.int64)
        next_rows = 0
        for j in range(n_cand):
            c = sorted_at[j]
            if next_rows == 0 or next_keys[next_rows - 1] != cand_key[c]:
                next_keys[next_rows] = cand_key[c]
                next_rows += 1
            target[cand_from[c] // (size + 1), cand_from[c] % (size + 1)] = next_rows - 1
        width = layer.shape[1]
        x_lo = size
        x_hi = 0
        for j in range(n_cand):
            x = cand_from[j] % (size + 1)
            x_lo = min(x_lo, x)
            x_hi = max(x_hi, x)
        next_width = width + x_hi - x_lo if n_cand else 1
        states += next_rows
        stored += next_rows * next_width
        if states > max_states or stored > max_coefficients:
            return FRONTIER_BUDGET, 0, layouts, group_mines
        # Bound every count of the next layer before making it.
        largest = np.zeros(rows, np.float64)
        for r in range(rows):
            for a in range(width):
                largest[r] = max(largest[r], float(layer[r, a]))
        bound = np.zeros(next_rows, np.float64)
        sols_bound = np.zeros(next_rows, np.float64)
        for r in range(rows):
            for x in range(size + 1):
                t = target[r, x]
                if t >= 0:
                    bound[t] += largest[r] * binom[size, x]
                    sols_bound[t] += float(solutions[k][r])
        for t in range(next_rows):
            if bound[t] >= _FRONTIER_GUARD or sols_bound[t] >= _FRONTIER_GUARD:
                return FRONTIER_OVERFLOW, 0, layouts, group_mines
        sols = np.zeros(next_rows, np.int64)
        for r in range(rows):
            for x in range(size + 1):
                t = target[r, x]
                if t >= 0:
                    sols[t] += solutions[k][r]
        nxt = np.zeros((next_rows, next_width), np.int64)
        for r in range(rows):
            for x in range(size + 1):
                t = target[r, x]
                if t < 0:
                    continue
                w = binom[size, x]
                shift = x - x_lo
                for a in range(width):
                    c = layer[r, a]
                    if c:
                        nxt[t, a + shift] += c * w
        keys.append(next_keys[:next_rows].copy())
        counts.append(nxt)
        low[k + 1] = low[k] + x_lo
        targets.append(target)
        solutions.append(sols)
    final = counts[n]
    if final.shape[0] == 0:
        return states, 0, layouts, group_mines
    total = 0.0
    for a in range(final.shape[1]):
        layouts[low[n] + a] = final[0, a]
        total += float(final[0, a])
    if total >= _OVERFLOW_GUARD:
        return FRONTIER_OVERFLOW, 0, layouts, group_mines
    # Backward: each state's completions by their mines (from its layer's step on);
    # every such count is at most a layout count, as every state has a forward count.
    done = np.ones((1, 1), np.int64)
    done_low = 0
    for k in range(n - 1, -1, -1):
        g = order[k]
        size = sizes[g]
        target = targets[k]
        layer = counts[k]
        rows = layer.shape[0]
        width = layer.shape[1]
        x_lo = size
        x_hi = 0
        for r in range(rows):
            for x in range(size + 1):
                if target[r, x] >= 0:
                    x_lo = min(x_lo, x)
                    x_hi = max(x_hi, x)
        back = np.zeros((rows, done.shape[1] + x_hi - x_lo), np.int64)
        for r in range(rows):
            for x in range(size + 1):
                t = target[r, x]
                if t < 0:
                    continue
                w = binom[size, x]
                for b in range(done.shape[1]):
                    c = done[t, b]
                    if c:
                        back[r, b + x - x_lo] += c * w
                if x == 0:
                    continue
                # This group holds x mines: forward layouts times completions, by total mines.
                wx = w * x
                for a in range(width):
                    f = layer[r, a]
                    if f == 0:
                        continue
                    base = low[k] + a + x + done_low
                    for b in range(done.shape[1]):
                        c = done[t, b]
                        if c:
                            group_mines[g, base + b] += wx * f * c
        done = back
        done_low = done_low + x_lo
    return states, solutions[n][0], layouts, group_mines
