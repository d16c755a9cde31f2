"""The CP-SAT formulation of a component, and conflict finding with assumptions.

Variables: one integer ``x_g in 0..size_g`` per group. Constraints: one linear
equality per clue. Counting enumerates every solution (one worker, the model
built once) and accumulates the weights in Python; conflict finding enforces
each clue by a literal, assumes them all, and shrinks CP-SAT's infeasible core
to a minimal one by deletion.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from ortools.sat.python import cp_model

from analyzer.errors import SolverTimeoutError
from analyzer.solver.counting.types import Accumulator, ComponentCounts
from analyzer.solver.decomposition import ComponentProblem

__all__ = [
    "Effort",
    "build_model",
    "count_cpsat",
    "is_feasible",
    "minimal_conflict",
    "minimal_core",
    "settled_groups",
    "shrink_conflict",
    "smallest_core",
    "sum_range",
]


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
    # CP-SAT's own SIGINT handler would outlive the solve: afterwards Ctrl+C (or a Jupyter
    # kernel interrupt) killed the process instead of raising KeyboardInterrupt.
    solver.parameters.catch_sigint_signal = False
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


class Effort:
    """A budget of CP-SAT work for a run of solves, counted alike on every machine and under any load.

    A solve is charged the constraints and assumptions CP-SAT takes in (each solve copies and
    presolves the whole model: most of a small solve's time) and its search's deterministic time
    (CP-SAT's own clock, independent of the machine's load), weighed at :data:`UNITS_PER_SECOND`.
    A search stopped by effort rather than by the clock gives the same answer on a busy machine as
    on a quiet one.

    >>> effort = Effort(seconds=0.001)
    >>> effort.units, effort.spent()
    (12.0, False)
    >>> effort.charge(constraints=10, assumptions=5, deterministic_time=0.0)
    >>> effort.spent()
    True
    """

    #: Units of work about a second of the conflict search takes on the shared 2-core machine
    #: (measured on chains of 30 to 999 clues: 9,000 to 20,000 units a second).
    UNITS_PER_SECOND = 12_000

    __slots__ = ("units",)

    def __init__(self, *, seconds: float):
        self.units = seconds * self.UNITS_PER_SECOND

    def spent(self) -> bool:
        return self.units <= 0

    def charge(self, *, constraints: int, assumptions: int, deterministic_time: float) -> None:
        self.units -= constraints + assumptions + deterministic_time * self.UNITS_PER_SECOND


def _charge(
    effort: Effort | None, model: cp_model.CpModel, active: Sequence[int], solver: cp_model.CpSolver
) -> None:
    if effort is not None:
        effort.charge(
            constraints=len(model.proto.constraints),
            assumptions=len(active),
            deterministic_time=solver.response_proto.deterministic_time,
        )


def _status(
    model: cp_model.CpModel,
    lits: Sequence[cp_model.IntVar],
    active: Sequence[int],
    deadline: float | None,
    effort: Effort | None = None,
) -> tuple[bool, cp_model.CpSolver]:
    """Whether the model holds with the equations ``active`` switched on (and the solver that said so).

    With an ``effort``, the solve is charged to it, and none starts once it is spent (raising
    :class:`~analyzer.errors.SolverTimeoutError`, as a deadline does).
    """
    if effort is not None and effort.spent():
        raise SolverTimeoutError("the effort set for the search is spent")
    model.clear_assumptions()
    model.add_assumptions([lits[e] for e in active])
    solver = _solver(deadline)
    if effort is not None:
        solver.parameters.max_deterministic_time = effort.units / Effort.UNITS_PER_SECOND
    status = solver.solve(model)
    _charge(effort, model, active, solver)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return True, solver
    if status == cp_model.INFEASIBLE:
        return False, solver
    if status == cp_model.MODEL_INVALID:  # pragma: no cover - a bug in the model builders
        raise RuntimeError(f"CP-SAT rejected the model: {model.validate()}")
    raise SolverTimeoutError("time limit reached while looking for the clues in conflict")


def is_feasible(
    model: cp_model.CpModel,
    lits: Sequence[cp_model.IntVar] = (),
    *,
    deadline: float | None = None,
) -> bool:
    """Whether the model holds with every literal of ``lits`` on.

    >>> model = cp_model.CpModel()
    >>> x = model.new_int_var(0, 3, "x")
    >>> on = model.new_bool_var("on")
    >>> _ = model.add(x == 4).only_enforce_if(on)
    >>> is_feasible(model), is_feasible(model, [on])
    (True, False)
    """
    feasible, _ = _status(model, lits, range(len(lits)), deadline)
    model.clear_assumptions()
    return feasible


def _core(solver: cp_model.CpSolver, lits: Sequence[cp_model.IntVar], active: Sequence[int]) -> list[int]:
    """CP-SAT's infeasible core of the last solve, as indices into ``lits`` (within ``active``)."""
    index = {lits[e].index: e for e in active}
    return sorted({index[i] for i in solver.sufficient_assumptions_for_infeasibility() if i in index})


def _shrunk(
    model: cp_model.CpModel,
    lits: Sequence[cp_model.IntVar],
    active: Sequence[int],
    solver: cp_model.CpSolver,
    deadline: float | None,
    effort: Effort | None = None,
) -> list[int]:
    """The core of an infeasible solve over ``active``, checked (``active`` itself if it is not one)."""
    core = _core(solver, lits, active)
    if len(core) < len(active) and (not core or _status(model, lits, core, deadline, effort)[0]):
        return list(active)
    return core or list(active)


def minimal_core(
    model: cp_model.CpModel,
    lits: Sequence[cp_model.IntVar],
    *,
    first: Sequence[int] = (),
    deadline: float | None = None,
) -> tuple[int, ...] | None:
    """A minimal set of the switchable constraints ``lits`` that the model cannot meet together.

    The model's other constraints always hold. Returns ``None`` when the model
    holds with every literal on. Otherwise CP-SAT's core under assumptions is a
    first, often small, answer; each member in turn is dropped when the rest
    stays infeasible, and then the rest shrinks to the core CP-SAT gives for it
    (deletion that reuses each core). The result is minimal: switching off any
    one of its literals makes the model feasible. Members of ``first`` are
    tried for deletion before the others (kept only when they cannot go).

    >>> model = cp_model.CpModel()
    >>> x = model.new_int_var(0, 3, "x")
    >>> lits = [model.new_bool_var(f"l{i}") for i in range(3)]
    >>> _ = model.add(x == 1).only_enforce_if(lits[0])
    >>> _ = model.add(x == 2).only_enforce_if(lits[1])
    >>> _ = model.add(x >= 2).only_enforce_if(lits[2])
    >>> minimal_core(model, lits, first=[1])
    (0, 2)
    """
    core, is_minimal = _shrink_core(model, lits, first=first, deadline=deadline)
    if not is_minimal:
        raise SolverTimeoutError("time limit reached while looking for the clues in conflict")
    return core


def _shrink_core(
    model: cp_model.CpModel,
    lits: Sequence[cp_model.IntVar],
    *,
    first: Sequence[int] = (),
    deadline: float | None = None,
    effort: Effort | None = None,
) -> tuple[tuple[int, ...] | None, bool]:
    """:func:`minimal_core`, or past ``deadline`` (or ``effort`` spent) the infeasible set shrunk
    so far and ``False``.

    Raises :class:`~analyzer.errors.SolverTimeoutError` only if the deadline
    passes before even the first solve says whether the model is feasible.
    """
    everything = list(range(len(lits)))
    feasible, solver = _status(model, lits, everything, deadline)  # whatever effort is left: it is the answer
    _charge(effort, model, everything, solver)
    if feasible:
        return None, True
    kept: list[int] = []
    queue: list[int] = everything
    try:
        core = _shrunk(model, lits, everything, solver, deadline, effort)
        queue = core
        if first:
            core = everything
        for e in first:
            # Without e, among all that is left (not only within CP-SAT's first core).
            trial = [k for k in core if k != e]
            feasible, solver = _status(model, lits, trial, deadline, effort)
            if feasible:  # e is in every infeasible subset of what is left
                kept.append(e)
            else:
                core = _shrunk(model, lits, trial, solver, deadline, effort)
        queue = [e for e in core if e not in kept]
        while queue:
            e = queue[0]
            trial = kept + queue[1:]
            feasible, solver = _status(model, lits, trial, deadline, effort)
            queue.pop(0)
            if feasible:
                kept.append(e)
                continue
            # Infeasible without e: keep only what the new core needs.
            smaller = set(_shrunk(model, lits, trial, solver, deadline, effort))
            kept = [k for k in kept if k in smaller]
            queue = [k for k in queue if k in smaller]
    except SolverTimeoutError:
        # kept + queue is infeasible at every step (queue is the whole core until the loop starts).
        model.clear_assumptions()
        return tuple(sorted(set(kept) | set(queue))), False
    model.clear_assumptions()
    return tuple(sorted(kept)), True


def smallest_core(
    model: cp_model.CpModel,
    lits: Sequence[cp_model.IntVar],
    holds: Callable[[cp_model.CpSolver], Sequence[bool]],
    *,
    known: Sequence[int],
    rounds: int = 30,
    deadline: float | None = None,
) -> tuple[tuple[int, ...], bool]:
    """The smallest infeasible set of literals, by implicit hitting sets, within ``rounds`` solves.

    ``known`` is an infeasible set already found (a :func:`minimal_core`).
    Each round takes a smallest set of literals that meets every correction
    set seen so far (a second small CP-SAT model) and asks whether it is
    infeasible: if so it is a smallest core; if not, the literals broken by
    a solution that keeps as many on as it can (``holds(solver)[e]`` false)
    form a new correction set. ``model`` is not changed.
    Returns the smallest core found and whether it is proven smallest
    (the ``known`` set, unproven, when the rounds run out).
    """
    best = tuple(sorted(known))
    # Solutions that keep as many literals on as they can break few equations:
    # small correction sets, so few rounds.
    widest = model.clone()
    widest.maximize(sum(lits))
    hitting = cp_model.CpModel()
    picks = [hitting.new_bool_var(f"p{e}") for e in range(len(lits))]
    hitting.add(sum(picks) <= len(best) - 1)
    hitting.minimize(sum(picks))
    for _ in range(rounds):
        search = _solver(deadline)
        status = search.solve(hitting)
        if status == cp_model.INFEASIBLE:
            return best, True  # nothing smaller meets every correction set
        if status != cp_model.OPTIMAL:
            raise SolverTimeoutError("time limit reached while looking for the smallest explanation")
        chosen = [e for e in range(len(lits)) if search.boolean_value(picks[e])]
        feasible, solver = _status(widest, lits, chosen, deadline)
        if not feasible:
            return tuple(chosen), True
        broken = [e for e, ok in enumerate(holds(solver)) if not ok]
        if not broken:  # pragma: no cover - every literal holds, yet the whole set is infeasible
            break
        hitting.add_bool_or([picks[e] for e in broken])
    return best, False


def minimal_conflict(
    problem: ComponentProblem,
    *,
    extra: Sequence[tuple[tuple[int, ...], int]] = (),
    deadline: float | None = None,
) -> tuple[int, ...]:
    """A minimal set of equations (indices) that no solution satisfies together.

    ``extra`` equations hold always and are not part of the answer (the global
    mine count, say). :func:`minimal_core` over one literal an equation.
    Returns ``()`` if the problem is satisfiable, or if the ``extra`` equations
    alone admit no solution.

    >>> minimal_conflict(ComponentProblem((1, 1, 1), (((0, 1), 2), ((1, 2), 0), ((0,), 1))))
    (0, 1)
    """
    core, is_minimal = shrink_conflict(problem, extra=extra, deadline=deadline)
    if not is_minimal:
        raise SolverTimeoutError("time limit reached while looking for the clues in conflict")
    return core


def shrink_conflict(
    problem: ComponentProblem,
    *,
    extra: Sequence[tuple[tuple[int, ...], int]] = (),
    deadline: float | None = None,
    effort: Effort | None = None,
) -> tuple[tuple[int, ...], bool]:
    """:func:`minimal_conflict` within a deadline: the set shrunk so far, and whether it is minimal.

    Past ``deadline``, or with ``effort`` spent (the first solve always runs), the
    answer is still a set of equations with no common solution (all of them, if CP-SAT
    could not even say so in time), with ``False``. ``((), True)`` when the problem is satisfiable.

    >>> shrink_conflict(ComponentProblem((1, 1, 1), (((0, 1), 2), ((1, 2), 0), ((0,), 1))))
    ((0, 1), True)
    """
    model, xs, lits = build_model(problem, enforce=True)
    for groups, rhs in extra:
        model.add(sum(xs[g] for g in groups) == rhs)
    try:
        core, is_minimal = _shrink_core(model, lits, deadline=deadline, effort=effort)
    except SolverTimeoutError:
        return tuple(range(len(lits))), False
    return core or (), is_minimal


_TURN_EFFORT = 0.2
"""Deterministic time (CP-SAT's units, about seconds) a round of :func:`settled_groups` spends."""


def settled_groups(
    problem: ComponentProblem, *, deadline: float | None = None
) -> tuple[tuple[bool, ...], tuple[bool, ...]] | None:
    """Which groups every solution leaves empty, and which it fills, by feasibility alone.

    Returns ``(empty, full)``: ``empty[g]`` if no solution puts a mine in group
    ``g``, ``full[g]`` if every solution fills it; ``None`` if there is no
    solution. Each solution seen is a witness for every group at once; then,
    while some group has been seen only one way, one solve looks for a
    solution that turns as many of those groups the other way as it can. When
    it turns none, the rest are settled: one solve a round, no counting.

    >>> settled_groups(ComponentProblem((1, 1, 1), (((0, 1), 1), ((1, 2), 1), ((0, 1, 2), 1))))
    ((True, False, True), (False, True, False))
    """
    model, xs, _ = build_model(problem)
    sizes = problem.sizes
    solver = _solver(deadline)
    status = solver.solve(model)
    if status == cp_model.INFEASIBLE:
        return None
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise SolverTimeoutError("time limit reached while looking for the certain cells")
    seen_mine = [solver.value(x) > 0 for x in xs]
    seen_room = [solver.value(x) < size for x, size in zip(xs, sizes, strict=True)]
    while True:
        open_mine = [g for g, seen in enumerate(seen_mine) if not seen]
        open_room = [g for g, seen in enumerate(seen_room) if not seen]
        if not open_mine and not open_room:
            break
        trial = model.clone()
        turns = []
        for g in open_mine:
            turn = trial.new_bool_var(f"mine{g}")
            trial.add(xs[g] >= 1).only_enforce_if(turn)
            turns.append(turn)
        for g in open_room:
            turn = trial.new_bool_var(f"room{g}")
            trial.add(xs[g] <= sizes[g] - 1).only_enforce_if(turn)
            turns.append(turn)
        trial.add(sum(turns) >= 1)
        # As many turned as a short, deterministic search finds: few rounds.
        trial.maximize(sum(turns))
        solver = _solver(deadline)
        solver.parameters.max_deterministic_time = _TURN_EFFORT
        status = solver.solve(trial)
        if status == cp_model.UNKNOWN:
            solver = _solver(deadline)  # no solution yet within the effort: any that turns one
            trial.clear_objective()
            status = solver.solve(trial)
        if status == cp_model.INFEASIBLE:
            break  # no solution turns any of them: all settled
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            raise SolverTimeoutError("time limit reached while looking for the certain cells")
        for g, x in enumerate(xs):
            value = solver.value(x)
            seen_mine[g] = seen_mine[g] or value > 0
            seen_room[g] = seen_room[g] or value < sizes[g]
    return tuple(not seen for seen in seen_mine), tuple(not seen for seen in seen_room)


def sum_range(
    problem: ComponentProblem, groups: Sequence[int], *, deadline: float | None = None
) -> tuple[int, int]:
    """The fewest and most mines ``groups`` hold together in any solution (two optimisations).

    >>> sum_range(ComponentProblem((2, 2), (((0, 1), 2),)), [0])
    (0, 2)
    """
    model, xs, _ = build_model(problem)
    bounds = []
    for sense in (model.minimize, model.maximize):
        sense(sum(xs[g] for g in groups))
        solver = _solver(deadline)
        status = solver.solve(model)
        if status != cp_model.OPTIMAL:
            if status == cp_model.INFEASIBLE:
                raise ValueError("the problem has no solution")
            raise SolverTimeoutError("time limit reached while bounding the mines of a component")
        bounds.append(round(solver.objective_value))
    return bounds[0], bounds[1]
