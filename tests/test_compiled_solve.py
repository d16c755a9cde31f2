"""The compiled path of ``solve`` (one kernel; small counts joined in it) against the general path.

``solve(engine="auto")`` takes the compiled path wherever every component is
small (:func:`analyzer.solver.kernels.board.board_solution`); the general pipeline, one
object a stage, is what every other engine runs and what the brute-force tests
of ``tests/test_solve.py`` were written against. Both must give the same
``Analysis``, attribute by attribute, and the compiled path must really be the
one taken (the tests below fail if it silently falls back everywhere).
"""

from __future__ import annotations

import importlib
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import examples

from analyzer.board.board import Board
from analyzer.board.topology import neighbour_array
from analyzer.errors import InconsistentBoardError
from analyzer.play.positions import chain, clue_lattice, mid_game, numbers_of, reveal_true_numbers
from analyzer.solver.kernels.board import BOARD_COUNTED, BOARD_JOINED, BOARD_TOO_LARGE, board_solution
from analyzer.solver.solve import _compiled, _solve_general, count_layouts, solve
from tests.bruteforce import brute_force
from tests.strategies import game_boards, numbered_boards


def _counted(board: Board, values: np.ndarray, around: np.ndarray, *budgets: int) -> tuple[int, np.ndarray]:
    """The kernel's counts under the given budgets, never joined: ``(status, packed)``."""
    status, *_, out = board_solution(values, around, True, board.mines, 0, *budgets)
    return status, out.view(np.int64)


def _compiled_path_takes(board: Board, trust_flags: bool = True) -> bool:
    return _compiled(board, trust_flags)[0] in (BOARD_JOINED, BOARD_COUNTED)


def _general(board: Board, trust_flags: bool = True):
    return _solve_general(board, "auto", None, trust_flags, True)


def _same(fast, general) -> None:
    assert fast.total == general.total
    assert fast.mines_left == general.mines_left
    assert fast.background_size == general.background_size
    assert fast.cell_probabilities == general.cell_probabilities
    assert fast.mine_count_distribution == general.mine_count_distribution
    assert fast.components == general.components
    assert fast == general


@settings(max_examples=examples(300), deadline=None)
@given(board=game_boards(max_side=7, flags=True), trust=st.booleans())
def test_compiled_equals_general_on_real_positions(board: Board, trust: bool) -> None:
    assert _compiled_path_takes(board, trust)  # small components: always compiled
    _same(solve(board, trust_flags=trust), _general(board, trust))
    assert count_layouts(board, trust_flags=trust) == _general(board, trust).total


@settings(max_examples=examples(100), deadline=None)
@given(board=game_boards(max_side=5, flags=True, topology="torus"))
def test_compiled_equals_general_on_the_torus(board: Board) -> None:
    _same(solve(board), _general(board))


@settings(max_examples=examples(300), deadline=None)
@given(board=numbered_boards())
def test_compiled_agrees_with_brute_force_where_boards_often_fail(board: Board) -> None:
    """Random numbers and nudged positions: no layout gives the general path's named error."""
    truth = brute_force(board)
    if truth.total == 0:
        with pytest.raises(InconsistentBoardError) as fast_error:
            solve(board)
        with pytest.raises(InconsistentBoardError) as general_error:
            _general(board)
        assert str(fast_error.value) == str(general_error.value)
        assert count_layouts(board) == 0
        return
    analysis = solve(board)
    assert analysis.total == truth.total
    assert analysis.probabilities == truth.probabilities
    assert analysis.mine_count_distribution == truth.mine_count_distribution
    assert count_layouts(board) == truth.total


@pytest.mark.parametrize("seed", range(6))
def test_compiled_equals_general_on_preset_positions(seed: int) -> None:
    for width, height, mines in ((9, 9, 10), (16, 16, 40), (30, 16, 99)):
        board = mid_game(width, height, mines, progress=0.2 + 0.12 * seed, flag_fraction=0.3, seed=seed)
        for trust in (True, False):
            _same(solve(board, trust_flags=trust), _general(board, trust))


