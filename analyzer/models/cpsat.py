"""The CP-SAT formulation of a component, and conflict finding with assumptions.

Variables: one integer ``x_g in 0..size_g`` per group. Constraints: one linear
equality per clue. Counting enumerates every solution (one worker, the model
built once) and accumulates the weights in Python; conflict finding enforces
each clue by a literal, assumes them all, and shrinks CP-SAT's infeasible core
to a minimal one by deletion.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from ortools.sat.python import cp_model

from analyzer.errors import SolverTimeoutError
from analyzer.solver.counting.types import Accumulator, ComponentCounts
from analyzer.solver.decomposition import ComponentProblem

__all__ = ["build_model", "count_cpsat", "minimal_conflict"]


def build_model(
    problem: ComponentProblem, *, enforce: bool = False
) -> tuple[cp_model.CpModel, list[cp_model.IntVar], list[cp_model.IntVar]]:
    """The CP-SAT model of a component.

    Returns the model, the group variables and, when ``enforce`` is true, one
    Boolean per equation that switches it on (empty otherwise).

    >>> model, xs, lits = build_model(ComponentProblem((1, 2), (((0, 1), 1),)), enforce=True)
    >>> len(xs), len(lits)
    (2, 1)
    """
    model = cp_model.CpModel()
    xs = [model.new_int_var(0, size, f"x{g}") for g, size in enumerate(problem.sizes)]
    lits = []
    for e, (groups, rhs) in enumerate(problem.equations):
        constraint = model.add(sum(xs[g] for g in groups) == rhs)
        if enforce:
            lit = model.new_bool_var(f"clue{e}")
            constraint.only_enforce_if(lit)
            lits.append(lit)
    return model, xs, lits


class _Collector(cp_model.CpSolverSolutionCallback):
    def __init__(self, xs: Sequence[cp_model.IntVar], acc: Accumulator):
        super().__init__()
        self._xs = xs
        self._acc = acc

    def on_solution_callback(self) -> None:
        self._acc.add([self.value(x) for x in self._xs])


def _solver(deadline: float | None) -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    if deadline is not None:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise SolverTimeoutError("time limit reached before CP-SAT could start")
        solver.parameters.max_time_in_seconds = remaining
    return solver


def count_cpsat(problem: ComponentProblem, *, deadline: float | None = None) -> ComponentCounts:
    """Count a component by enumerating every CP-SAT solution.

    >>> count_cpsat(ComponentProblem((1, 2), (((0, 1), 1),))).layouts
    (0, 3, 0, 0)
    """
    model, xs, _ = build_model(problem)
    acc = Accumulator(problem.sizes)
    solver = _solver(deadline)
    solver.parameters.enumerate_all_solutions = True
    status = solver.solve(model, _Collector(xs, acc))
    if status == cp_model.OPTIMAL or status == cp_model.INFEASIBLE:
        return acc.result("cpsat")
    if status == cp_model.MODEL_INVALID:  # pragma: no cover - a bug in build_model
        raise RuntimeError(f"CP-SAT rejected the model: {model.validate()}")
    raise SolverTimeoutError("time limit reached while CP-SAT enumerated a component")


def _is_feasible(model: cp_model.CpModel, lits: list, active: Sequence[int], deadline: float | None) -> bool:
    model.clear_assumptions()
    model.add_assumptions([lits[e] for e in active])
    status = _solver(deadline).solve(model)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return True
    if status == cp_model.INFEASIBLE:
        return False
    raise SolverTimeoutError("time limit reached while looking for the clues in conflict")


def minimal_conflict(
    problem: ComponentProblem,
    *,
    extra: Sequence[tuple[tuple[int, ...], int]] = (),
    deadline: float | None = None,
) -> tuple[int, ...]:
    """A minimal set of equations (indices) that no solution satisfies together.

    ``extra`` equations hold always and are not part of the answer (the global
    mine count, say). CP-SAT's core under assumptions is a first, often small,
    answer; dropping each equation in turn whose absence keeps the rest
    infeasible makes it minimal: removing any one of the returned equations
    makes the rest satisfiable. Returns ``()`` if the problem is satisfiable, or
    if the ``extra`` equations alone admit no solution.

    >>> minimal_conflict(ComponentProblem((1, 1, 1), (((0, 1), 2), ((1, 2), 0), ((0,), 1))))
    (0, 1)
    """
    model, xs, lits = build_model(problem, enforce=True)
    for groups, rhs in extra:
        model.add(sum(xs[g] for g in groups) == rhs)
    everything = list(range(len(lits)))
    model.add_assumptions(lits)
    solver = _solver(deadline)
    status = solver.solve(model)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return ()
    if status != cp_model.INFEASIBLE:
        raise SolverTimeoutError("time limit reached while looking for the clues in conflict")
    index = {lit.index: e for e, lit in enumerate(lits)}
    core = sorted(index[i] for i in solver.sufficient_assumptions_for_infeasibility() if i in index)
    if not core or _is_feasible(model, lits, core, deadline):
        core = everything
    for e in list(core):
        trial = [k for k in core if k != e]
        if not _is_feasible(model, lits, trial, deadline):
            core = trial
    return tuple(core)
