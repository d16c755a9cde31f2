"""Choose an engine for a component, and reuse earlier counts.

Four engines count a component by number of mines:
:func:`~analyzer.solver.counting.enumerate.count_enumerate`, a backtracking
enumerator (no fixed cost: best on components with few solutions);
:func:`~analyzer.solver.counting.frontier.count_frontier`, a dynamic programme
over a sweep of the groups (its cost follows the partial states, not the
solutions: best on big, tangled components);
:func:`~analyzer.solver.counting.split.count_split`, which cuts a component at
split squares and counts the pieces apart; and
:func:`analyzer.models.cpsat.count_cpsat`, which enumerates with OR-Tools CP-SAT.
:func:`count_component` picks one (``engine="auto"``) or runs the one asked for.
"""

from __future__ import annotations

import time
from functools import partial

from analyzer.errors import SolverTimeoutError
from analyzer.jit import runs_interpreted
from analyzer.names import ENGINES
from analyzer.solver.counting.cache import CACHE, CacheInfo
from analyzer.solver.counting.enumerate import count_enumerate, count_enumerate_compiled
from analyzer.solver.counting.frontier import (
    compiled_frontier_states,
    count_frontier,
    count_frontier_compiled,
)
from analyzer.solver.counting.split import count_split, find_separator
from analyzer.solver.counting.types import BudgetExceeded, ComponentCounts
from analyzer.solver.decomposition import ComponentProblem

__all__ = ["ENGINES", "AUTO_ENUMERATE_NODE_BUDGET", "count_component", "cache_info", "clear_cache"]


# ``auto`` first enumerates, which is fastest while a component has few
# solutions; past this many search nodes it hands the component to the
# frontier dynamic programme, whose cost follows the number of distinct partial
# states instead of solutions. CP-SAT is never faster at counting here (its
# model building and per-solution Python callback cost more than the plain
# enumerator's whole search), so ``auto`` keeps it for feasibility questions.
# Measured with ``python -m benchmarks.solve engines``.
AUTO_ENUMERATE_NODE_BUDGET = 2000


def count_component(
    problem: ComponentProblem, *, engine: str = "auto", deadline: float | None = None
) -> ComponentCounts:
    """Count one component with the engine asked for, reusing earlier counts.

    ``"auto"`` enumerates while that stays cheap; past a budget of search nodes
    it sweeps the component with the frontier programme. ``"split"`` cuts the
    component at split squares wherever a useful cut exists and sweeps what
    cannot be cut; ``auto`` does not, because on every class of
    ``python -m benchmarks.solve engines`` the sweep was as fast or faster (it
    already cuts the component at each step of the sweep). Equal problems are
    counted once: see :func:`cache_info`.

    >>> count_component(ComponentProblem((2,), (((0,), 1),)), engine="cpsat").layouts
    (0, 2, 0)
    """
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; expected one of {ENGINES}")
    key = (engine, problem)
    hit = CACHE.get(key)
    if hit is not None:
        return hit
    if deadline is not None and time.monotonic() > deadline:
        raise SolverTimeoutError("time limit reached before counting a component")
    counted = _count(problem, engine, deadline)
    CACHE.put(key, counted)
    return counted


def cache_info() -> CacheInfo:
    """Hits, misses, entries and estimated bytes of the component cache, and its bound.

    >>> sorted(cache_info())
    ['bytes', 'hits', 'max_bytes', 'misses', 'size']
    """
    return CACHE.info()


def clear_cache() -> None:
    """Forget every counted component."""
    CACHE.clear()


def _seconds_left(deadline: float | None) -> float | None:
    return None if deadline is None else deadline - time.monotonic()


def _count(problem: ComponentProblem, engine: str, deadline: float | None) -> ComponentCounts:
    if engine == "enumerate":
        return count_enumerate(problem, deadline=deadline)
    if engine == "cpsat":
        from analyzer.models.cpsat import count_cpsat  # OR-Tools loads only when asked for

        return count_cpsat(problem, deadline=deadline)
    if engine == "auto":
        try:
            compiled = count_enumerate_compiled(problem, max_nodes=AUTO_ENUMERATE_NODE_BUDGET)
            if compiled is not None:
                return compiled
            return count_enumerate(problem, deadline=deadline, max_nodes=AUTO_ENUMERATE_NODE_BUDGET)
        except BudgetExceeded:
            pass
        # A tangled component: the frontier programme, compiled while its counts fit
        # 64 bits and its sweep a budget that the time left allows (interpreted, as on
        # a tiny board before numba loads, the Python programme is the faster one).
        if not runs_interpreted():
            swept = count_frontier_compiled(
                problem, max_states=compiled_frontier_states(_seconds_left(deadline))
            )
            if swept is not None:
                return swept
    if engine == "split":
        cut = find_separator(problem)
        if cut is not None:
            piece = partial(count_component, engine=engine)
            return count_split(problem, cut, count=piece, deadline=deadline)
    return count_frontier(problem, deadline=deadline)
