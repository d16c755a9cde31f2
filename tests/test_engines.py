"""The counting engines, split squares, deductions and the cache agree with one another.

Random component problems (hypothesis) are counted by every engine; boards large
enough that deductions, split squares and the frontier programme really run are
solved with and without them.
"""

from __future__ import annotations

import random
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import analyzer
from analyzer.models.cpsat import count_cpsat
from analyzer.play.positions import chain, clue_lattice, double_chain, mid_game, wide_frontier
from analyzer.solver.constraints import build_constraints
from analyzer.solver.counting import cache_info, clear_cache, count_component, count_enumerate
from analyzer.solver.counting.frontier import count_frontier
from analyzer.solver.counting.split import count_split, find_separator
from analyzer.solver.decomposition import ComponentProblem
from analyzer.solver.deduction import _eliminate, deduce


@st.composite
def problems(draw: st.DrawFn) -> ComponentProblem:
    """A random component problem that at least one solution satisfies."""
    n = draw(st.integers(1, 9))
    sizes = tuple(draw(st.lists(st.integers(1, 3), min_size=n, max_size=n)))
    truth = [draw(st.integers(0, s)) for s in sizes]
    equations = []
    for _ in range(draw(st.integers(1, 8))):
        groups = tuple(sorted(draw(st.sets(st.integers(0, n - 1), min_size=1, max_size=min(n, 4)))))
        equations.append((groups, sum(truth[g] for g in groups)))
    # Every group must sit in an equation, as in a real component.
    covered = {g for groups, _ in equations for g in groups}
    for g in range(n):
        if g not in covered:
            equations.append(((g,), truth[g]))
    return ComponentProblem(sizes, tuple(equations))


def _numerators(counted, problem: ComponentProblem, seed: int) -> tuple[int, ...]:
    rng = random.Random(seed)
    weights = [rng.randrange(1, 10**6) for _ in range(sum(problem.sizes) + 1)]
    return counted.group_numerators(weights)


@settings(max_examples=150, deadline=None)
@given(problems(), st.integers(0, 1000))
def test_every_engine_counts_alike(problem: ComponentProblem, seed: int) -> None:
    reference = count_enumerate(problem)
    assert reference.solutions >= 1
    others = [count_frontier(problem), count_cpsat(problem)]
    cut = find_separator(problem, min_piece=1)
    if cut is not None:
        others.append(count_split(problem, cut, count=count_enumerate))
    for counted in others:
        assert counted.layouts == reference.layouts, counted.engine
        assert counted.solutions == reference.solutions, counted.engine
        assert _numerators(counted, problem, seed) == _numerators(reference, problem, seed), counted.engine


def test_layouts_are_binomial_weights_of_solutions() -> None:
    # Two groups of sizes 2 and 3 sharing one mine: C(2,1) + C(3,1) layouts.
    problem = ComponentProblem((2, 3), (((0, 1), 1),))
    assert count_enumerate(problem).layouts[1] == comb(2, 1) + comb(3, 1)


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


def _boards_where_everything_runs() -> list[analyzer.Board]:
    boards = [
        mid_game(16, 16, 40, progress=p, flag_fraction=f, seed=s)
        for s in range(6)
        for p in (0.25, 0.5)
        for f in (0, 0.5)
    ]
    boards += [mid_game(30, 16, 99, progress=0.4, seed=s) for s in range(4)]
    boards += [clue_lattice(3, seed=s) for s in range(2)]
    boards += [chain(40, seed=1), double_chain(30, seed=2), wide_frontier(30, 16, seed=3)]
    return boards


@pytest.mark.parametrize("trust_flags", [True, False])
def test_deductions_split_and_sweep_change_no_answer(trust_flags: bool) -> None:
    engines_seen: set[str] = set()
    for board in _boards_where_everything_runs():
        reference = analyzer.solve(board, engine="frontier", deductions=False, trust_flags=trust_flags)
        for engine, deductions in (("auto", True), ("split", False), ("split", True), ("enumerate", True)):
            if engine == "enumerate" and board.width * board.height > 300:
                continue  # plain enumeration of a big lattice takes too long for a default run
            got = analyzer.solve(board, engine=engine, deductions=deductions, trust_flags=trust_flags)
            assert got.total == reference.total
            assert got.cell_probabilities == reference.cell_probabilities
            assert got.mine_count_distribution == reference.mine_count_distribution
            engines_seen.update(c.engine for c in got.components)
    # The suite really exercised each mechanism.
    assert {"split", "deduction", "frontier", "enumerate"} <= engines_seen


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


def test_cache_reuses_counts_across_positions() -> None:
    clear_cache()
    board = mid_game(30, 16, 99, progress=0.4, seed=11)
    first = analyzer.solve(board)
    misses = cache_info()["misses"]
    second = analyzer.solve(board)
    assert cache_info()["misses"] == misses  # nothing counted again
    assert cache_info()["hits"] >= len(first.components) - 1
    assert second.cell_probabilities == first.cell_probabilities
    clear_cache()
    info = cache_info()
    assert (info["hits"], info["misses"], info["size"], info["bytes"]) == (0, 0, 0, 0)


def test_count_component_rejects_unknown_engine() -> None:
    with pytest.raises(ValueError, match="unknown engine 'fast'"):
        count_component(ComponentProblem((1,), (((0,), 1),)), engine="fast")


@pytest.mark.parametrize("engine", ["frontier", "split", "enumerate", "cpsat"])
def test_hard_board_times_out_cleanly(engine: str) -> None:
    clear_cache()
    with pytest.raises(analyzer.SolverTimeoutError):
        analyzer.solve(clue_lattice(6, seed=1), engine=engine, deductions=False, time_limit=0.05)


@pytest.mark.slow
def test_big_board_agrees_with_and_without_deductions() -> None:
    board = mid_game(100, 100, 2000, progress=0.5, seed=1)
    assert (
        analyzer.solve(board).cell_probabilities == analyzer.solve(board, deductions=False).cell_probabilities
    )
