"""Count a component by backtracking over its groups' mine counts.

No fixed cost: the best engine while a component has few solutions. The search
is iterative (an explicit stack, one level per group), so components of any
number of groups need no change to Python's recursion limit.

:func:`count_enumerate_compiled` is the same search compiled
(:func:`analyzer.solver.kernels.enumerate.enumerate_component`), for components small
enough that every count fits 64 bits; ``engine="auto"`` uses it, and the tests
check it against this one.
"""

from __future__ import annotations

import time

import numpy as np

from analyzer.errors import SolverTimeoutError
from analyzer.solver.counting.order import search_order
from analyzer.solver.counting.types import Accumulator, BudgetExceeded, ComponentCounts
from analyzer.solver.decomposition import ComponentProblem
from analyzer.solver.kernels.enumerate import ENUMERATION_OVERFLOW, MAX_ENUMERATION_CELLS, enumerate_component

__all__ = ["count_enumerate", "count_enumerate_compiled"]


def count_enumerate(
    problem: ComponentProblem, *, deadline: float | None = None, max_nodes: int | None = None
) -> ComponentCounts:
    """Count a component by backtracking over group values, with bound pruning.

    Each equation keeps the mines it still needs and the room left in its
    unassigned groups; a value outside ``[need - room, need]`` is never tried,
    so every leaf is a solution.

    Parameters
    ----------
    problem : ComponentProblem
    deadline : float, optional
        A ``time.monotonic()`` instant past which :class:`SolverTimeoutError` is raised.
    max_nodes : int, optional
        Give up (raise :class:`~analyzer.solver.counting.types.BudgetExceeded`)
        after visiting this many search nodes.

    Examples
    --------
    Two groups of sizes 1 and 2 that hold one mine between them:

    >>> counts = count_enumerate(ComponentProblem((1, 2), (((0, 1), 1),)))
    >>> counts.layouts, counts.group_low, counts.group_mines, counts.solutions
    ((0, 3, 0, 0), 1, ((1,), (2,)), 2)
    """
    if deadline is not None and time.monotonic() > deadline:
        raise SolverTimeoutError("time limit reached before counting a component")
    acc = Accumulator(problem.sizes)
    order = search_order(problem, deadline)
    if not problem.sizes:
        acc.add([])
    else:
        _search(problem, order, acc, deadline, max_nodes)
    return acc.result("enumerate")


def _search(
    problem: ComponentProblem,
    order: list[int],
    acc: Accumulator,
    deadline: float | None,
    max_nodes: int | None,
) -> None:
    """The backtracking of :func:`count_enumerate`: every solution of a component of at least
    one group (visited in ``order``) added to ``acc``."""
    sizes = problem.sizes
    n = len(sizes)
    eqs_of: list[list[int]] = [[] for _ in range(n)]
    need = []
    room = []
    for e, (groups, rhs) in enumerate(problem.equations):
        need.append(rhs)
        room.append(sum(sizes[g] for g in groups))
        for g in groups:
            eqs_of[g].append(e)
    values = [0] * n
    # Level k holds group order[k]; ``current[k]`` is its value now, ``upper[k]``
    # the last value to try. Entering a level takes the group's cells out of
    # the room of its equations; leaving puts them back.
    current = [0] * n
    upper = [-1] * n
    nodes = 0
    k = 0
    entering = True
    while k >= 0:
        g = order[k]
        eqs = eqs_of[g]
        size = sizes[g]
        if entering:
            nodes += 1
            if nodes & 1023 == 0:
                if deadline is not None and time.monotonic() > deadline:
                    raise SolverTimeoutError("time limit reached while enumerating a component")
                if max_nodes is not None and nodes > max_nodes:
                    raise BudgetExceeded
            lo, hi = 0, size
            for e in eqs:
                ne = need[e]
                if ne < hi:
                    hi = ne
                if ne - (room[e] - size) > lo:
                    lo = ne - (room[e] - size)
            if lo > hi:
                k -= 1
                entering = False
                continue
            for e in eqs:
                room[e] -= size
                need[e] -= lo
            current[k] = lo
            upper[k] = hi
        else:
            # Back from level k + 1: move to this group's next value, or leave.
            x = current[k]
            if x >= upper[k]:
                for e in eqs:
                    need[e] += x
                    room[e] += size
                values[g] = 0
                k -= 1
                continue
            for e in eqs:
                need[e] -= 1
            current[k] = x + 1
        values[g] = current[k]
        if k + 1 == n:
            acc.add(values)
            entering = False
        else:
            k += 1
            entering = True


def count_enumerate_compiled(problem: ComponentProblem, *, max_nodes: int) -> ComponentCounts | None:
    """:func:`count_enumerate` with ``max_nodes``, compiled; ``None`` for a component it does not take.

    The same counts, and :class:`~analyzer.solver.counting.types.BudgetExceeded`
    after the same number of nodes, for a component in groups of at most 8 cells
    whose counts fit 64 bits (always, up to
    :data:`~analyzer.solver.kernels.enumerate.MAX_COMPILED_CELLS` cells; beyond, the search
    stops with ``None`` before a count could pass them), of at most
    :data:`~analyzer.solver.kernels.enumerate.MAX_ENUMERATION_CELLS` cells (``None`` beyond:
    its arrays would grow as its groups times its cells). It has no deadline of
    its own: ``auto`` gives it a budget of a few thousand nodes.

    >>> problem = ComponentProblem((1, 2), (((0, 1), 1),))
    >>> count_enumerate_compiled(problem, max_nodes=100) == count_enumerate(problem)
    True
    """
    sizes = problem.sizes
    if max(sizes, default=0) > 8 or sum(sizes) > MAX_ENUMERATION_CELLS:
        return None  # a group larger than a neighbourhood (the binomials stop at 8), or too many cells
    nodes, solutions, layouts, group_mines = enumerate_component(*problem_arrays(problem), max_nodes)
    if nodes == ENUMERATION_OVERFLOW:
        return None
    if nodes < 0:
        raise BudgetExceeded
    return counts_from_arrays(layouts, group_mines, int(solutions), "enumerate")


def problem_arrays(problem: ComponentProblem) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A component as the compiled engines take it: sizes, equation offsets, groups, right-hand sides."""
    equations = problem.equations
    eq_off = np.zeros(len(equations) + 1, np.int64)
    np.cumsum([len(groups) for groups, _ in equations], out=eq_off[1:])
    eq_groups = np.fromiter((g for groups, _ in equations for g in groups), np.int64, count=int(eq_off[-1]))
    rhs = np.fromiter((value for _, value in equations), np.int64, count=len(equations))
    return np.array(problem.sizes, np.int64), eq_off, eq_groups, rhs


def counts_from_arrays(
    layouts: np.ndarray, group_mines: np.ndarray, solutions: int, engine: str
) -> ComponentCounts:
    """A compiled engine's counts (``layouts[m]``, ``group_mines[g, m]``) as :class:`ComponentCounts`."""
    counts = layouts.tolist()
    low = next((m for m, value in enumerate(counts) if value), 0)
    rows: list[tuple[int, ...]] = []
    for row in group_mines.tolist():
        last = len(row) - 1
        while last >= 0 and not row[last]:
            last -= 1
        rows.append(tuple(row[low : last + 1]) if last >= 0 else ())
    return ComponentCounts(
        layouts=tuple(counts),
        solutions=solutions,
        engine=engine,
        group_mines=tuple(rows),
        group_low=low,
    )
