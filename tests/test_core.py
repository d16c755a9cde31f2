"""The compiled core the exact solve and the players share: one search, exact or in floats.

:func:`analyzer.solver.kernels.enumerate.search_component` counts a component of a
board's groups in place. The exact solve runs it in 64-bit integers, the
players in float64 with exact feasibility flags beside; both must count what
brute force counts, visit the same nodes, and leave the board's arrays as they
found them (the solve's frontier fallback reads them after a search that gave up).
"""

from __future__ import annotations

import itertools
from math import comb

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import examples, problems

from analyzer.play.fast import fast_probabilities
from analyzer.play.positions import mid_game
from analyzer.solver.counting.enumerate import problem_arrays
from analyzer.solver.decomposition import ComponentProblem
from analyzer.solver.kernels.components import transpose
from analyzer.solver.kernels.enumerate import (
    BINOMIALS,
    ENUMERATION_BUDGET,
    ENUMERATION_OVERFLOW,
    FLOAT_BINOMIALS,
    enumerate_component,
    search_component,
)
from analyzer.solver.solve import solve


def _board_arrays(problem: ComponentProblem, padding: int) -> tuple:  # type: ignore[type-arg]
    """The problem's groups and equations placed among ``padding`` other groups and equations of a
    board (ids shifted and interleaved), as :func:`search_component` takes them."""
    sizes, eq_off, eq_groups, rhs = problem_arrays(problem)
    n, n_eqs = len(sizes), len(rhs)
    group_id = np.arange(n) * 2 + padding  # other groups sit between and before them
    eq_id = np.arange(n_eqs) * 3 + padding
    all_groups = 2 * n + padding
    all_eqs = 3 * n_eqs + padding
    board_sizes = np.full(all_groups, 5, np.int64)
    board_sizes[group_id] = sizes
    rows = [[] for _ in range(all_groups)]
    for e in range(n_eqs):
        for t in range(eq_off[e], eq_off[e + 1]):
            rows[group_id[eq_groups[t]]].append(eq_id[e])
    of_off = np.zeros(all_groups + 1, np.int64)
    np.cumsum([len(r) for r in rows], out=of_off[1:])
    of_eqs = np.array([e for r in rows for e in sorted(r)], np.int64)
    eq_size = np.full(all_eqs, 7, np.int64)
    need = np.full(all_eqs, 11, np.int64)
    room = np.full(all_eqs, 13, np.int64)
    for e in range(n_eqs):
        eq_size[eq_id[e]] = eq_off[e + 1] - eq_off[e]
        need[eq_id[e]] = rhs[e]
        room[eq_id[e]] = sum(int(sizes[eq_groups[t]]) for t in range(eq_off[e], eq_off[e + 1]))
    return group_id, board_sizes, of_off, of_eqs, eq_size, need, room, sum(problem.sizes)


def _search(board: tuple, max_nodes: int, exact: bool, flags: tuple | None = None) -> tuple:  # type: ignore[type-arg]
    """Run the shared search on :func:`_board_arrays`' output: ``(nodes, solutions, layouts, mines)``."""
    group_id, sizes, of_off, of_eqs, eq_size, need, room, cells = board
    kind = np.int64 if exact else np.float64
    layouts = np.zeros(cells + 1, kind)
    mines = np.zeros((len(group_id), cells + 1), kind)
    none = np.zeros((0, 0), np.bool_)
    some_mine, some_safe = flags if flags is not None else (none, none)
    table, guard = (BINOMIALS, float(2**59)) if exact else (FLOAT_BINOMIALS, np.inf)
    table = table.view()  # read-only, as the kernels pass their global table: numba's cached signature
    table.flags.writeable = False
    nodes, solutions = search_component(
        group_id, sizes, of_off, of_eqs, eq_size, need, room, np.empty_like(need), max_nodes,
        table, guard, layouts, mines, some_mine, some_safe, np.zeros(0, np.int64),
    )  # fmt: skip
    return nodes, solutions, layouts, mines


def _brute_force(problem: ComponentProblem) -> tuple[list[int], list[list[int]], set[tuple[int, int, bool]]]:
    """Layouts and group mines by mine count, and which (group, count, has a mine / a safe cell) occur."""
    cells = sum(problem.sizes)
    layouts = [0] * (cells + 1)
    mines = [[0] * (cells + 1) for _ in problem.sizes]
    seen: set[tuple[int, int, bool]] = set()
    for values in itertools.product(*(range(s + 1) for s in problem.sizes)):
        if any(sum(values[g] for g in groups) != need for groups, need in problem.equations):
            continue
        weight = 1
        for size, x in zip(problem.sizes, values, strict=True):
            weight *= comb(size, x)
        m = sum(values)
        layouts[m] += weight
        for g, x in enumerate(values):
            mines[g][m] += weight * x
            if x > 0:
                seen.add((g, m, True))
            if x < problem.sizes[g]:
                seen.add((g, m, False))
    return layouts, mines, seen


