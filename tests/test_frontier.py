"""The frontier dynamic programme: the enumerator's counts, in time set by the partial states."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import examples, problems
from strategies import numerators_at_random_weights as _numerators

from analyzer.play.positions import clue_lattice
from analyzer.solver.constraints import build_constraints
from analyzer.solver.counting import count_enumerate
from analyzer.solver.counting.enumerate import problem_arrays
from analyzer.solver.counting.frontier import count_frontier, count_frontier_compiled
from analyzer.solver.decomposition import ComponentProblem, components
from analyzer.solver.kernels.frontier import frontier_component


@settings(max_examples=examples(200), deadline=None)
@given(problems(), st.integers(0, 1000))
def test_frontier_counts_what_the_enumerator_counts(problem: ComponentProblem, seed: int) -> None:
    swept = count_frontier(problem)
    reference = count_enumerate(problem)
    assert (swept.layouts, swept.solutions) == (reference.layouts, reference.solutions)
    assert _numerators(swept, problem, seed) == _numerators(reference, problem, seed)


def test_a_problem_with_no_solution_has_no_layouts() -> None:
    counted = count_frontier(ComponentProblem((1, 1), (((0, 1), 1), ((0,), 1), ((1,), 1))))
    assert counted.is_empty and not any(counted.layouts)


def test_a_clue_lattice_is_counted_exactly() -> None:
    system = build_constraints(clue_lattice(3, seed=0))
    for comp in components(system):
        problem = comp.problem(system)
        if len(problem.sizes) > 40:
            continue  # the enumerator would take too long on the biggest ones
        assert count_frontier(problem).layouts == count_enumerate(problem).layouts


# ------------------------------------------------------------ the compiled programme
@settings(max_examples=examples(300), deadline=None)
@given(problems(), st.integers(0, 1000))
def test_compiled_frontier_counts_what_the_enumerator_counts(problem: ComponentProblem, seed: int) -> None:
    swept = count_frontier_compiled(problem)
    reference = count_enumerate(problem)
    assert swept is not None
    assert (swept.layouts, swept.solutions, swept.engine) == (
        reference.layouts,
        reference.solutions,
        "frontier",
    )
    assert _numerators(swept, problem, seed) == _numerators(reference, problem, seed)


@settings(max_examples=examples(40), deadline=None)
@given(problems())
def test_compiled_frontier_interpreted_gives_the_compiled_arrays(problem: ComponentProblem) -> None:
    # Tiny boards run the kernels as Python (analyzer.jit.interpreted): the same code, the same answers.
    arrays = problem_arrays(problem)
    compiled = frontier_component(*arrays, 10**6, 10**7)
    interpreted = frontier_component.py_func(*arrays, 10**6, 10**7)
    assert compiled[:2] == tuple(int(v) for v in interpreted[:2])
    assert np.array_equal(compiled[2], interpreted[2]) and np.array_equal(compiled[3], interpreted[3])


def test_compiled_frontier_on_a_problem_with_no_solution_has_no_layouts() -> None:
    counted = count_frontier_compiled(ComponentProblem((1, 1), (((0, 1), 1), ((0,), 1), ((1,), 1))))
    assert counted is not None and counted.is_empty and not any(counted.layouts)


def test_compiled_frontier_declines_past_its_budget_and_past_64_bits() -> None:
    lattice = build_constraints(clue_lattice(4, seed=0))
    problem = max((comp.problem(lattice) for comp in components(lattice)), key=lambda p: len(p.sizes))
    assert count_frontier_compiled(problem, max_states=10) is None
    assert count_frontier_compiled(problem, max_coefficients=10) is None
    counted = count_frontier_compiled(problem)
    assert counted is not None and counted.layouts == count_frontier(problem).layouts
    # 60 groups of 8 cells, each pair bound by "4 mines between them": about 70^30 * 2^... layouts,
    # far past 64 bits. The compiled programme says so; the Python one counts them.
    chain = ComponentProblem((8,) * 60, tuple(((g, g + 1), 4) for g in range(59)))
    assert count_frontier_compiled(chain) is None
    assert max(count_frontier(chain).layouts) > 2**64


def test_compiled_frontier_on_the_clue_lattice_equals_the_python_programme() -> None:
    system = build_constraints(clue_lattice(5, seed=1))
    checked = 0
    for comp in components(system):
        problem = comp.problem(system)
        compiled = count_frontier_compiled(problem)
        if compiled is None:
            continue
        python = count_frontier(problem)
        assert (compiled.layouts, compiled.solutions) == (python.layouts, python.solutions)
        weights = list(range(1, len(python.layouts) + 1))
        assert compiled.group_numerators(weights) == python.group_numerators(weights)
        checked += len(problem.sizes)
    assert checked > 50
