"""Split squares: cuts are found where they exist, and cutting changes no count."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import examples, problems
from strategies import numerators_at_random_weights as _numerators

from analyzer.solver.counting import count_enumerate
from analyzer.solver.counting.split import count_split, find_separator
from analyzer.solver.decomposition import ComponentProblem


@settings(max_examples=examples(150), deadline=None)
@given(problems(), st.integers(0, 1000))
def test_any_cut_gives_the_enumerated_counts(problem: ComponentProblem, seed: int) -> None:
    cut = find_separator(problem, min_piece=1)
    if cut is None:
        return
    counted = count_split(problem, cut, count=count_enumerate)
    reference = count_enumerate(problem)
    assert (counted.layouts, counted.solutions) == (reference.layouts, reference.solutions)
    assert _numerators(counted, problem, seed) == _numerators(reference, problem, seed)


def test_split_cuts_a_chain_at_its_middle() -> None:
    problem = ComponentProblem((1,) * 9, tuple(((g, g + 1), 1) for g in range(8)))
    assert find_separator(problem) == (4,)
    counted = count_split(problem, (4,), count=count_enumerate)
    assert counted.engine == "split"
    assert counted.layouts == count_enumerate(problem).layouts


def test_split_checks_clues_that_lie_inside_the_cut() -> None:
    # x0 + x1 = 1 lies wholly in the cut {0, 1}; pieces hang off each side.
    problem = ComponentProblem(
        (1, 1, 1, 1, 1, 1),
        (((0, 1), 1), ((0, 2), 1), ((2, 3), 1), ((1, 4), 1), ((4, 5), 1)),
    )
    counted = count_split(problem, (0, 1), count=count_enumerate)
    assert counted.layouts == count_enumerate(problem).layouts
    assert _numerators(counted, problem, 1) == _numerators(count_enumerate(problem), problem, 1)
