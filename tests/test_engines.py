"""The counting engines, split squares, deductions and the cache agree with one another.

Random component problems (hypothesis) are counted by every engine; boards large
enough that deductions, split squares and the frontier programme really run are
solved with and without them.
"""

from __future__ import annotations

from collections.abc import Callable
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import examples, problems
from strategies import numerators_at_random_weights as _numerators

import analyzer
from analyzer.models.cpsat import count_cpsat
from analyzer.play.positions import chain, clue_lattice, double_chain, mid_game, wide_frontier
from analyzer.solver.constraints import build_constraints
from analyzer.solver.counting import cache_info, clear_cache, count_component, count_enumerate
from analyzer.solver.counting.dispatch import AUTO_ENUMERATE_NODE_BUDGET
from analyzer.solver.counting.enumerate import count_enumerate_compiled
from analyzer.solver.counting.frontier import count_frontier
from analyzer.solver.counting.order import search_order
from analyzer.solver.counting.split import count_split, find_separator
from analyzer.solver.counting.types import BudgetExceeded, ComponentCounts
from analyzer.solver.decomposition import ComponentProblem, components
from analyzer.solver.kernels.enumerate import MAX_COMPILED_CELLS, MAX_ENUMERATION_CELLS, component_order


@settings(max_examples=examples(150), deadline=None)
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


def test_cache_reuses_counts_across_positions() -> None:
    # The general path counts through the cache (auto's compiled path for small
    # components does not consult it: it costs less than the look-up).
    clear_cache()
    board = mid_game(30, 16, 99, progress=0.4, seed=11)
    first = analyzer.solve(board, engine="enumerate")
    misses = cache_info()["misses"]
    assert misses >= len(first.components) - 1
    second = analyzer.solve(board, engine="enumerate")
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


def test_cache_is_bounded_by_bytes() -> None:
    from analyzer.solver.counting.cache import ComponentCache
    from analyzer.solver.counting.frontier import count_frontier
    from analyzer.solver.counting.types import ComponentCounts

    problem = ComponentProblem((2, 3, 2), (((0, 1), 2), ((1, 2), 2)))
    counts = count_frontier(problem)
    assert counts.retained_bytes > 0 and counts.estimated_bytes() > counts.retained_bytes
    size = counts.estimated_bytes()
    cache = ComponentCache(max_bytes=3 * size)
    for k in range(10):
        cache.put((f"e{k}", problem), counts)
        assert cache.info()["bytes"] <= 3 * size
    assert cache.info()["size"] < 10
    assert cache.get(("e9", problem)) is counts  # the newest is kept
    assert cache.get(("e0", problem)) is None  # the oldest went first
    small = ComponentCache(max_bytes=10)
    small.put(("enumerate", problem), ComponentCounts((0, 1), 1, "enumerate", ((0, 1),)))
    assert small.info()["size"] == 0  # larger than the whole bound: not kept


@settings(max_examples=examples(300), deadline=None)
@given(problems())
def test_compiled_enumerator_counts_as_the_python_one(problem: ComponentProblem) -> None:
    assert count_enumerate_compiled(problem, max_nodes=10**9) == count_enumerate(problem)


def _outcome(count: Callable[[], object]) -> object:
    try:
        return count()
    except BudgetExceeded:
        return "budget"


def test_compiled_enumerator_gives_up_where_the_python_one_does() -> None:
    # Components of real positions and clue lattices (thousands of nodes): the same
    # counts, or BudgetExceeded after the same number of search nodes.
    boards = [mid_game(30, 16, 99, progress=0.4, seed=s) for s in range(6)]
    boards += [clue_lattice(3, seed=s) for s in range(3)] + [double_chain(12, seed=1)]
    gave_up = counted = large = 0
    for board in boards:
        system = build_constraints(board)
        for component in components(system):
            problem = component.problem(system)
            budgets: tuple[int, ...] = (0, 1500, AUTO_ENUMERATE_NODE_BUDGET, 10**9)
            if sum(problem.sizes) > MAX_COMPILED_CELLS:
                large += 1
                budgets = budgets[:3]  # past 59 cells, counted with the overflow check
            for budget in budgets:
                python = _outcome(lambda: count_enumerate(problem, max_nodes=budget))  # noqa: B023
                compiled = _outcome(lambda: count_enumerate_compiled(problem, max_nodes=budget))  # noqa: B023
                assert compiled == python
                gave_up += python == "budget"
                counted += python != "budget"
    assert gave_up and counted and large  # both outcomes were met, and components past 59 cells