def test_tangled_components_are_swept_by_the_compiled_frontier_programme() -> None:
    """A 9x9 lattice of 3s leaves a component of more than 59 cells and 20,000 search nodes: past the
    enumerator's budget. Without frontier states the kernel declines it (the general pipeline counts
    it); with them, the compiled frontier programme counts it, and the answer is the general one."""
    board = clue_lattice(4, seed=0)
    values = np.array(board.cells, dtype=np.int8)
    around = neighbour_array(board.topology, board.width, board.height)
    assert _counted(board, values, around, 1_000, 1_000_000, 20_000, 2_000_000, 0, 0)[0] == BOARD_TOO_LARGE
    status, _ = _counted(board, values, around, 1_000, 1_000_000, 20_000, 2_000_000, 10**6, 10**7)
    assert status == BOARD_COUNTED
    assert _compiled_path_takes(board)
    _same(solve(board), _general(board))


@pytest.mark.parametrize(
    ("seed", "search_nodes", "states"),
    [
        (4, 10**6, 2_000_000),  # 279,862 search nodes, 204 frontier states: the first sweep counts it
        (119, 0, 2_000_000),  # more than 400,000 nodes, 3,977 states: likewise
        (75, 10**5, 1_000),  # 46,836 nodes, 2,300 states: past the board's states, the whole search
    ],
)
def test_threes_are_counted_alike_by_search_and_sweep(seed: int, search_nodes: int, states: int) -> None:
    """16x16 boards of 51 mines showing their 3s: a component of at most 59 cells (one node budget of
    200,000) with many layouts. Whichever engine the kernel ends with (the first search, the first
    sweep, the whole search, the last sweep), the counts are the search's and the sweep's alone."""
    board = numbers_of(16, 16, 51, seed=seed)
    values = np.array(board.cells, dtype=np.int8)
    around = neighbour_array(board.topology, board.width, board.height)
    status, raced = _counted(board, values, around, 1_000, 200_000, 20_000, 10**6, states, 4 * 10**7)
    assert status == BOARD_COUNTED
    # The sweep alone: one search node budget of 1 leaves every component of more than a
    # thousand nodes to it.
    status, swept = _counted(board, values, around, 1_000, 1, 1, 10**9, 2_000_000, 4 * 10**7)
    assert status == BOARD_COUNTED
    assert raced.tolist() == swept.tolist()
    if search_nodes:  # the search alone (no frontier states)
        status, searched = _counted(board, values, around, 1_000, search_nodes, 1, 10**9, 0, 0)
        assert status == BOARD_COUNTED
        assert raced.tolist() == searched.tolist()
    _same(solve(board), _general(board))


@pytest.mark.parametrize("seed", range(3))
def test_compiled_equals_general_on_mid_games_with_tangled_components(seed: int) -> None:
    """Random half-revealed 60x60 boards: many components, one or two past the enumerator's budget."""
    rng = np.random.default_rng(seed)
    mines = rng.random((60, 60)) < 0.16
    shown = (rng.random((60, 60)) < 0.5) & ~mines
    board = reveal_true_numbers(
        60,
        60,
        [tuple(c) for c in np.argwhere(mines).tolist()],
        [tuple(c) for c in np.argwhere(shown).tolist()],
    )
    assert _compiled_path_takes(board)
    for trust in (True, False):
        general = _general(board, trust)
        _same(solve(board, trust_flags=trust), general)
        assert any(c.engine == "frontier" for c in general.components)  # a component past the budget


def test_components_past_the_cell_cap_are_declined_at_once() -> None:
    """A 41x41 lattice leaves one component of thousands of cells: declined before its arrays."""
    board = clue_lattice(20, seed=0)
    values = np.array(board.cells, dtype=np.int8)
    around = neighbour_array(board.topology, board.width, board.height)
    assert _counted(board, values, around, 1_000, 10**9, 10**9, 10**9, 10**9, 10**9)[0] == BOARD_TOO_LARGE
    assert _counted(board, values, around, 10**6, 0, 0, 0, 0, 0)[0] == BOARD_TOO_LARGE  # the budget, too


