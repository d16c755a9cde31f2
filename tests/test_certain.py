"""Tests of :func:`analyzer.certain_cells`: the certain cells of the exact solve, by feasibility alone."""

from __future__ import annotations

import json
from itertools import combinations

import pytest
from bruteforce import brute_force
from hypothesis import given, settings
from strategies import examples, game_boards, numbered_boards

from analyzer import Board, InconsistentBoardError, SolverTimeoutError, certain_cells, solve
from analyzer.cli import main
from analyzer.play.positions import clue_lattice, mid_game


@settings(max_examples=examples(80), deadline=None)
@given(game_boards(max_side=6), game_boards(max_side=6, wrong_flags=True))
def test_certain_cells_are_those_of_the_brute_force(board: Board, distrusted: Board) -> None:
    for b, trust in ((board, True), (distrusted, False)):
        oracle = brute_force(b, trust_flags=trust)
        found = certain_cells(b, trust_flags=trust)
        assert found.safe == oracle.safe
        assert found.mines == tuple(c for c in oracle.mines if not (trust and c in b.flagged_cells()))


def _layouts(board: Board) -> list[frozenset]:
    """Every layout of the board (all clues, the mine total), by trying every set of unknown cells."""
    unknown = sorted(board.hidden_cells())
    flags = set(board.flagged_cells())
    found = []
    for mined in combinations(unknown, board.mines - len(flags)):
        mines = set(mined) | flags
        if all(
            sum(n in mines for n in board.neighbours(*cell)) == board[cell] for cell in board.revealed_cells()
        ):
            found.append(frozenset(mined))
    return found


@settings(max_examples=examples(40), deadline=None)
@given(game_boards(max_side=5, max_unknown=12))
def test_mine_ranges_are_those_of_the_layouts(board: Board) -> None:
    layouts = _layouts(board)
    for component in certain_cells(board).components:
        cells = set(component.cells)
        held = [len(layout & cells) for layout in layouts]
        assert component.mine_range == (min(held), max(held))


@settings(max_examples=examples(60), deadline=None)
@given(numbered_boards())
def test_boards_without_layouts_are_refused(board: Board) -> None:
    try:
        expected = solve(board)
    except InconsistentBoardError:
        with pytest.raises(InconsistentBoardError):
            certain_cells(board)
    else:
        found = certain_cells(board)
        assert (found.safe, found.mines) == (expected.safe, expected.mines)


def test_certain_cells_equal_the_exact_solve_on_larger_positions() -> None:
    for board in (mid_game(30, 16, 99, seed=1), mid_game(16, 16, 40, seed=3), clue_lattice(3, seed=2)):
        analysis = solve(board)
        found = certain_cells(board)
        assert (found.safe, found.mines) == (analysis.safe, analysis.mines)


def test_cli_falls_back_to_certain_cells(tmp_path, capsys) -> None:  # noqa: ANN001
    path = tmp_path / "b.mine"
    path.write_text("4x2x2\nHHHH\n1221\n")
    assert main(["solve", str(path), "--certain"]) == 0
    out = capsys.readouterr().out
    assert "2 certainly safe: (0, 0) (0, 3)" in out and "2 certain mines: (0, 1) (0, 2)" in out
    assert out.splitlines()[1].split() == ["0", "-", "*", "*", "-"]  # the board, as solve draws it
    # JSON: the keys of solve --json (Analysis.to_dict) where they mean the same.
    assert main(["solve", str(path), "--certain", "--json"]) == 0
    certain = json.loads(capsys.readouterr().out)
    assert main(["solve", str(path), "--json"]) == 0
    full = json.loads(capsys.readouterr().out)
    for key in ("width", "height", "mines", "certain_safe", "certain_mines"):
        assert certain[key] == full[key], key
    assert certain["certain_safe"] == [[0, 0], [0, 3]]


@pytest.mark.slow
def test_a_40x40_lattice_answers_where_counting_times_out() -> None:
    board = clue_lattice(20, seed=0)  # 41x41, one component of 400 overlapping clues
    with pytest.raises(SolverTimeoutError):
        solve(board, time_limit=5)
    found = certain_cells(board, time_limit=120)
    (component,) = found.components
    # The clues cover the board: the component holds every mine that deductions did not
    # take out (its cells include those CP-SAT then proved mines: they are in the range too).
    inside = set(component.cells)
    taken_out = [cell for cell in found.mines if cell not in inside]
    assert len(taken_out) < len(found.mines)  # CP-SAT settled some mines inside the component
    assert component.mine_range == (board.mines - len(taken_out),) * 2
