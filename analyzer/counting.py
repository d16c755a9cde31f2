"""Count the layouts of one component, by number of mines.

A component's problem (:class:`~analyzer.decomposition.ComponentProblem`) has
integer variables ``x_g in 0..size_g`` (mines in group ``g``) and equations
``sum x_g = rhs``. One solution ``x`` stands for ``prod_g C(size_g, x_g)`` cell
layouts. For each number of mines ``m`` we keep

* ``layouts[m]``: the cell layouts with ``m`` mines in the component, and
* ``group_mines[g][m]``: the same layouts weighted by their mines in group ``g``
  (so a cell of ``g`` holds a mine in ``group_mines[g][m] / size_g`` of them).

Three engines fill these: :func:`count_enumerate`, a plain backtracking
enumerator in Python (no fixed cost: best on components with few solutions);
:func:`analyzer.frontier.count_frontier`, a dynamic programme over a sweep of
the groups (its cost follows the partial states, not the solutions: best on
big, tangled components); and :func:`analyzer.models.cpsat.count_cpsat`, which
enumerates with OR-Tools CP-SAT. :func:`count_component` picks one.
"""

from __future__ import annotations

import heapq
import sys
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from math import comb

from analyzer.decomposition import ComponentProblem
from analyzer.errors import SolverTimeoutError

__all__ = [
    "ComponentCounts",
    "ENGINES",
    "count_enumerate",
    "count_component",
    "search_order",
    "cache_info",
    "clear_cache",
]

ENGINES = ("auto", "enumerate", "frontier", "split", "cpsat")

# ``auto`` first enumerates, which is fastest while a component has few
# solutions; past this many search nodes it hands the component to the
# frontier dynamic programme, whose cost follows the number of distinct partial
# states instead of solutions. CP-SAT is never faster at counting here (its
# model building and per-solution Python callback cost more than the plain
# enumerator's whole search), so ``auto`` keeps it for finding the clues in
# conflict. Measured with ``python -m analyzer.bench engines``.
AUTO_ENUMERATE_NODE_BUDGET = 2000


class _BudgetExceeded(Exception):
    pass


@dataclass(frozen=True, slots=True)
class ComponentCounts:
    """Layouts of one component by number of mines (exact ints).

    Attributes
    ----------
    layouts : tuple of int
        ``layouts[m]`` = cell layouts with ``m`` mines in the component.
    solutions : int
        Number of solutions over group counts (not cells).
    engine : str
        Which engine counted.
    group_mines : tuple of tuple of int, optional
        ``group_mines[g][m]`` = sum over those layouts of the mines in group
        ``g``, when the engine keeps it (the enumerating engines do).
    numerator_function : callable, optional
        For engines that do not keep ``group_mines``: given the weight of each
        mine count, returns every group's weighted numerator.
    """

    layouts: tuple[int, ...]
    solutions: int
    engine: str
    group_mines: tuple[tuple[int, ...], ...] | None = None
    numerator_function: Callable[[Sequence[int]], tuple[int, ...]] | None = field(
        default=None, repr=False, compare=False
    )

    @property
    def is_empty(self) -> bool:
        """True when no layout satisfies the component."""
        return self.solutions == 0

    def group_numerators(self, weights: Sequence[int]) -> tuple[int, ...]:
        """``sum_m group_mines[g][m] * weights[m]`` for every group ``g``.

        ``weights[m]`` is how many ways the rest of the board completes a layout
        of this component with ``m`` mines.
        """
        if self.group_mines is not None:
            return tuple(
                sum(a * b for a, b in zip(row, weights, strict=False) if a) for row in self.group_mines
            )
        if self.numerator_function is None:  # pragma: no cover - every engine sets one
            raise RuntimeError(f"engine {self.engine!r} kept no numerators")
        return self.numerator_function(weights)


class _Accumulator:
    """Collects solutions of a problem into per-mine-count totals."""

    def __init__(self, sizes: tuple[int, ...]):
        self.sizes = sizes
        top = sum(sizes)
        self.binoms = [[comb(s, x) for x in range(s + 1)] for s in sizes]
        self.layouts = [0] * (top + 1)
        self.group_mines = [[0] * (top + 1) for _ in sizes]
        self.solutions = 0

    def add(self, values: list[int]) -> None:
        weight = 1
        mines = 0
        for g, x in enumerate(values):
            weight *= self.binoms[g][x]
            mines += x
        self.layouts[mines] += weight
        for g, x in enumerate(values):
            if x:
                self.group_mines[g][mines] += weight * x
        self.solutions += 1

    def result(self, engine: str) -> ComponentCounts:
        return ComponentCounts(
            layouts=tuple(self.layouts),
            solutions=self.solutions,
            engine=engine,
            group_mines=tuple(tuple(row) for row in self.group_mines),
        )


