"""The one enumerator of a component's layouts (a backtracking search over its groups, in the
order :func:`component_order` gives): exact 64-bit counts for the solve, float64 for play;
the compiled half of :mod:`analyzer.solver.counting.enumerate`, with the limits and the
binomial table the other counting kernels share.
"""

from __future__ import annotations

import math

import numpy as np

from analyzer.jit import njit
from analyzer.solver.kernels.components import transpose

__all__ = ["MAX_COMPILED_CELLS", "MAX_ENUMERATION_CELLS", "component_order", "enumerate_component"]


#: Components of at most this many cells cannot overflow the compiled enumerator:
#: every count they give (at most ``8 * 2**cells``) fits a signed 64-bit integer.
#: Larger ones are enumerated with a check: see :func:`enumerate_component`.
MAX_COMPILED_CELLS = 59

#: The largest component the compiled enumerator takes: its count arrays grow as
#: the component's groups times its cells (a 201x201 lattice of clues would want
#: gigabytes), and the frontier programme is the engine for such components.
MAX_ENUMERATION_CELLS = 1_000

#: :func:`enumerate_component`'s ``nodes`` when it stops: past its node budget, or
#: before a count could pass 64 bits.
ENUMERATION_BUDGET, ENUMERATION_OVERFLOW = -1, -2


# The layouts counted so far, in floating point, must stay below this for every
# count to fit 64 bits: a group's mines summed over layouts are at most 8 times
# their number (2**59 * 8 = 2**62, and the float's relative error is far below 2x).
_OVERFLOW_GUARD = float(2**59)


# ``C(a, b)`` for ``0 <= b <= a <= 8`` (a group has at most 8 cells), 0 elsewhere: compiled
# kernels read module-level arrays as constants, so no call makes the table again.
BINOMIALS = np.array([[math.comb(a, b) for b in range(9)] for a in range(9)], dtype=np.int64)
FLOAT_BINOMIALS = BINOMIALS.astype(np.float64)


@njit(cache=True)
def _count_arrays(sizes: np.ndarray) -> tuple:  # type: ignore[type-arg]
    """A component's empty ``layouts[m]`` and ``group_mines[g, m]`` (one layout of no mines when it has
    no group), ``m`` up to its cells."""  # pragma: no cover - compiled
    top = 0
    for g in range(sizes.shape[0]):
        top += sizes[g]
    block = np.zeros((sizes.shape[0] + 1) * (top + 1), np.int64)  # one allocation
    layouts = block[: top + 1]
    if sizes.shape[0] == 0:
        layouts[0] = 1
    return layouts, block[top + 1 :].reshape((sizes.shape[0], top + 1))


@njit(cache=True)
def enumerate_component(
    sizes: np.ndarray, eq_off: np.ndarray, eq_groups: np.ndarray, rhs: np.ndarray, max_nodes: int
) -> tuple:  # type: ignore[type-arg]
    """:func:`analyzer.solver.counting.enumerate.count_enumerate` compiled, for a component of few cells.

    The groups of equation ``e`` are ``eq_groups[eq_off[e]:eq_off[e + 1]]``.
    The same search in the same order (:func:`analyzer.solver.counting.order.search_order`:
    the group whose equations have the fewest unassigned groups, then the most
    equations, then the lowest index), visiting the same nodes, so it gives up
    (``nodes < 0``) exactly where the Python search would with the same
    ``max_nodes``. Returns ``(nodes, solutions, layouts, group_mines)``:
    ``layouts[m]`` and ``group_mines[g, m]`` as in
    :class:`~analyzer.solver.counting.types.ComponentCounts`, unshifted.
    ``nodes`` is :data:`ENUMERATION_BUDGET` past ``max_nodes``, and
    :data:`ENUMERATION_OVERFLOW` when the layouts counted so far (followed in
    floating point beside the integers) come near ``2**59``: a component of at
    most :data:`MAX_COMPILED_CELLS` cells never does, and every count given is
    exact.
    """  # pragma: no cover - compiled
    n = sizes.shape[0]
    layouts, group_mines = _count_arrays(sizes)
    if n == 0:
        return 1, 1, layouts, group_mines
    of_off, of_eqs = transpose(n, eq_off, eq_groups)
    n_eqs = rhs.shape[0]
    eq_size = np.empty(n_eqs, np.int64)
    room = np.zeros(n_eqs, np.int64)
    for e in range(n_eqs):
        eq_size[e] = eq_off[e + 1] - eq_off[e]
        for t in range(eq_off[e], eq_off[e + 1]):
            room[e] += sizes[eq_groups[t]]
    no_flags = np.zeros((0, 0), np.bool_)
    nodes, solutions = search_component(
        np.arange(n),
        sizes,
        of_off,
        of_eqs,
        eq_size,
        rhs.copy(),
        room,
        np.empty(n_eqs, np.int64),
        max_nodes,
        BINOMIALS,
        _OVERFLOW_GUARD,
        layouts,
        group_mines,
        no_flags,
        no_flags,
        np.zeros(0, np.int64),
    )
    return nodes, solutions, layouts, group_mines


