"""Exact deductions before counting: what they fix is certain, and elimination sees further."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from strategies import problems

import analyzer
from analyzer.play.positions import mid_game
from analyzer.solver.constraints import build_constraints
from analyzer.solver.decomposition import ComponentProblem
from analyzer.solver.deduction import _eliminate, deduce


@settings(max_examples=200, deadline=None)
@given(problems())
def test_elimination_fixes_only_values_every_solution_shares(problem: ComponentProblem) -> None:
    rows = [(set(groups), rhs) for groups, rhs in problem.equations]
    solutions = [
        values
        for values in itertools.product(*(range(s + 1) for s in problem.sizes))
        if all(sum(values[g] for g in groups) == rhs for groups, rhs in problem.equations)
    ]
    fixed = _eliminate(rows, list(problem.sizes))
    assert fixed is not None  # problems() always has a solution
    for group, value in fixed:
        assert all(values[group] == value for values in solutions)


def test_deductions_fix_only_certain_cells() -> None:
    for seed in range(40):
        board = mid_game(16, 16, 40, progress=0.3 + 0.01 * seed, seed=seed)
        deduced = deduce(build_constraints(board))
        assert deduced is not None
        analysis = analyzer.solve(board, engine="frontier", deductions=False)
        for group, value in deduced.fixed:
            for i in group.cells:
                expected = value / group.size
                assert analysis.cell_probabilities[i] == expected


def test_elimination_finds_what_single_clues_cannot() -> None:
    # x0 + x1 = 1, x1 + x2 = 1, x0 + x1 + x2 = 2: only elimination fixes all three.
    assert _eliminate([({0, 1}, 1), ({1, 2}, 1), ({0, 1, 2}, 2)], [1, 1, 1]) == [(0, 1), (1, 0), (2, 1)]
    # Overlapping, not nested: x0 + x1 = 1 and x1 + x2 = 0 gives x0 = 1.
    assert (0, 1) in _eliminate([({0, 1}, 1), ({1, 2}, 0)], [1, 1, 1])
    # A contradiction: x0 + x1 = 2 and x0 + x1 = 1.
    assert _eliminate([({0, 1}, 2), ({0, 1}, 1)], [1, 1]) is None


def test_deduction_contradiction_still_names_the_clues() -> None:
    # The two 1s cannot both hold with the 0 between them: deductions see it
    # first, and the error still names a minimal set of clues.
    with pytest.raises(analyzer.InconsistentBoardError, match="clue") as raised:
        analyzer.solve("3x2x2\nHHH\n202\n")
    assert raised.value.clues
