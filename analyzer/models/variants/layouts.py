"""Every layout of a variant position, enumerated by CP-SAT, and the counts made from them.

:func:`enumerate_layouts` (a position's layouts, connectivity checked on each),
:func:`count_groups` (a component of groups of interchangeable cells) and
:func:`count_cubes` (a component under W, P or E clues) share one enumeration
(:func:`_enumerate`); a count past its limit is refused at once when one layout's free cells
prove it (:func:`~analyzer.models.variants.checks.free_cells`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ortools.sat.python import cp_model

from analyzer.errors import SolverTimeoutError
from analyzer.models.cpsat import _solver
from analyzer.models.variants.building import check_building
from analyzer.models.variants.checks import _rule_checks, free_cells, layout_checks
from analyzer.models.variants.connectivity import is_connected
from analyzer.models.variants.encoding import add_members, new_cells
from analyzer.models.variants.spec import ClueSpec, VariantSpec
from analyzer.solver.counting.types import Accumulator, ComponentCounts

__all__ = ["enumerate_layouts", "count_groups", "count_cubes"]


def _first_layout(
    model: cp_model.CpModel, x: Sequence[cp_model.IntVar], deadline: float | None
) -> list[int] | None:
    solver = _solver(deadline)
    status = solver.solve(model)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return [int(solver.boolean_value(v)) for v in x]
    if status == cp_model.INFEASIBLE:
        return None
    raise SolverTimeoutError("time limit reached while counting the layouts of a variant position")


def _enumerator(deadline: float | None) -> cp_model.CpSolver:
    """A solver that enumerates every solution, without CP-SAT's linear relaxation: it is
    rebuilt around each solution and helps no proof here (a 6x6 Q position's 52,595 layouts
    22.7 s -> 2.7 s of CPU; the same layouts)."""
    solver = _solver(deadline)
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.linearization_level = 0
    return solver


class _Layouts(cp_model.CpSolverSolutionCallback):
    """Every solution's layout that ``keep`` accepts, in ``found``; the search stops past
    ``limit`` of them (``None``: it goes on)."""

    def __init__(self, xs: Sequence[cp_model.IntVar], limit: int | None, keep: object) -> None:
        super().__init__()
        self._xs = xs
        self._indices = [v.index for v in xs]
        self._limit = limit
        self._keep = keep
        self.found: list[list[int]] = []
        self.overflow = False

    def on_solution_callback(self) -> None:
        # The helper's own read of a Boolean, not ``value``'s checks each call: the callback
        # of a 6x6 Q position's 52,595 layouts 3.3 s -> 2.4 s with the solve.
        read = self.SolutionBooleanValue
        layout = [int(read(i)) for i in self._indices]
        if self._keep(layout):  # type: ignore[operator]
            self.found.append(layout)
            if self._limit is not None and len(self.found) > self._limit:
                self.overflow = True
                self.stop_search()


def _enumerate(
    model: cp_model.CpModel,
    collect: cp_model.CpSolverSolutionCallback,
    deadline: float | None,
    what: str,
) -> bool:
    """Every solution of ``model`` to ``collect``; whether the search went to the end (not
    stopped by ``collect``). A time limit raises :class:`~analyzer.errors.SolverTimeoutError`
    (``what``: what was being counted)."""
    solver = _enumerator(deadline)
    status = solver.solve(model, collect)
    if isinstance(collect, _Layouts) and collect.overflow:
        return False
    if status in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
        return True
    if status == cp_model.MODEL_INVALID:  # pragma: no cover - a bug in the builders
        raise RuntimeError(f"CP-SAT rejected the model: {model.validate()}")
    # CP-SAT's own clock may stop it a little before ours reads the deadline.
    raise SolverTimeoutError(f"time limit reached while counting {what}")


def _too_many(
    model: cp_model.CpModel,
    x: Sequence[cp_model.IntVar],
    checks: Sequence[tuple[tuple[int, ...], Any]],
    cells: Sequence[int],
    deadline: float | None,
    count: Callable[[list[int], list[int], list[tuple[int, int]]], int],
    limit: int,
) -> bool:
    """Whether more than ``limit`` layouts are proved at once: one layout's cells of ``cells``
    that flip freely (:func:`~analyzer.models.variants.checks.free_cells`: ``a`` mines and ``b``
    safe cells alone, ``p`` pairs) stand for ``count(layout, alone, pairs)`` layouts, which the
    enumeration would stop after ``limit`` of."""
    first = _first_layout(model, x, deadline)
    if first is None:
        return False
    alone, pairs = free_cells(first, checks, cells)
    return count(first, alone, pairs) > limit


def enumerate_layouts(
    spec: VariantSpec,
    *,
    limit: int,
    deadline: float | None = None,
    certain: Mapping[int, int] | None = None,
) -> list[list[int]] | None:
    """Every layout meeting all the members (cells of ``spec.unknown``), or ``None`` past ``limit``.

    Connectivity is checked on each layout found. ``certain`` gives cells already known to
    hold the same value in every layout (:meth:`VariantModel.certain`): fixing them loses no
    layout, and spares the enumeration the partial layouts a connectivity check would reject.
    """
    check_building(deadline)
    model = cp_model.CpModel()
    x = new_cells(model, spec.size, [*spec.fixed, *(certain or {}).items()])
    # No circuit: its arcs would count each layout once a direction of its path.
    add_members(
        model, x, spec.clues, spec.rules, spec.total, switched=False, circuit=False, deadline=deadline
    )
    conns = [c for rule in spec.rules for c in rule.connected]
    unknown = list(spec.unknown)
    if not conns and all(_rule_checks(rule) is not None for rule in spec.rules):
        # More than ``limit`` layouts, proved at once: ``a`` mines and ``b`` safe cells of
        # one layout that flip freely give C(a + b, a) layouts of the same total (j of each
        # flipped, every j); the enumeration would stop after ``limit`` of them (an open 7x7
        # position under Q: 31 s to say so).
        checks = layout_checks(spec.clues, spec.rules)
        assert checks is not None
        fixed = {i for i, _ in spec.fixed} | set(certain or ())
        free = [i for i in unknown if i not in fixed]

        def count(first: list[int], alone: list[int], pairs: list[tuple[int, int]]) -> int:
            return math.comb(len(alone), sum(first[i] for i in alone)) * 2 ** len(pairs)

        if _too_many(model, x, checks, free, deadline, count, limit):
            return None
    if conns:
        collector = _Layouts(x, limit, lambda layout: all(is_connected(layout, c) for c in conns))
    else:
        collector = _Layouts([x[i] for i in unknown], limit, lambda v: True)
    if not _enumerate(model, collector, deadline, "the layouts of a variant position"):
        return None
    if conns:
        return [[layout[i] for i in unknown] for layout in collector.found]
    return collector.found


def count_groups(
    sizes: Sequence[int],
    clues: Sequence[tuple[tuple[tuple[int, int], ...], tuple[int, ...]]],
    *,
    deadline: float | None = None,
) -> ComponentCounts:
    """Count a component of groups: ``x_g in 0..size_g``, each clue ``sum(coef * x_g) in allowed``.

    A solution stands for ``prod C(size_g, x_g)`` cell layouts (the groups of a
    component are interchangeable cells of one colour in the same clues).

    >>> count_groups((2, 1), [(((0, 2), (1, 1)), (2,))]).layouts
    (0, 2, 0, 0)
    """
    model = cp_model.CpModel()
    xs = [model.new_int_var(0, size, f"g{g}") for g, size in enumerate(sizes)]
    for terms, allowed in clues:
        expr = sum(coef * xs[g] for g, coef in terms)
        model.add_linear_expression_in_domain(expr, cp_model.Domain.from_values(list(allowed)))
    acc = Accumulator(tuple(sizes))

    class _Collect(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            acc.add([self.value(v) for v in xs])

    _enumerate(model, _Collect(), deadline, "a variant component")
    return acc.result("cpsat-groups")


def count_cubes(
    size: int,
    clues: Sequence[ClueSpec],
    *,
    limit: int,
    deadline: float | None = None,
) -> ComponentCounts | None:
    """Count a component of ``size`` cells under W, P or E clues (renumbered 0..size-1), by mine count.

    Every layout of the component is enumerated (one cell a group); ``None`` past ``limit``.

    >>> wall = ClueSpec(0, (), (), cubes=(((0, 1), (1, 0)), ((0, 0), (1, 1))))
    >>> count_cubes(2, [wall], limit=10).layouts
    (0, 2, 0)
    """
    model = cp_model.CpModel()
    x = new_cells(model, size)
    add_members(model, x, clues, switched=False)
    # More than ``limit`` layouts, proved at once when one layout has enough cells that flip
    # freely: the enumeration would stop there too, after ``limit`` layouts (an open 7x7 P
    # position: 18 s to say so).
    if size > limit.bit_length():
        checks = layout_checks(clues, ())
        assert checks is not None

        def count(first: list[int], alone: list[int], pairs: list[tuple[int, int]]) -> int:
            return 2 ** (len(alone) + len(pairs))

        if _too_many(model, x, checks, range(size), deadline, count, limit):
            return None
    found = _Layouts(x, limit, lambda v: True)
    if not _enumerate(model, found, deadline, "a variant component"):
        return None
    acc = Accumulator((1,) * size)
    for layout in found.found:
        acc.add(layout)
    return acc.result("cpsat-cubes")