@settings(max_examples=examples(200), deadline=None)
@given(problems(), st.integers(0, 5))
def test_the_shared_search_counts_what_brute_force_counts_in_both_types(
    problem: ComponentProblem, padding: int
) -> None:
    layouts, mines, seen = _brute_force(problem)
    board = _board_arrays(problem, padding)
    need, room, cells = board[5], board[6], board[7]
    before = need.tolist(), room.tolist()
    nodes, solutions, exact_layouts, exact_mines = _search(board, 10**9, exact=True)
    assert exact_layouts.tolist() == layouts and exact_mines.tolist() == mines
    assert (need.tolist(), room.tolist()) == before
    n = len(problem.sizes)
    flags = np.zeros((n, cells + 1), np.bool_), np.zeros((n, cells + 1), np.bool_)
    float_nodes, float_solutions, float_layouts, float_mines = _search(board, 10**9, exact=False, flags=flags)
    assert (float_nodes, float_solutions) == (nodes, solutions)
    assert float_layouts.tolist() == [float(x) for x in layouts]  # small counts: exact in floats too
    assert float_mines.tolist() == [[float(x) for x in row] for row in mines]
    flagged = {(int(g), int(m), True) for g, m in zip(*np.nonzero(flags[0]), strict=True)}
    flagged |= {(int(g), int(m), False) for g, m in zip(*np.nonzero(flags[1]), strict=True)}
    assert flagged == seen
    # Alone, as the Python pipeline asks for it: the same nodes and counts.
    alone = enumerate_component(*problem_arrays(problem), 10**9)
    assert alone[:2] == (nodes, solutions)
    assert alone[2].tolist() == layouts


def test_a_search_that_stops_leaves_the_board_arrays_as_they_were() -> None:
    # The budget: twelve 3-cell groups sharing 18 mines need far more than 2,048 nodes.
    board = _board_arrays(ComponentProblem((3,) * 12, ((tuple(range(12)), 18),)), 3)
    before = board[5].tolist(), board[6].tolist()
    assert _search(board, 2048, exact=True)[0] == ENUMERATION_BUDGET
    assert (board[5].tolist(), board[6].tolist()) == before
    assert _search(board, 10**9, exact=True)[0] > 2048  # it does finish, given the nodes
    # The overflow guard: 64 cells in one equation of 32 mines pass 2**59 layouts.
    board = _board_arrays(ComponentProblem((8,) * 8, ((tuple(range(8)), 32),)), 2)
    before = board[5].tolist(), board[6].tolist()
    assert _search(board, 10**9, exact=True)[0] == ENUMERATION_OVERFLOW
    assert (board[5].tolist(), board[6].tolist()) == before
    # In floats the same component is counted: C(64, 32) to float precision.
    nodes, _, layouts, _ = _search(board, 10**9, exact=False)
    assert nodes > 0
    assert abs(layouts[32] / comb(64, 32) - 1) < 1e-12


def test_the_binomial_tables_are_pascals_triangle() -> None:
    for a in range(9):
        for b in range(9):
            assert BINOMIALS[a, b] == (comb(a, b) if b <= a else 0)
            assert FLOAT_BINOMIALS[a, b] == float(BINOMIALS[a, b])


def test_transpose_lists_each_items_rows_in_order() -> None:
    off = np.array([0, 2, 2, 5], np.int64)
    items = np.array([1, 3, 0, 1, 3], np.int64)
    out_off, out = transpose(4, off, items)
    assert [out[out_off[i] : out_off[i + 1]].tolist() for i in range(4)] == [[2], [0, 2], [], [0, 2]]


def test_players_and_solve_agree_through_the_shared_core() -> None:
    # The players' floats come from the same search as the exact counts: they agree to
    # rounding, and certain cells are exactly 0 or 1 in both.
    for seed in range(12):
        board = mid_game(30, 16, 99, progress=0.2 + 0.05 * seed, flag_fraction=0.3 * (seed % 2), seed=seed)
        fast = fast_probabilities(board).ravel()
        exact = solve(board).to_numpy().ravel()
        hidden = ~np.isnan(exact)
        assert np.array_equal(hidden, ~np.isnan(fast))
        assert np.max(np.abs(fast[hidden] - exact[hidden])) < 1e-12
        assert np.array_equal(fast[hidden] == 0.0, exact[hidden] == 0.0)
        assert np.array_equal(fast[hidden] == 1.0, exact[hidden] == 1.0)
