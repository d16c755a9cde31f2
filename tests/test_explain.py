"""Tests of explanations (:mod:`analyzer.solver.explain`) against the brute force of :mod:`bruteforce`.

For every certain cell of small positions from real games: the clues of the
explanation (and the mine total when it is used) leave the cell no other
content, checked by enumerating the layouts of those clues alone; and removing
any one member lets the other content back. Forcing is monotone (more clues
force at least as much), so "no set with one member fewer forces it" means "no
proper subset forces it". Explanations said to be the smallest are checked
against every smaller set of clues.
"""

from __future__ import annotations

from itertools import combinations

import pytest
from bruteforce import brute_force, is_consistent
from hypothesis import given, settings
from strategies import examples, game_boards

from analyzer import Board, BoardParseError, InconsistentBoardError, InvalidCellError, explain, solve
from analyzer.board.board import FLAG
from analyzer.cli import main

Cell = tuple[int, int]


def _forces(board: Board, cell: Cell, is_mine: bool, clues: tuple[Cell, ...], with_total: bool) -> bool:
    """Whether no layout gives the cell the other content under these clues (and the total if asked).

    The board gets the cell's other content: a flag is a known mine, a revealed
    number (whose own clue is never among the chosen ones) a known safe cell.
    Without the total, the mine count is lowered to the flags' so it always fits.
    """
    if not with_total:
        mines = len(board.flagged_cells()) + (not is_mine)
        board = Board(board.width, board.height, mines, board.cells, board.topology)
    try:
        other = board.replace({cell: 0 if is_mine else FLAG})
    except BoardParseError:  # the mines no longer fit: the total alone rules it out
        assert with_total
        return True
    return not is_consistent(other, clues=clues, with_total=with_total)


def assert_minimal_explanation(board: Board, cell: Cell, explanation) -> None:  # noqa: ANN001
    is_mine, clues, total = explanation.is_mine, explanation.clues, explanation.uses_total
    assert _forces(board, cell, is_mine, clues, total), "the explanation does not force the cell"
    for drop in clues:
        rest = tuple(c for c in clues if c != drop)
        assert not _forces(board, cell, is_mine, rest, total), f"{drop!r} is not needed"
    if total:
        assert not _forces(board, cell, is_mine, clues, False), "the mine total is not needed"
        # The total is used only when the clues alone do not force the cell.
        assert not _forces(board, cell, is_mine, board.revealed_cells(), False)


def assert_smallest(board: Board, cell: Cell, explanation) -> None:  # noqa: ANN001
    numbers = board.revealed_cells()
    for k in range(len(explanation.clues)):
        for subset in combinations(numbers, k):
            assert not _forces(board, cell, explanation.is_mine, subset, explanation.uses_total), subset


@settings(max_examples=examples(60), deadline=None)
@given(game_boards(max_side=5, max_unknown=14))
def test_explanations_force_the_cell_and_are_minimal(board: Board) -> None:
    oracle = brute_force(board)
    for cell in oracle.safe + oracle.mines:
        explanation = explain(board, cell)
        assert explanation.cell == cell
        assert explanation.is_mine == (cell in oracle.mines)
        assert_minimal_explanation(board, cell, explanation)
    for cell in board.hidden_cells():
        if cell not in oracle.safe + oracle.mines:
            with pytest.raises(InvalidCellError, match="not certain"):
                explain(board, cell)


@settings(max_examples=examples(25), deadline=None)
@given(game_boards(max_side=4, max_unknown=10))
def test_explanations_proven_smallest_are_smallest(board: Board) -> None:
    analysis = solve(board)
    for cell in analysis.safe + analysis.mines:
        explanation = analysis.explain(*cell)
        if explanation.is_smallest:
            assert_smallest(board, cell, explanation)


def test_minimal_check_rejects_wrong_answers() -> None:
    board = Board.from_text("4x2x2\nHHHH\n1221\n")
    right = explain(board, (0, 1))
    assert right.clues == ((1, 2), (1, 3)) and right.is_mine and not right.uses_total
    assert_minimal_explanation(board, (0, 1), right)
    too_few = right.__class__(board, (0, 1), True, ((1, 3),), False, False)
    with pytest.raises(AssertionError, match="does not force"):
        assert_minimal_explanation(board, (0, 1), too_few)
    too_many = right.__class__(board, (0, 1), True, ((1, 1), (1, 2), (1, 3)), False, False)
    with pytest.raises(AssertionError, match="not needed"):
        assert_minimal_explanation(board, (0, 1), too_many)


def test_the_mine_total_is_named_when_needed() -> None:
    explanation = explain("3x1x1\nHH1\n", (0, 0))
    assert explanation.uses_total and explanation.clues == ((0, 2),) and not explanation.is_mine
    # A background cell: only the total settles it.
    lone = explain("3x1x0\nHH0\n", (0, 0))
    assert lone.uses_total and lone.clues == () and lone.size == 1


def test_flags_lower_the_numbers_of_an_explanation() -> None:
    board = Board.from_text("3x2x2\nFHH\n2H1\n")
    # The 2 beside the flag needs one more mine among (0, 1) and (1, 1); the 1 has it there.
    explanation = explain(board, (0, 2))
    assert not explanation.is_mine and explanation.clues == ((1, 0), (1, 2)) and explanation.is_smallest
    with pytest.raises(InvalidCellError, match="flagged"):
        explain(board, (0, 0))
    # Distrusted, the flag is an unknown cell like the others, and the same clues make it a mine.
    distrusted = explain(board, (0, 0), trust_flags=False)
    assert distrusted.is_mine and distrusted.clues == ((1, 0), (1, 2))