@njit(cache=True)
def search_component(
    groups: np.ndarray,
    sizes: np.ndarray,
    of_off: np.ndarray,
    of_eqs: np.ndarray,
    eq_size: np.ndarray,
    need: np.ndarray,
    room: np.ndarray,
    remaining: np.ndarray,
    max_nodes: int,
    binom: np.ndarray,
    guard: float,
    layouts: np.ndarray,
    group_mines: np.ndarray,
    some_mine: np.ndarray,
    some_safe: np.ndarray,
    record: np.ndarray,
) -> tuple:  # type: ignore[type-arg]
    """The search of :func:`enumerate_component` over one component of a board's groups, in place.

    The one enumerator of the exact solve and of the players. ``groups``
    (ascending) are the component's groups among the board's: group ``g`` has
    ``sizes[g]`` cells and sits in equations ``of_eqs[of_off[g]:of_off[g + 1]]``;
    equation ``e`` holds ``eq_size[e]`` groups, still needs ``need[e]`` mines
    and has ``room[e]`` cells (both left as they were when the search ends;
    ``remaining`` is scratch of one slot per equation). Counts go, added, into
    ``layouts[m]`` and ``group_mines[t, m]`` (``t`` the group's index in
    ``groups``) in ``binom``'s type: ``int64`` (exact; the search stops with
    :data:`ENUMERATION_OVERFLOW` once the layouts counted so far, followed in
    floating point, reach ``guard``) or ``float64`` (``guard`` infinite). When
    ``some_mine`` is not empty, ``some_mine[t, m]`` (``some_safe[t, m]``) is
    set when a layout of ``m`` mines puts a mine in (leaves a cell safe in) the
    group: exact feasibility beside floats that round. When ``record`` is not
    empty, solution ``s`` (in the order found) writes its mines by group
    (indexed as ``groups``) to ``record[s * n : (s + 1) * n]`` while they fit:
    the play engine reads a position's outlooks from them. Returns ``(nodes,
    solutions)``; ``nodes`` is :data:`ENUMERATION_BUDGET` past ``max_nodes``.
    """  # pragma: no cover - compiled
    n = groups.shape[0]
    if n == 0:  # one layout, of no mines
        layouts[0] += binom[0, 0]
        return 1, 1
    flags = some_mine.shape[0] > 0
    if n == 1:  # one node: every equation holds just this group (common in play)
        g = groups[0]
        x = need[of_eqs[of_off[g]]]
        for t in range(of_off[g], of_off[g + 1]):
            if need[of_eqs[t]] != x:
                return 1, 0
        if x < 0 or x > sizes[g]:
            return 1, 0
        layouts[x] += binom[sizes[g], x]
        group_mines[0, x] += binom[sizes[g], x] * x
        if flags:
            some_mine[0, x] = some_mine[0, x] or x > 0
            some_safe[0, x] = some_safe[0, x] or x < sizes[g]
        if record.shape[0] > 0:
            record[0] = x
        return 1, 1
    order = _search_order(groups, of_off, of_eqs, eq_size, remaining)
    work = np.zeros(3 * n, np.int64)
    values = work[:n]
    current = work[n : 2 * n]
    upper = work[2 * n :]
    nodes = 0
    solutions = 0
    counted = 0.0
    k = 0
    entering = True
    while k >= 0:
        t = order[k]
        g = groups[t]
        size = sizes[g]
        if entering:
            nodes += 1
            if nodes & 1023 == 0 and nodes > max_nodes:
                _undo(k - 1, order, groups, sizes, of_off, of_eqs, current, need, room)
                return ENUMERATION_BUDGET, 0
            lo = 0
            hi = size
            for u in range(of_off[g], of_off[g + 1]):
                e = of_eqs[u]
                if need[e] < hi:
                    hi = need[e]
                if need[e] - (room[e] - size) > lo:
                    lo = need[e] - (room[e] - size)
            if lo > hi:
                k -= 1
                entering = False
                continue
            for u in range(of_off[g], of_off[g + 1]):
                e = of_eqs[u]
                room[e] -= size
                need[e] -= lo
            current[k] = lo
            upper[k] = hi
        else:
            x = current[k]
            if x >= upper[k]:
                for u in range(of_off[g], of_off[g + 1]):
                    e = of_eqs[u]
                    need[e] += x
                    room[e] += size
                values[t] = 0
                k -= 1
                continue
            for u in range(of_off[g], of_off[g + 1]):
                need[of_eqs[u]] -= 1
            current[k] = x + 1
        values[t] = current[k]
        if k + 1 == n:
            weight = binom[0, 0]
            approximate = 1.0
            mines = 0
            for h in range(n):
                b = binom[sizes[groups[h]], values[h]]
                approximate *= b
                if approximate >= guard:  # before the weight could wrap (interpreted, numpy warns)
                    break
                weight *= b
                mines += values[h]
            counted += approximate
            if counted >= guard:  # before any integer below could wrap
                _undo(k, order, groups, sizes, of_off, of_eqs, current, need, room)
                return ENUMERATION_OVERFLOW, 0
            layouts[mines] += weight
            for h in range(n):
                if values[h]:
                    group_mines[h, mines] += weight * values[h]
            if flags:
                for h in range(n):
                    if values[h]:
                        some_mine[h, mines] = True
                    if values[h] < sizes[groups[h]]:
                        some_safe[h, mines] = True
            if (solutions + 1) * n <= record.shape[0]:
                record[solutions * n : (solutions + 1) * n] = values
            solutions += 1
            entering = False
        else:
            k += 1
            entering = True
    return nodes, solutions


