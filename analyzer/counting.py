"""Count the layouts of one component, by number of mines.

A component's problem (:class:`~analyzer.decomposition.ComponentProblem`) has
integer variables ``x_g in 0..size_g`` (mines in group ``g``) and equations
``sum x_g = rhs``. One solution ``x`` stands for ``prod_g C(size_g, x_g)`` cell
layouts. For each number of mines ``m`` we keep

* ``layouts[m]``: the cell layouts with ``m`` mines in the component, and
* ``group_mines[g][m]``: the same layouts weighted by their mines in group ``g``
  (so a cell of ``g`` holds a mine in ``group_mines[g][m] / size_g`` of them).

Two engines fill these: :func:`count_enumerate`, a plain backtracking
enumerator in Python (no fixed cost: best on small components), and
:func:`analyzer.models.cpsat.count_cpsat`, which enumerates with OR-Tools
CP-SAT. :func:`count_component` picks one.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from math import comb

from analyzer.decomposition import ComponentProblem
from analyzer.errors import SolverTimeoutError

__all__ = ["ComponentCounts", "ENGINES", "count_enumerate", "count_component"]

ENGINES = ("auto", "enumerate", "cpsat")

# ``auto`` hands a component to CP-SAT only past this many groups: below it the
# plain enumerator wins (CP-SAT's model building and Python callback cost a fixed
# ~1 ms and ~10 us a solution; see ``python -m analyzer.bench engines``).
AUTO_CPSAT_MIN_GROUPS = 10**9


@dataclass(frozen=True, slots=True)
class ComponentCounts:
    """Layouts of one component by number of mines (exact ints).

    Attributes
    ----------
    layouts : tuple of int
        ``layouts[m]`` = cell layouts with ``m`` mines in the component.
    group_mines : tuple of tuple of int
        ``group_mines[g][m]`` = sum over those layouts of the mines in group ``g``.
    solutions : int
        Number of solutions over group counts (not cells).
    engine : str
        Which engine counted.
    """

    layouts: tuple[int, ...]
    group_mines: tuple[tuple[int, ...], ...]
    solutions: int
    engine: str

    @property
    def is_empty(self) -> bool:
        """True when no layout satisfies the component."""
        return self.solutions == 0


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
            group_mines=tuple(tuple(row) for row in self.group_mines),
            solutions=self.solutions,
            engine=engine,
        )


def _search_order(problem: ComponentProblem) -> list[int]:
    """Groups in an order that closes equations early (most-constrained first)."""
    n = len(problem.sizes)
    eqs_of: list[list[int]] = [[] for _ in range(n)]
    for e, (groups, _rhs) in enumerate(problem.equations):
        for g in groups:
            eqs_of[g].append(e)
    remaining = [len(groups) for groups, _ in problem.equations]
    chosen: list[int] = []
    left = set(range(n))
    while left:
        # Prefer the group that finishes equations (fewest unassigned groups left
        # in its equations), then the one in most equations.
        g = min(
            left,
            key=lambda g: (min((remaining[e] for e in eqs_of[g]), default=0), -len(eqs_of[g]), g),
        )
        chosen.append(g)
        left.remove(g)
        for e in eqs_of[g]:
            remaining[e] -= 1
    return chosen


def count_enumerate(problem: ComponentProblem, *, deadline: float | None = None) -> ComponentCounts:
    """Count a component by backtracking over group values, with bound pruning.

    Each equation keeps the mines it still needs and the room left in its
    unassigned groups; a value outside ``[need - room, need]`` is never tried,
    so every leaf is a solution.

    Parameters
    ----------
    problem : ComponentProblem
    deadline : float, optional
        A ``time.monotonic()`` instant past which :class:`SolverTimeoutError` is raised.

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
    order = _search_order(problem)
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
        if deadline is not None and nodes & 1023 == 0 and time.monotonic() > deadline:
            raise SolverTimeoutError("time limit reached while enumerating a component")
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

    visit(0)
    return acc.result("enumerate")


def count_component(
    problem: ComponentProblem, *, engine: str = "auto", deadline: float | None = None
) -> ComponentCounts:
    """Count one component with the engine asked for (``"auto"`` chooses).

    >>> count_component(ComponentProblem((2,), (((0,), 1),)), engine="cpsat").layouts
    (0, 2, 0)
    """
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; expected one of {ENGINES}")
    if engine == "auto":
        engine = "cpsat" if len(problem.sizes) >= AUTO_CPSAT_MIN_GROUPS else "enumerate"
    if engine == "cpsat":
        from analyzer.models.cpsat import count_cpsat

        return count_cpsat(problem, deadline=deadline)
    return count_enumerate(problem, deadline=deadline)