def test_bad_cells_and_boards() -> None:
    board = Board.from_text("3x1x1\nH1H\n")
    with pytest.raises(InvalidCellError, match="revealed"):
        explain(board, (0, 1))
    with pytest.raises(InvalidCellError, match="not certain"):
        solve(board).explain(0, 0)
    with pytest.raises(IndexError):
        explain(board, (3, 0))
    with pytest.raises(InconsistentBoardError, match="in conflict"):
        explain("3x1x1\n1H0\n", (0, 1))


def test_analysis_explain_agrees_with_the_free_function() -> None:
    board = Board.from_text("4x2x2\nHHHH\n1221\n")
    analysis = solve(board)
    for cell in analysis.safe + analysis.mines:
        assert analysis.explain(*cell) == explain(board, cell)


def test_explanation_pictures() -> None:
    explanation = explain("4x2x2\nHHHH\n1221\n", (0, 1))
    text = str(explanation)
    # The notation of analyzer solve: numbers in brackets, the claim as - or *; the clues <n>.
    assert text.splitlines()[1:3] == ["0    #   *   #   #", "1  [1] [2] <2> <1>"]
    assert text.splitlines()[-1] == explanation.describe()
    html = explanation._repr_html_()
    assert html.count("in the explanation") == 2 and "certain mine" in html
    assert explanation.to_dict()["clues"] == [{"cell": [1, 2], "number": 2}, {"cell": [1, 3], "number": 1}]


def test_cli_explain(tmp_path, capsys) -> None:  # noqa: ANN001
    path = tmp_path / "b.mine"
    path.write_text("4x2x2\nHHHH\n1221\n")
    assert main(["explain", str(path)]) == 0
    out = capsys.readouterr().out
    assert "(0, 1) is a mine: forced by the clues 2 at (1, 2), 1 at (1, 3)" in out
    assert "2 certainly safe, 2 certain mines" in out
    assert main(["explain", str(path), "--cell", "0,1", "--json"]) == 0
    assert '"claim": "mine"' in capsys.readouterr().out
    assert main(["explain", str(path), "--cell", "9,9"]) == 1
    assert "outside" in capsys.readouterr().err
    assert main(["explain", str(path), "--cell", "1,1"]) == 1
    assert "revealed" in capsys.readouterr().err


def test_ctrl_c_after_cp_sat_is_still_a_keyboard_interrupt() -> None:
    """CP-SAT's SIGINT handler outlived its solve: Ctrl+C (a Jupyter interrupt) then killed the process."""
    import subprocess
    import sys

    code = (
        "import os, signal, time\n"
        "from analyzer import certain_cells, explain\n"
        "explain('4x2x2\\nHHHH\\n1221\\n', (0, 0))\n"
        "certain_cells('4x2x2\\nHHHH\\n1221\\n')\n"
        "try:\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "    time.sleep(5)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted')\n"
    )
    # The child starts with Ctrl+C's default disposition even where this suite runs with SIGINT
    # ignored (started in the background by a script): Python then raises KeyboardInterrupt.
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=_default_sigint,
    )
    assert (done.returncode, done.stdout) == (0, "interrupted\n"), done.stderr


def _default_sigint() -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_cli_explain_asks_feasibility_only(tmp_path, capsys, monkeypatch) -> None:  # noqa: ANN001
    """The README's clue lattice: no counting engine counts it, yet its certain cells are explained.

    The command used to count the board first and stopped with a memory message; an explanation
    needs feasibility only (CP-SAT, as ``solve --certain``), so counting must not be asked at all.
    """
    import importlib

    import analyzer.solver
    from analyzer.play.positions import clue_lattice

    def no_counting(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        raise AssertionError("explain counted the layouts")

    monkeypatch.setattr(importlib.import_module("analyzer.solver.solve"), "solve", no_counting)
    monkeypatch.setattr(analyzer.solver, "solve", no_counting)
    path = tmp_path / "lattice.mine"
    path.write_text(clue_lattice(20).to_text())
    assert main(["explain", str(path), "--cell", "20,37"]) == 0
    assert "(20, 37) is a mine: forced by the clues 1 at (21, 35), 6 at (21, 37)" in capsys.readouterr().out
    assert main(["explain", str(path), "--cell", "2,12", "--json"]) == 0
    assert '"claim": "safe"' in capsys.readouterr().out
    # A cell the clues near it do not settle is refused by the whole board's check.
    assert main(["explain", str(path), "--cell", "0,0"]) == 1
    assert "not certain" in capsys.readouterr().err


def test_explain_refuses_a_badly_written_cell_before_any_work(tmp_path, capsys, monkeypatch) -> None:  # noqa: ANN001
    import analyzer.cli.solving as solving  # the module of the explain command

    monkeypatch.setattr(solving, "_read", lambda *a, **k: pytest.fail("the board was read before the cell"))
    with pytest.raises(SystemExit) as stop:
        main(["explain", str(tmp_path / "b.mine"), "--cell", "1-1"])
    assert stop.value.code == 2
    assert "argument --cell: expected a cell as R,C (0-based), got '1-1'" in capsys.readouterr().err


def test_a_cell_near_clues_is_settled_without_the_whole_board() -> None:
    """The nearby clues' verdict equals the whole analysis's on positions from real games."""
    from analyzer.play.positions import mid_game

    for seed in range(4):
        board = mid_game(16, 16, 40, seed=seed)
        analysis = solve(board)
        for cell in analysis.safe[:5] + analysis.mines[:5]:
            assert explain(board, cell).is_mine == (cell in analysis.mines)