def _one_equation(sizes: tuple[int, ...], mines: int) -> ComponentCounts:
    """The exact counts of one equation over every group, in closed form, as the enumerator gives them.

    Every layout holds ``mines`` mines: C(n, mines) of them, a cell a mine in C(n - 1, mines - 1);
    the solutions (mines a group) are the coefficient of x^mines in the product of 1 + ... + x^size.
    """
    cells = sum(sizes)
    ways = [1]
    for size in sizes:
        ways = [
            sum(ways[m - j] for j in range(size + 1) if 0 <= m - j < len(ways))
            for m in range(len(ways) + size)
        ]
    layouts = tuple(comb(cells, mines) if m == mines else 0 for m in range(cells + 1))
    each = comb(cells - 1, mines - 1)
    return ComponentCounts(layouts, ways[mines], "enumerate", tuple((size * each,) for size in sizes), mines)


def test_the_closed_form_of_one_equation_is_the_enumerators() -> None:
    for sizes, mines in (((3, 2, 1), 3), ((2, 2, 2, 1), 4), ((8, 3), 5), ((1,), 1)):
        assert _one_equation(sizes, mines) == count_enumerate(
            ComponentProblem(sizes, ((tuple(range(len(sizes))), mines),))
        )


def test_compiled_enumerator_is_exact_at_its_cell_limit() -> None:
    # 59 cells in one equation: C(59, 29) layouts (about 5.9e16), and eight times that in a row,
    # checked against the closed form (the Python search agrees, in the slow test below).
    sizes = (8,) * 7 + (3,)
    assert sum(sizes) == MAX_COMPILED_CELLS
    problem = ComponentProblem(sizes, ((tuple(range(8)), 29),))
    compiled = count_enumerate_compiled(problem, max_nodes=10**9)
    assert compiled == _one_equation(sizes, 29)
    assert compiled is not None and compiled.layouts[29] == comb(59, 29)
    # Past 59 cells the search follows its counts in floating point and stops before
    # any could pass 64 bits: C(60, 30) (1.2e17) is counted, C(64, 32) (1.8e18) is not.
    wider = ComponentProblem((8,) * 7 + (4,), ((tuple(range(8)), 30),))
    assert count_enumerate_compiled(wider, max_nodes=10**9) == _one_equation(wider.sizes, 30)
    widest = ComponentProblem((8,) * 8, ((tuple(range(8)), 32),))
    assert count_enumerate_compiled(widest, max_nodes=10**9) is None
    # Past MAX_ENUMERATION_CELLS the arrays would grow as groups times cells: not taken.
    chain_of = tuple(((g, g + 1), 1) for g in range(0, 125))
    huge = ComponentProblem((8,) * 126, chain_of)
    assert sum(huge.sizes) > MAX_ENUMERATION_CELLS
    assert count_enumerate_compiled(huge, max_nodes=10**9) is None
    # A group larger than a neighbourhood (no board makes one) is left to the Python search.
    assert count_enumerate_compiled(ComponentProblem((9,), (((0,), 3),)), max_nodes=10**9) is None


@pytest.mark.slow  # 25 s of CPU in the Python search; the closed form stands in for it by default
def test_compiled_enumerator_is_the_python_one_at_its_cell_limit() -> None:
    problem = ComponentProblem((8,) * 7 + (3,), ((tuple(range(8)), 29),))
    assert count_enumerate_compiled(problem, max_nodes=10**9) == count_enumerate(problem)
    wider = ComponentProblem((8,) * 7 + (4,), ((tuple(range(8)), 30),))
    assert count_enumerate_compiled(wider, max_nodes=10**9) == count_enumerate(wider)
    widest = ComponentProblem((8,) * 8, ((tuple(range(8)), 32),))
    assert count_enumerate(widest) == _one_equation(widest.sizes, 32)  # the Python search counts it


def _arrays(problem: ComponentProblem) -> tuple[np.ndarray, np.ndarray]:
    eq_off = np.cumsum([0] + [len(groups) for groups, _ in problem.equations])
    eq_groups = np.array([g for groups, _ in problem.equations for g in groups], dtype=np.int64)
    return eq_off.astype(np.int64), eq_groups


@settings(max_examples=examples(300), deadline=None)
@given(problems())
def test_compiled_search_order_is_the_python_one(problem: ComponentProblem) -> None:
    # The same order means the same nodes: the budget runs out at the same place.
    assert component_order(len(problem.sizes), *_arrays(problem)).tolist() == search_order(problem)


def test_compiled_search_order_on_real_components() -> None:
    for board in [mid_game(30, 16, 99, progress=0.4, seed=s) for s in range(4)] + [clue_lattice(3, seed=2)]:
        system = build_constraints(board)
        for component in components(system):
            problem = component.problem(system)
            assert component_order(len(problem.sizes), *_arrays(problem)).tolist() == search_order(problem)