def search_order(problem: ComponentProblem) -> list[int]:
    """Groups in an order that closes equations early (most-constrained first).

    Greedy: next comes the group whose equations have the fewest unassigned
    groups left, ties broken by more equations, then by index. A heap with
    lazy updates keeps this ``O((n + edges) log n)``.
    """
    n = len(problem.sizes)
    eqs_of: list[list[int]] = [[] for _ in range(n)]
    for e, (groups, _rhs) in enumerate(problem.equations):
        for g in groups:
            eqs_of[g].append(e)
    remaining = [len(groups) for groups, _ in problem.equations]

    def key(g: int) -> tuple[int, int, int]:
        return (min((remaining[e] for e in eqs_of[g]), default=0), -len(eqs_of[g]), g)

    heap = [key(g) for g in range(n)]
    heapq.heapify(heap)
    done = [False] * n
    chosen: list[int] = []
    while heap:
        item = heapq.heappop(heap)
        g = item[2]
        if done[g] or item != key(g):
            continue
        done[g] = True
        chosen.append(g)
        for e in eqs_of[g]:
            remaining[e] -= 1
            for h in problem.equations[e][0]:
                if not done[h]:
                    heapq.heappush(heap, key(h))
    return chosen


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
        Give up (raise ``_BudgetExceeded``) after visiting this many search nodes.

    Examples
    --------
    Two groups of sizes 1 and 2 that hold one mine between them:

    >>> counts = count_enumerate(ComponentProblem((1, 2), (((0, 1), 1),)))
    >>> counts.layouts, counts.group_mines, counts.solutions
    ((0, 3, 0, 0), ((0, 1, 0, 0), (0, 2, 0, 0)), 2)
    """
    sizes = problem.sizes
    n = len(sizes)
    acc = _Accumulator(sizes)
    order = search_order(problem)
    eqs_of: list[list[int]] = [[] for _ in range(n)]
    need = []
    room = []
    for e, (groups, rhs) in enumerate(problem.equations):
        need.append(rhs)
        room.append(sum(sizes[g] for g in groups))
        for g in groups:
            eqs_of[g].append(e)
    values = [0] * n
    nodes = 0

    def visit(k: int) -> None:
        nonlocal nodes
        if k == n:
            acc.add(values)
            return
        nodes += 1
        if nodes & 1023 == 0:
            if deadline is not None and time.monotonic() > deadline:
                raise SolverTimeoutError("time limit reached while enumerating a component")
            if max_nodes is not None and nodes > max_nodes:
                raise _BudgetExceeded
        g = order[k]
        size = sizes[g]
        eqs = eqs_of[g]
        lo, hi = 0, size
        for e in eqs:
            ne = need[e]
            if ne < hi:
                hi = ne
            if ne - (room[e] - size) > lo:
                lo = ne - (room[e] - size)
        if lo > hi:
            return
        for e in eqs:
            room[e] -= size
        for x in range(lo, hi + 1):
            for e in eqs:
                need[e] -= x
            values[g] = x
            visit(k + 1)
            for e in eqs:
                need[e] += x
        values[g] = 0
        for e in eqs:
            room[e] += size

    # One frame per group: components of thousands of groups need more room than
    # the default limit (Python 3.11+ frames of pure Python code use no C stack).
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, n + 100))
    try:
        visit(0)
    finally:
        sys.setrecursionlimit(limit)
    return acc.result("enumerate")


_CACHE: OrderedDict[tuple[str, ComponentProblem], ComponentCounts] = OrderedDict()
CACHE_SIZE = 4096
"""Counted components kept for reuse (least recently used dropped first)."""


def count_component(
    problem: ComponentProblem, *, engine: str = "auto", deadline: float | None = None
) -> ComponentCounts:
    """Count one component with the engine asked for, reusing earlier counts.

    ``"auto"`` enumerates while that stays cheap; past a budget of search nodes
    it sweeps the component with the frontier programme. ``"split"`` cuts the
    component at split squares (:mod:`analyzer.split`) wherever a useful cut
    exists and sweeps what cannot be cut; ``auto`` does not, because on every
    class of ``python -m analyzer.bench engines`` the sweep was as fast or
    faster (it already cuts the component at each step of the sweep). Equal problems (the same groups and
    equations in the same local order: a component untouched by the last move,
    or the same shape elsewhere on the board) are counted once: see
    :func:`cache_info`.

    >>> count_component(ComponentProblem((2,), (((0,), 1),)), engine="cpsat").layouts
    (0, 2, 0)
    """
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; expected one of {ENGINES}")
    key = (engine, problem)
    hit = _CACHE.get(key)
    if hit is not None:
        _CACHE.move_to_end(key)
        _STATS["hits"] += 1
        return hit
    _STATS["misses"] += 1
    if deadline is not None and time.monotonic() > deadline:
        raise SolverTimeoutError("time limit reached before counting a component")
    counted = _count(problem, engine, deadline)
    _CACHE[key] = counted
    if len(_CACHE) > CACHE_SIZE:
        _CACHE.popitem(last=False)
    return counted


_STATS = {"hits": 0, "misses": 0}


def cache_info() -> dict[str, int]:
    """Hits, misses and size of the component cache.

    >>> sorted(cache_info())
    ['hits', 'misses', 'size']
    """
    return {**_STATS, "size": len(_CACHE)}


def clear_cache() -> None:
    """Forget every counted component."""
    _CACHE.clear()
    _STATS.update(hits=0, misses=0)


def _count(problem: ComponentProblem, engine: str, deadline: float | None) -> ComponentCounts:
    if engine == "enumerate":
        return count_enumerate(problem, deadline=deadline)
    if engine == "cpsat":
        from analyzer.models.cpsat import count_cpsat

        return count_cpsat(problem, deadline=deadline)
    from analyzer.frontier import count_frontier
    from analyzer.split import count_split, find_separator

    if engine == "auto":
        try:
            return count_enumerate(problem, deadline=deadline, max_nodes=AUTO_ENUMERATE_NODE_BUDGET)
        except _BudgetExceeded:
            pass
    if engine == "split":
        cut = find_separator(problem)
        if cut is not None:
            piece = partial(count_component, engine=engine)
            return count_split(problem, cut, count=piece, deadline=deadline)
    return count_frontier(problem, deadline=deadline)
