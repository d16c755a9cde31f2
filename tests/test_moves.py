"""Tests of :meth:`analyzer.Analysis.best_moves` against the brute force of :mod:`bruteforce`."""

from __future__ import annotations

from fractions import Fraction

import pytest
from bruteforce import brute_force
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import examples, game_boards

from analyzer import HIDDEN, Board, InconsistentBoardError, explain, solve
from analyzer.cli import main
from analyzer.render import analysis_html


def _expected_progress(board: Board, cell: tuple[int, int], analysis) -> Fraction:  # noqa: ANN001
    """P(safe and the number shown settles another cell), by brute force on each revealed board."""
    before = brute_force(board)
    known = set(before.safe) | set(before.mines)
    hidden = [n for n in board.neighbours(*cell) if board[n] == HIDDEN]
    total = Fraction(0)
    for k, p in analysis.number_distribution(*cell).items():
        if k == 0 and hidden:
            total += p
            continue
        after = brute_force(board.replace({cell: k}))
        if (set(after.safe) | set(after.mines)) - known - {cell}:
            total += p
    return total


@settings(max_examples=examples(30), deadline=None)
@given(game_boards(max_side=5, max_unknown=12))
def test_best_moves_rank_safe_cells_then_guesses(board: Board) -> None:
    analysis = solve(board)
    n = 4
    moves = analysis.best_moves(n)
    unknown = [(r, c) for r in range(board.height) for c in range(board.width) if board[r, c] == HIDDEN]
    assert len(moves) == min(n, len(unknown) - len(analysis.mines))
    safe = [m for m in moves if m.is_safe]
    guesses = [m for m in moves if not m.is_safe]
    assert moves[: len(safe)] == tuple(safe)  # safe cells first
    assert len(safe) == min(n, len(analysis.safe))
    for move in safe:
        assert move.explanation_size == explain(board, move.cell).size
        assert move.progress_probability is None
    assert [m.explanation_size for m in safe] == sorted(m.explanation_size for m in safe)
    if guesses:
        chosen = {m.cell for m in guesses}
        lowest = sorted(analysis.probability(*c) for c in unknown if 0 < analysis.probability(*c) < 1)
        assert sorted(m.mine_probability for m in guesses) == lowest[: len(guesses)]
        assert all(m.cell not in analysis.mines and m.cell in unknown for m in guesses)
        for a, b in zip(guesses, guesses[1:], strict=False):
            assert (a.mine_probability, -a.progress_probability) <= (
                b.mine_probability,
                -b.progress_probability,
            )
        for move in guesses:
            assert move.mine_probability == analysis.probability(*move.cell)
            assert move.progress_probability == _expected_progress(board, move.cell, analysis)
        assert len(chosen) == len(guesses)


def test_a_position_without_certain_cells() -> None:
    analysis = solve("4x3x4\nHHHH\nFHHH\n2H2H\n")
    moves = analysis.best_moves(3)
    assert [m.cell for m in moves] == [(0, 0), (0, 3), (0, 2)]
    assert [m.mine_probability for m in moves] == [Fraction(1, 4)] * 3
    assert moves[0].describe() == "(0, 0) guess: 25.0% mine, 37.5% safe and progress"
    html = analysis_html(analysis, best=moves[0].cell)
    assert html.count("best move") == 1
    with pytest.raises(ValueError, match="positive integer"):
        analysis.best_moves(0)


def test_cli_best(tmp_path, capsys) -> None:  # noqa: ANN001
    path = tmp_path / "b.mine"
    path.write_text("4x3x4\nHHHH\nFHHH\n2H2H\n")
    assert main(["solve", str(path), "--best", "2"]) == 0
    out = capsys.readouterr().out
    assert "best moves:\n  1. (0, 0) guess: 25.0% mine, 37.5% safe and progress\n  2. (0, 3)" in out
    assert main(["solve", str(path), "--best", "--json"]) == 0
    assert '"best_moves": [{"cell": [0, 0], "mine_probability": "1/4"' in capsys.readouterr().out


@settings(max_examples=examples(40), deadline=None)
@given(game_boards(max_side=6, max_unknown=30), st.booleans())
def test_scoring_one_guess_a_class_ranks_as_scoring_every_guess(board: Board, trust_flags: bool) -> None:
    """Alike cells (same group, groups around, flags) share a score: the ranking is the per-cell one."""
    from analyzer.solver import moves

    try:
        analysis = solve(board, trust_flags=trust_flags)
    except InconsistentBoardError:
        return
    shared = analysis.best_moves(6)
    original = moves._outlook_class
    try:
        moves._outlook_class = lambda board, cell, trust_flags: (cell,)  # every cell its own class
        alone = analysis.best_moves(6)
    finally:
        moves._outlook_class = original
    assert shared == alone


def test_tied_guesses_are_scored_once_a_class() -> None:
    # One 3 in the middle of an expert board: the 471 background cells tie at 96/471.
    rows = ["H" * 30] * 16
    rows[8] = "H" * 15 + "3" + "H" * 14
    analysis = solve("30x16x99\n" + "\n".join(rows) + "\n")
    calls: list[tuple[int, int]] = []
    moves = analysis.best_moves(5, on_progress=lambda done, of: calls.append((done, of)))
    assert [m.cell for m in moves[:4]] == [(0, 0), (0, 29), (15, 0), (15, 29)]
    assert {m.mine_probability for m in moves} == {Fraction(96, 471)}
    assert calls[-1] == (471, 471) and len(calls) == 471
    # The corners' outlook, scored on one corner, is the exact one of each corner.
    corner = _expected_progress_exact(analysis, (15, 29))
    assert moves[3].progress_probability == corner


def _expected_progress_exact(analysis, cell: tuple[int, int]) -> Fraction:  # noqa: ANN001
    """The progress of one cell scored alone, by the exact solve (too large for the brute force)."""
    from analyzer.solver.moves import _certain, _progress

    before = _certain(analysis.board, True)
    return _progress(analysis.board, cell, analysis.number_distribution(*cell), before, True)