def test_the_compiled_path_is_taken_on_chains(monkeypatch: pytest.MonkeyPatch) -> None:
    board = chain(120, seed=3)
    fast = solve(board)
    monkeypatch.setattr(importlib.import_module("analyzer.solver.solve"), "_COMPILED_PATH", False)
    slow = solve(board)
    assert fast == slow
    assert _compiled_path_takes(board)


def test_probabilities_are_made_when_asked() -> None:
    board = mid_game(30, 16, 99, progress=0.5, seed=4)
    analysis = solve(board)
    # One cell's probability without making the others.
    hidden = board.hidden_cells()[0]
    p = analysis.probability(*hidden)
    assert callable(object.__getattribute__(analysis, "_cells"))
    assert p == _general(board).probability(*hidden)
    assert analysis.cell_probabilities[board.index(*hidden)] is p  # one Fraction a group
    assert not callable(object.__getattribute__(analysis, "_cells"))


def test_analysis_is_immutable_hashable_and_pickles() -> None:
    board = mid_game(16, 16, 40, progress=0.5, seed=2)
    analysis = solve(board)
    with pytest.raises(AttributeError, match="immutable"):
        analysis.total = 3  # type: ignore[misc]
    copy = pickle.loads(pickle.dumps(analysis))
    assert copy == analysis and hash(copy) == hash(analysis)
    assert copy.components == _general(board).components
    assert {analysis: 1}[copy] == 1


def test_a_lazy_analysis_pickles_without_being_made() -> None:
    board = mid_game(30, 16, 99, progress=0.5, seed=6)
    analysis = solve(board)
    copy = pickle.loads(pickle.dumps(analysis))
    assert callable(object.__getattribute__(copy, "_cells"))
    assert callable(object.__getattribute__(copy, "_components"))
    assert copy == _general(board)


def test_an_analysis_the_kernel_joined_pickles_without_being_made() -> None:
    board = mid_game(9, 9, 10, progress=0.5, seed=3)
    assert _compiled(board, True)[0] == BOARD_JOINED
    analysis = solve(board)
    copy = pickle.loads(pickle.dumps(analysis))
    assert callable(object.__getattribute__(copy, "_cells"))
    np.testing.assert_array_equal(copy.to_numpy(), analysis.to_numpy())
    assert copy == analysis == _general(board)
    assert copy.mine_count_distribution == _general(board).mine_count_distribution


def test_the_board_wide_node_budget_hands_the_board_on() -> None:
    """Components each within their own budget, but more nodes in all than the board may take."""
    board = mid_game(30, 16, 99, progress=0.5, seed=6)
    values = np.array(board.cells, dtype=np.int8)
    around = neighbour_array(board.topology, board.width, board.height)
    assert _counted(board, values, around, 1_000, 1_000_000, 20_000, 1_000_000, 0, 0)[0] == 0
    assert _counted(board, values, around, 1_000, 1_000_000, 20_000, 1, 0, 0)[0] == BOARD_TOO_LARGE
    module = importlib.import_module("analyzer.solver.solve")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(module, "COMPILED_BOARD_NODE_BUDGET", 1)
        patch.setattr(module, "COMPILED_NODES_PER_CELL", 0)
        patch.setattr(module, "_SMALL_BOARD_CELLS", 0)  # budgets made from the two above, not the preset
        assert not _compiled_path_takes(board)
        handed_on = solve(board)
    assert handed_on == solve(board)


@settings(max_examples=examples(200), deadline=None)
@given(game_boards(max_side=7, max_unknown=40), st.booleans())
def test_floats_straight_from_the_counts_are_the_fractions_rounded(board: Board, trust: bool) -> None:
    """to_numpy() before any Fraction is made equals float() of each exact Fraction, bit for bit."""
    try:
        fresh = solve(board, trust_flags=trust)
    except InconsistentBoardError:
        return
    floats = fresh.to_numpy()
    exact = solve(board, trust_flags=trust).cell_probabilities
    expected = np.array([np.nan if p is None else float(p) for p in exact]).reshape(floats.shape)
    assert np.array_equal(floats, expected, equal_nan=True)