@njit(cache=True)
def _undo(
    k: int,
    order: np.ndarray,
    groups: np.ndarray,
    sizes: np.ndarray,
    of_off: np.ndarray,
    of_eqs: np.ndarray,
    current: np.ndarray,
    need: np.ndarray,
    room: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """Give back the mines and room of the groups assigned at depths ``0..k`` (a search stopped early)."""
    for d in range(k, -1, -1):
        g = groups[order[d]]
        for u in range(of_off[g], of_off[g + 1]):
            e = of_eqs[u]
            need[e] += current[d]
            room[e] += sizes[g]


@njit(cache=True)
def component_order(n: int, eq_off: np.ndarray, eq_groups: np.ndarray) -> np.ndarray:
    """:func:`analyzer.solver.counting.order.search_order` compiled (quadratic: for small components).

    One group at a time, the least key among the groups left: the fewest
    unassigned groups in one of its equations, then the most equations, then
    the lowest index. (The Python version keeps the keys in a heap; keys only
    fall, so both take the same group at every step.)
    """  # pragma: no cover - compiled
    of_off, of_eqs = transpose(n, eq_off, eq_groups)
    n_eqs = eq_off.shape[0] - 1
    eq_size = np.empty(n_eqs, np.int64)
    for e in range(n_eqs):
        eq_size[e] = eq_off[e + 1] - eq_off[e]
    return _search_order(np.arange(n), of_off, of_eqs, eq_size, np.empty(n_eqs, np.int64))


@njit(cache=True)
def _search_order(
    groups: np.ndarray, of_off: np.ndarray, of_eqs: np.ndarray, eq_size: np.ndarray, remaining: np.ndarray
) -> np.ndarray:
    """:func:`component_order` over a component of a board's groups (see :func:`search_component`):
    indices into ``groups``; ``remaining`` is scratch."""  # pragma: no cover - compiled
    n = groups.shape[0]
    for t in range(n):
        g = groups[t]
        for u in range(of_off[g], of_off[g + 1]):
            remaining[of_eqs[u]] = eq_size[of_eqs[u]]
    done = np.zeros(n, np.bool_)
    order = np.empty(n, np.int64)
    for k in range(n):
        best = -1
        best_min = 0
        best_eqs = 0
        for t in range(n):
            if done[t]:
                continue
            g = groups[t]
            low = 0
            if of_off[g + 1] > of_off[g]:
                low = remaining[of_eqs[of_off[g]]]
                for u in range(of_off[g] + 1, of_off[g + 1]):
                    if remaining[of_eqs[u]] < low:
                        low = remaining[of_eqs[u]]
            count = of_off[g + 1] - of_off[g]
            if best < 0 or low < best_min or (low == best_min and count > best_eqs):
                best = t
                best_min = low
                best_eqs = count
        done[best] = True
        order[k] = best
        g = groups[best]
        for u in range(of_off[g], of_off[g + 1]):
            remaining[of_eqs[u]] -= 1
    return order
