"""Exact deductions before counting: what they fix is certain, and elimination sees further."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import examples, game_boards, numbered_boards, problems

import analyzer
from analyzer.board.board import Board
from analyzer.play.positions import mid_game
from analyzer.solver.constraints import ConstraintSystem, build_constraints
from analyzer.solver.decomposition import ComponentProblem
from analyzer.solver.deduction import _eliminate, deduce


@settings(max_examples=examples(200), deadline=None)
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


def _rules_by_definition(system: ConstraintSystem) -> dict[int, int] | None:
    """The single-clue and subset rules tried on every clue and pair until none applies (no queue)."""
    sizes = [group.size for group in system.groups]
    value: dict[int, int] = {}

    def state(c: int) -> tuple[set[int], int, int]:
        groups = {g for g, group in enumerate(system.groups) if c in group.clues and g not in value}
        fixed = sum(value[g] for g, group in enumerate(system.groups) if c in group.clues and g in value)
        return groups, system.clues[c].needed - fixed, sum(sizes[g] for g in groups)

    changed = True
    while changed:
        changed = False
        states = [state(c) for c in range(len(system.clues))]
        if any(not 0 <= need <= room for _, need, room in states):
            return None
        for groups, need, room in states:
            if groups and need in (0, room):
                value.update({g: sizes[g] if need else 0 for g in groups})
                changed = True
                break
        if changed:
            continue
        for (small, need, room), (big, big_need, big_room) in itertools.permutations(states, 2):
            if small and small < big and big_need - need in (0, big_room - room):
                value.update({g: sizes[g] if big_need > need else 0 for g in big - small})
                changed = True
                break
    return value


@settings(max_examples=examples(300), deadline=None)
@given(numbered_boards(), st.booleans())
def test_the_compiled_rules_reach_the_fixpoint_of_their_definition(board: Board, trust_flags: bool) -> None:
    # Whatever order the clues are tried in, the rules end where trying every clue and
    # every pair until none applies ends (a contradiction may be found by either or only
    # by counting; when both see a consistent system, they fix the same groups).
    try:
        system = build_constraints(board, trust_flags=trust_flags)
    except analyzer.InconsistentBoardError:
        return
    expected = _rules_by_definition(system)
    deduced = deduce(system, elimination=False)
    if expected is None or deduced is None:
        return
    fixed = {system.groups.index(group): value for group, value in deduced.fixed}
    assert fixed == expected


@settings(max_examples=examples(200), deadline=None)
@given(game_boards(max_side=7, flags=True))
def test_the_compiled_rules_on_real_positions(board: Board) -> None:
    system = build_constraints(board)
    expected = _rules_by_definition(system)
    deduced = deduce(system, elimination=False)
    assert expected is not None and deduced is not None  # a real position has its layout
    assert {system.groups.index(group): value for group, value in deduced.fixed} == expected
