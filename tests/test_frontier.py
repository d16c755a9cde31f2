"""The frontier dynamic programme: the enumerator's counts, in time set by the partial states."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import numerators_at_random_weights as _numerators
from strategies import problems

from analyzer.play.positions import clue_lattice
from analyzer.solver.constraints import build_constraints
from analyzer.solver.counting import count_enumerate
from analyzer.solver.counting.frontier import count_frontier
from analyzer.solver.decomposition import ComponentProblem, components


@settings(max_examples=200, deadline=None)
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