def _python_join(board: Board, trust_flags: bool = True):
    """``solve`` with the compiled counts always joined with Python integers."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(importlib.import_module("analyzer.solver.solve"), "_JOIN_BITS", 0)
        return solve(board, trust_flags=trust_flags)


def _check_kernel_join(board: Board, trust: bool) -> None:
    joined = solve(board, trust_flags=trust)
    python = _python_join(board, trust)
    assert _compiled(board, trust)[0] in (BOARD_JOINED, BOARD_COUNTED)
    floats = joined.to_numpy()
    np.testing.assert_array_equal(floats, python.to_numpy())  # NaN where revealed, in both
    _same(joined, python)
    # Each float is its Fraction's correctly rounded value, not merely close to it.
    for i, p in enumerate(joined.cell_probabilities):
        r, c = divmod(i, board.width)
        assert (p is None and np.isnan(floats[r, c])) or floats[r, c] == float(p)


@settings(max_examples=examples(300), deadline=None)
@given(board=game_boards(max_side=7, flags=True), trust=st.booleans())
def test_the_kernels_join_is_the_python_join(board: Board, trust: bool) -> None:
    """Where every number fits 52 bits the kernel joins the counts itself: the same answer, fractions,
    distribution and floats, as the join of Python integers; a board of at most 30 cells always fits."""
    _check_kernel_join(board, trust)
    if len(board.cells) <= 30:
        assert _compiled(board, trust)[0] == BOARD_JOINED


@pytest.mark.parametrize("side", [8, 9, 10, 12])
@pytest.mark.parametrize("density", [0.1, 0.2, 0.35, 0.5])
@pytest.mark.parametrize("progress", [0.0, 0.2, 0.5])
def test_the_kernels_join_near_its_bound(side: int, density: float, progress: float) -> None:
    """Boards on both sides of the 52-bit bound (up to ``C(144, 72)``: the kernel declines, Python joins)."""
    board = mid_game(side, side, int(density * side * side), progress=progress, seed=side)
    _check_kernel_join(board, True)


def test_the_kernel_joins_small_counts_and_declines_large_ones() -> None:
    small = Board.from_text("8x8x10\n" + "1HHHHHHH\n" + "HHHHHHHH\n" * 7)  # C(63, 9) and less
    large = Board.from_text("8x8x31\n" + "1HHHHHHH\n" + "HHHHHHHH\n" * 7)  # C(62, 30) > 2**52 / 62
    assert _compiled(small, True)[0] == BOARD_JOINED
    assert _compiled(large, True)[0] == BOARD_COUNTED
    for board in (small, large):
        _same(solve(board), _general(board))


@pytest.mark.parametrize("seconds_left", [None, 60.0])
def test_the_budgets_made_once_for_small_boards_are_any_small_boards(seconds_left: float | None) -> None:
    module = importlib.import_module("analyzer.solver.solve")
    assert module._budgets(1, seconds_left) == module._SMALL_BOARD_BUDGETS
    assert module._budgets(module._SMALL_BOARD_CELLS, seconds_left) == module._SMALL_BOARD_BUDGETS
    assert module._budgets(module._SMALL_BOARD_CELLS + 1, None) != module._SMALL_BOARD_BUDGETS
    assert module._budgets(1, module._UNCUT_SECONDS) == module._SMALL_BOARD_BUDGETS
    assert module._budgets(1, module._UNCUT_SECONDS / 2) != module._SMALL_BOARD_BUDGETS


def test_the_specialized_kernel_answers_as_the_dispatcher_and_refuses_other_arrays() -> None:
    from analyzer import jit
    from analyzer.solver.kernels import board as kernels

    board = mid_game(9, 9, 10, progress=0.5, seed=3)
    values = np.array(board.cells, dtype=np.int8)
    around = neighbour_array(board.topology, board.width, board.height)
    args = (values, around, True, board.mines, 52, 40, 200_000, 20_000, 1_000_000, 2_000_000, 10_000)
    direct = jit.specialized(kernels.board_solution, *args)
    *numbers, out = direct(*args)
    *expected, expected_out = kernels.board_solution(*args)
    assert numbers == expected and numbers[0] == BOARD_JOINED
    assert np.array_equal(out, expected_out, equal_nan=True)
    with pytest.raises(TypeError):
        direct(values.astype(np.int64), *args[1:])
