"""The values the counting engines share: a component's counts by mine number.

A component's problem (:class:`~analyzer.solver.decomposition.ComponentProblem`)
has integer variables ``x_g in 0..size_g`` (mines in group ``g``) and equations
``sum x_g = rhs``. One solution ``x`` stands for ``prod_g C(size_g, x_g)`` cell
layouts. For each number of mines ``m`` an engine reports

* ``layouts[m]``: the cell layouts with ``m`` mines in the component, and
* ``group_mines[g][m - group_low]``: the same layouts weighted by their mines in
  group ``g`` (so a cell of ``g`` holds a mine in that value ``/ size_g`` of
  them), or a function that gives the weighted sums directly. The rows start at
  the fewest mines any solution has and stop at the most, so that a component of
  many groups with few solutions keeps a few numbers a group, not one per
  possible mine count.

This module sits below every engine and the dispatcher, so that they all import
it and none imports another.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from math import comb

__all__ = ["ComponentCounts", "Accumulator", "BudgetExceeded"]


class BudgetExceeded(Exception):
    """An engine gave up after the search budget it was given (not an error)."""


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
        ``group_mines[g][m - group_low]`` = sum over those layouts of the mines
        in group ``g``, when the engine keeps it (the enumerating engines do);
        a row may stop early (the missing values are 0).
    group_low : int
        The mine count of the first value of every ``group_mines`` row.
    numerator_function : callable, optional
        For engines that do not keep ``group_mines``: given the weight of each
        mine count, returns every group's weighted numerator.
    retained_bytes : int
        An estimate of the memory the engine keeps alive behind
        ``numerator_function`` (the frontier's forward layers), for the cache's bound.
    """

    layouts: tuple[int, ...]
    solutions: int
    engine: str
    group_mines: tuple[tuple[int, ...], ...] | None = None
    group_low: int = 0
    numerator_function: Callable[[Sequence[int]], tuple[int, ...]] | None = field(
        default=None, repr=False, compare=False
    )
    retained_bytes: int = field(default=0, repr=False, compare=False)

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
            shifted = weights[self.group_low :]
            return tuple(
                sum(a * b for a, b in zip(row, shifted, strict=False) if a) for row in self.group_mines
            )
        if self.numerator_function is None:  # pragma: no cover - every engine sets one
            raise RuntimeError(f"engine {self.engine!r} kept no numerators")
        return self.numerator_function(weights)

    def estimated_bytes(self) -> int:
        """A rough estimate of the memory this result holds (for the cache's bound)."""
        return (
            _ints_bytes(self.layouts)
            + sum(_ints_bytes(row) for row in self.group_mines or ())
            + (self.retained_bytes)
        )


def _ints_bytes(values: Sequence[int]) -> int:
    """Bytes of a tuple of Python ints: the tuple's slots plus each int object."""
    return 56 + sum(8 + 28 + (abs(v).bit_length() + 7) // 8 for v in values)


class Accumulator:
    """Collects solutions of a problem into per-mine-count totals.

    Sparse while it collects (a dictionary a group, made at the group's first
    mine), so that a component of thousands of groups costs nothing before its
    first solution: a dense table of groups by mine counts grows with the square
    of the board.

    >>> acc = Accumulator((1, 2))
    >>> acc.add([1, 0]); acc.add([0, 1])
    >>> counts = acc.result("enumerate")
    >>> counts.layouts, counts.group_low, counts.group_mines
    ((0, 3, 0, 0), 1, ((1,), (2,)))
    """

    def __init__(self, sizes: tuple[int, ...]) -> None:
        self.sizes = sizes
        self.top = sum(sizes)
        self.binoms = [[comb(s, x) for x in range(s + 1)] for s in sizes]
        self.layouts: dict[int, int] = {}
        self.group_mines: list[dict[int, int] | None] = [None] * len(sizes)
        self.solutions = 0

    def add(self, values: list[int]) -> None:
        binoms = self.binoms
        filled = [(g, x) for g, x in enumerate(values) if x]
        weight = 1
        mines = 0
        for g, x in filled:
            weight *= binoms[g][x]
            mines += x
        layouts = self.layouts
        layouts[mines] = layouts.get(mines, 0) + weight
        rows = self.group_mines
        for g, x in filled:
            row = rows[g]
            if row is None:
                rows[g] = {mines: weight * x}
            else:
                row[mines] = row.get(mines, 0) + weight * x
        self.solutions += 1

    def result(self, engine: str) -> ComponentCounts:
        layouts = [0] * (self.top + 1)
        for m, n in self.layouts.items():
            layouts[m] = n
        low = min(self.layouts, default=0)
        rows: list[tuple[int, ...]] = []
        for row in self.group_mines:
            if row is None:
                rows.append(())
            else:
                rows.append(tuple(row.get(m, 0) for m in range(low, max(row) + 1)))
        return ComponentCounts(
            layouts=tuple(layouts),
            solutions=self.solutions,
            engine=engine,
            group_mines=tuple(rows),
            group_low=low,
        )
