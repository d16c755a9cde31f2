"""Tests of :func:`analyzer.solve` against the brute force of :mod:`bruteforce`.

Every property compares the solver with an oracle that shares none of its code
(only the board): exact probabilities, totals, certain cells, the mine-count
distribution and the per-component counts, with every engine and with flags
trusted or not. Boards no layout satisfies must raise
:class:`~analyzer.InconsistentBoardError` naming a minimal set of clues in
conflict, checked by brute force over those clues alone.
"""

from __future__ import annotations

import math
import random
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from bruteforce import brute_force, component_layouts, is_consistent
from hypothesis import HealthCheck, event, given, settings, target
from hypothesis import strategies as st
from strategies import MAX_UNKNOWN, examples, game_boards, numbered_boards, positions

from analyzer import (
    Board,
    BoardParseError,
    InconsistentBoardError,
    InvalidCellError,
    SolverTimeoutError,
    solve,
)
from analyzer.solver.analysis import ComponentSummary
from analyzer.solver.counting import ENGINES as SOLVER_ENGINES
from conftest import ALL_EXAMPLES  # the repository's root conftest.py

# Every engine the solver offers, "auto" aside (it picks among the others).
ENGINES = tuple(engine for engine in SOLVER_ENGINES if engine != "auto")
EXAMPLES = Path(__file__).resolve().parent.parent / "analyzer" / "examples"

# Sized so that the default run of this file stays well under a minute; the
# ``slow`` variants run the same checks on many more boards.
FAST = settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
QUICK = settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=examples(1500), deadline=None, suppress_health_check=[HealthCheck.too_slow])

F = Fraction


@pytest.fixture(autouse=True)
def _time_for_conflicts(monkeypatch: pytest.MonkeyPatch) -> None:
    """A generous budget for naming clues in conflict: the minimality checked here must not
    depend on how loaded the machine is (the budget's own behaviour is tested in test_hostile)."""
    import importlib

    solve_module = importlib.import_module("analyzer.solver.solve")
    monkeypatch.setattr(solve_module, "CONFLICT_SECONDS", 120.0)
    monkeypatch.setattr(solve_module, "CONFLICT_EFFORT", 1000.0)


# ------------------------------------------------------------- the oracle
def _unknown_cells(board: Board, trust_flags: bool) -> list[tuple[int, int]]:
    return list(board.hidden_cells()) + ([] if trust_flags else list(board.flagged_cells()))


def check_against_brute_force(board: Board, engine: str, trust_flags: bool) -> None:
    """Everything ``solve`` says about a consistent board, checked against the brute force."""
    oracle = brute_force(board, trust_flags=trust_flags)
    assert oracle.total > 0, "the strategies draw consistent boards here"
    analysis = solve(board, engine=engine, trust_flags=trust_flags)
    assert analysis.total == oracle.total
    assert analysis.probabilities == oracle.probabilities
    for r in range(board.height):
        for c in range(board.width):
            if oracle.probability(r, c) is not None:
                assert analysis.probability(r, c) == oracle.probability(r, c)
    assert analysis.safe == oracle.safe
    assert analysis.mines == oracle.mines
    assert analysis.mine_count_distribution == oracle.mine_count_distribution
    assert analysis.mines_left == oracle.mines_left
    assert analysis.background_size == oracle.background_size
    unknown = _unknown_cells(board, trust_flags)
    assert sum(analysis.probability(*cell) for cell in unknown) == oracle.mines_left
    assert analysis.expected_mines == oracle.mines_left
    assert analysis.trust_flags is trust_flags


def _counts(comp: ComponentSummary) -> tuple:
    """What a component says about its layouts, without the engine that counted it."""
    return (comp.cells, comp.clues, comp.groups, comp.solutions, comp.layouts_by_mines)


def check_components(board: Board, trust_flags: bool) -> None:
    """Every engine counts every component alike, and the components factor the brute force."""
    analyses = {engine: solve(board, engine=engine, trust_flags=trust_flags) for engine in ENGINES}
    first = analyses[ENGINES[0]]
    for engine, analysis in analyses.items():
        assert analysis.total == first.total
        assert analysis.mine_count_distribution == first.mine_count_distribution
        assert analysis.probabilities == first.probabilities
        assert [_counts(comp) for comp in analysis.components] == [_counts(c) for c in first.components]
        # The enumerator and CP-SAT count every component themselves (some other
        # engines hand the ones they cannot cut to another); cells that exact
        # deductions settle before counting form a component of their own.
        known = (engine, "deduction") if engine in ("enumerate", "cpsat") else (*SOLVER_ENGINES, "deduction")
        assert all(comp.engine in known for comp in analysis.components)

    # The components split the constrained unknown cells and the clues touching them;
    # the other unknown cells are the background.
    unknown = set(_unknown_cells(board, trust_flags))
    constrained = {n for clue in board.revealed_cells() for n in board.neighbours(*clue)} & unknown
    cells = [cell for comp in first.components for cell in comp.cells]
    assert len(cells) == len(set(cells)) and set(cells) == constrained
    assert first.background_size == len(unknown - constrained)
    clues = [clue for comp in first.components for clue in comp.clues]
    touching = [clue for clue in board.revealed_cells() if set(board.neighbours(*clue)) & unknown]
    assert sorted(clues) == touching
    for comp in first.components:
        assert all(set(board.neighbours(*clue)) & set(comp.cells) for clue in comp.clues)

    # The layouts of the constrained cells that satisfy every clue (the mine total
    # aside) are the product of the components' layouts: each component's are the
    # distinct restrictions to its cells.
    if len(constrained) > 14:
        return
    layouts = component_layouts(board, sorted(constrained), touching, trust_flags=trust_flags)
    product = 1
    for comp in first.components:
        own = {layout & frozenset(comp.cells) for layout in layouts}
        product *= len(own)
        by_mines = [0] * (len(comp.cells) + 1)
        for layout in own:
            by_mines[len(layout)] += 1
        while len(by_mines) > 1 and by_mines[-1] == 0:
            by_mines.pop()
        assert comp.layouts_by_mines == tuple(by_mines)
        assert comp.mine_range == (min(map(len, own)), max(map(len, own)))
        # Groups: cells next to exactly the same clues; solutions: the layouts told
        # apart only by how many mines each group holds.
        signature = {cell: frozenset(board.neighbours(*cell)) & frozenset(touching) for cell in comp.cells}
        groups = sorted(set(signature.values()), key=sorted)
        assert comp.groups == len(groups)
        solutions = {
            tuple(sum(1 for cell in layout if signature[cell] == g) for g in groups) for layout in own
        }
        assert comp.solutions == len(solutions)
    assert product == len(layouts)


def assert_minimal_conflict(board: Board, clues: tuple, trust_flags: bool) -> None:
    """``clues`` admit no layout together, and do once any one of them is dropped.

    Checked by brute force over those clues alone, either without the mine total
    (clues in conflict among themselves) or with it (clues in conflict with the
    total): the set must be minimal in one of the two senses.
    """
    assert clues, "an inconsistent board always has clues in conflict"
    assert len(set(clues)) == len(clues)
    assert all(board.is_revealed(*cell) for cell in clues)
    senses = []
    for with_total in (False, True):
        conflict = not is_consistent(board, clues=clues, with_total=with_total, trust_flags=trust_flags)
        minimal = all(
            is_consistent(
                board,
                clues=[c for c in clues if c != dropped],
                with_total=with_total,
                trust_flags=trust_flags,
            )
            for dropped in clues
        )
        senses.append(conflict and minimal)
    assert any(senses), f"{clues!r} is not a minimal conflict of\n{board}"


def check_consistent_or_conflict(board: Board, engine: str, trust_flags: bool) -> None:
    """Either the board has layouts and ``solve`` counts them, or it names a minimal conflict."""
    oracle = brute_force(board, trust_flags=trust_flags)
    if oracle.total:
        analysis = solve(board, engine=engine, trust_flags=trust_flags)
        assert analysis.total == oracle.total
        assert analysis.probabilities == oracle.probabilities
        return
    with pytest.raises(InconsistentBoardError) as info:
        solve(board, engine=engine, trust_flags=trust_flags)
    assert_minimal_conflict(board, info.value.clues, trust_flags)
    # The message names the first five clues and says how many more there are.
    for cell in info.value.clues[:5]:
        assert f"{board[cell]} at {cell!r}" in str(info.value)
    if len(info.value.clues) > 5:
        assert f"and {len(info.value.clues) - 5} more" in str(info.value)


# ------------------------------------------------------- worked examples
# From /work/shared/boards/README.md, typed in by hand.
README_EXAMPLES = {
    "cs70_4x3_4.mine": (
        24,
        {(2, 1): F(1, 2), (1, 1): F(1, 2), (1, 2): F(1, 3), (1, 3): F(1, 3), (2, 3): F(1, 3)}
        | {(0, c): F(1, 4) for c in range(4)}
        | {(1, 0): F(1)},  # the flag
    ),
    "cs70_figure2_4x4_6.mine": (
        57,
        {(2, 1): F(2, 19), (2, 2): F(2, 19), (2, 3): F(17, 19), (3, 1): F(17, 19)}
        | {(0, 3): F(14, 19), (1, 3): F(14, 19), (3, 0): F(14, 19)}
        # "The other seven hidden cells": there are six, all next to the 2 at (1, 1).
        | {cell: F(17, 57) for cell in [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0)]},
    ),
    "field_groups_4x4_6.mine": (
        66,
        {(0, 0): F(1, 11), (1, 0): F(1, 11), (2, 0): F(1, 11)}
        | {(0, 1): F(2, 11), (0, 2): F(2, 11), (2, 1): F(2, 11), (2, 2): F(2, 11)}
        | {(0, 3): F(25, 33), (1, 3): F(25, 33), (2, 3): F(25, 33)}
        | {(3, c): F(15, 22) for c in range(4)},
    ),
}


def test_readme_examples_cover_every_unrevealed_cell():
    for name, (_total, expected) in README_EXAMPLES.items():
        board = Board.from_text((EXAMPLES / name).read_text())
        unrevealed = set(board.hidden_cells()) | set(board.flagged_cells())
        assert set(expected) == unrevealed, name


@pytest.mark.parametrize("engine", ("auto", *ENGINES))
@pytest.mark.parametrize("name", sorted(README_EXAMPLES))
def test_readme_examples(name, engine):
    total, expected = README_EXAMPLES[name]
    board = Board.from_text((EXAMPLES / name).read_text())
    analysis = solve(board, engine=engine)
    assert analysis.total == total
    for cell, p in expected.items():
        assert analysis.probability(*cell) == p, cell
    assert analysis.expected_mines == board.mines_left


@pytest.mark.parametrize("name", sorted(README_EXAMPLES))
def test_brute_force_agrees_with_the_readme(name):
    total, expected = README_EXAMPLES[name]
    oracle = brute_force((EXAMPLES / name).read_text())
    assert oracle.total == total
    assert {cell: oracle.probability(*cell) for cell in expected} == expected


def test_readme_hidden_probabilities_sum_to_mines_left():
    analysis = solve((EXAMPLES / "cs70_4x3_4.mine").read_text())
    assert analysis.mines_left == 3
    assert sum(analysis.probability(*cell) for cell in analysis.board.hidden_cells()) == 3


# ------------------------------------------------------------ properties
#: The brute force (every subset of the unknown cells) and the engines cost most on the largest
#: boards, which ``target`` steers towards. The default run draws boards of up to MAX_UNKNOWN (18)
#: unknown cells for "frontier" (the sweep "auto" falls back on) and of up to this many for the
#: other three, whose code (the enumerator's search, CP-SAT's model and callback, the split
#: engine's search for a cut) a 14-cell component runs through as an 18-cell one does.
#: ``make test-all`` and the slow test_probabilities_equal_brute_force_many give every engine
#: the largest boards.
DEFAULT_RUN_UNKNOWN = 14


def _max_unknown(engine: str) -> int:
    return MAX_UNKNOWN if ALL_EXAMPLES or engine == "frontier" else DEFAULT_RUN_UNKNOWN


@pytest.mark.parametrize("trust_flags", [True, False])
@pytest.mark.parametrize("engine", ENGINES)
@FAST
@given(data=st.data())
def test_probabilities_equal_brute_force(engine, trust_flags, data):
    board = data.draw(game_boards(wrong_flags=not trust_flags, max_unknown=_max_unknown(engine)))
    unknown = len(_unknown_cells(board, trust_flags))
    event(f"unknown cells: {unknown:02d}")
    target(float(unknown), label="unknown cells")  # steer towards the larger boards
    check_against_brute_force(board, engine, trust_flags)


@pytest.mark.slow
@pytest.mark.parametrize("trust_flags", [True, False])
@pytest.mark.parametrize("engine", ENGINES)
@SLOW
@given(data=st.data())
def test_probabilities_equal_brute_force_many(engine, trust_flags, data):
    board = data.draw(game_boards(wrong_flags=not trust_flags))
    target(float(len(_unknown_cells(board, trust_flags))), label="unknown cells")
    check_against_brute_force(board, engine, trust_flags)


@FAST
@given(game_boards(wrong_flags=True), st.booleans())
def test_engines_agree_on_every_count(board, trust_flags):
    if trust_flags and not is_consistent(board):
        return  # wrong flags, trusted, can leave no layout
    target(float(len(_unknown_cells(board, trust_flags))), label="unknown cells")
    check_components(board, trust_flags)


@pytest.mark.slow
@SLOW
@given(game_boards(wrong_flags=True), st.booleans())
def test_engines_agree_on_every_count_many(board, trust_flags):
    if trust_flags and not is_consistent(board):
        return
    check_components(board, trust_flags)


@pytest.mark.parametrize("engine", ENGINES)
@settings(max_examples=examples(40), deadline=None)
@given(game_boards(topology="torus", min_side=2, max_side=5))
def test_torus_probabilities_equal_brute_force(engine, board):
    check_against_brute_force(board, engine, True)


@settings(max_examples=examples(100), deadline=None)
@given(positions(max_side=9, max_unknown=40, wrong_flags=True), st.sampled_from(ENGINES))
def test_the_true_layout_is_possible(position, engine):
    """Larger boards than the brute force takes: the real mines are never impossible."""
    analysis = solve(position.board, engine=engine, trust_flags=False)
    assert analysis.expected_mines == position.board.mines
    for cell in _unknown_cells(position.board, trust_flags=False):
        p = analysis.probability(*cell)
        assert 0 < p <= 1 if cell in position.layout else 0 <= p < 1
    assert set(analysis.mines) <= position.layout
    assert not set(analysis.safe) & position.layout
    assert sum(analysis.mine_count_distribution.values()) == 1


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(min_side=5, max_side=10, max_unknown=60, wrong_flags=True), st.booleans())
def test_engines_agree_on_larger_boards(position, trust_flags):
    """Past the brute force's reach, every engine (and "auto") still gives the same answer."""
    if trust_flags and position.wrong_flags:
        return
    answers = {
        engine: solve(position.board, engine=engine, trust_flags=trust_flags) for engine in ("auto", *ENGINES)
    }
    first = answers["auto"]
    for analysis in answers.values():
        assert (analysis.total, analysis.probabilities) == (first.total, first.probabilities)
        assert [_counts(comp) for comp in analysis.components] == [_counts(c) for c in first.components]


@QUICK
@given(game_boards(), st.sampled_from(ENGINES))
def test_mine_count_distribution_sums_to_one(board, engine):
    analysis = solve(board, engine=engine)
    distribution = analysis.mine_count_distribution
    assert sum(distribution.values()) == 1
    assert all(p > 0 for p in distribution.values())
    assert list(distribution) == sorted(distribution)
    constrained = sum(len(comp.cells) for comp in analysis.components)
    assert all(0 <= m <= constrained for m in distribution)


@QUICK
@given(game_boards(), st.booleans())
def test_to_numpy_is_nan_exactly_where_revealed(board, trust_flags):
    analysis = solve(board, trust_flags=trust_flags)
    array = analysis.to_numpy()
    assert array.shape == (board.height, board.width) and array.dtype == float
    for r in range(board.height):
        for c in range(board.width):
            if board.is_revealed(r, c):
                assert math.isnan(array[r, c])
            else:
                assert array[r, c] == float(analysis.probability(r, c))
    assert np.isnan(array).sum() == len(board.revealed_cells())


@QUICK
@given(game_boards())
def test_probability_of_a_revealed_cell_raises(board):
    analysis = solve(board)
    for cell in board.revealed_cells():
        with pytest.raises(InvalidCellError, match=re.escape(f"cell {cell!r} is revealed")):
            analysis.probability(*cell)
        assert analysis.probabilities[cell[0]][cell[1]] is None


@QUICK
@given(game_boards(), st.sampled_from(ENGINES))
def test_solve_accepts_text(board, engine):
    from_text = solve(board.to_text(), engine=engine)
    from_board = solve(board, engine=engine)
    assert from_text.board == board
    assert (from_text.total, from_text.probabilities) == (from_board.total, from_board.probabilities)


@pytest.mark.parametrize("engine", ENGINES)
@FAST
@given(numbered_boards(), st.booleans())
def test_random_numbers_are_counted_or_name_a_minimal_conflict(engine, board, trust_flags):
    check_consistent_or_conflict(board, engine, trust_flags)


@pytest.mark.slow
@pytest.mark.parametrize("engine", ENGINES)
@SLOW
@given(numbered_boards(), st.booleans())
def test_random_numbers_are_counted_or_name_a_minimal_conflict_many(engine, board, trust_flags):
    check_consistent_or_conflict(board, engine, trust_flags)


# --------------------------------------------------------- small answers
def test_probability_of_revealed_cell_raises_invalid_cell_error():
    analysis = solve("3x1x1\nH1H\n")
    with pytest.raises(InvalidCellError, match=r"cell \(0, 1\) is revealed \(shows 1\)"):
        analysis.probability(0, 1)
    assert isinstance(InvalidCellError("x"), ValueError)
    with pytest.raises(IndexError):
        analysis.probability(1, 0)


def test_trusted_flags_have_probability_one_and_are_not_listed_as_mines():
    # The 1 at (0, 1) has its flag: (0, 2) is safe, and the other mine is at (0, 3).
    analysis = solve("4x1x2\nF1HH\n")
    assert analysis.probabilities == ((F(1), None, F(0), F(1)),)
    assert analysis.mines == ((0, 3),) and analysis.safe == ((0, 2),)
    assert analysis.total == 1 and analysis.mines_left == 1 and analysis.expected_mines == 1


def test_untrusted_flags_are_unknown_cells():
    analysis = solve("3x1x1\nF1H\n", trust_flags=False)
    assert analysis.total == 2 and analysis.mines_left == 1
    assert analysis.probabilities == ((F(1, 2), None, F(1, 2)),)
    assert solve("3x1x1\nF1H\n").probabilities == ((F(1), None, F(0)),)


def test_to_dict_is_exact_and_json_ready():
    assert solve("3x1x1\nH1H\n").to_dict() == {
        "width": 3,
        "height": 1,
        "mines": 1,
        "topology": "square",
        "total": "2",
        "probabilities": [["1/2", None, "1/2"]],
        "certain_safe": [],
        "certain_mines": [],
        "components": [
            {
                "cells": [[0, 0], [0, 2]],
                "clues": [[0, 1]],
                "engine": "enumerate",
                "layouts_by_mines": ["0", "2"],
            }
        ],
        "background_size": 0,
    }


# ---------------------------------------------------------------- errors
@pytest.mark.parametrize("engine", ("auto", *ENGINES))
@pytest.mark.parametrize(
    ("text", "clues", "message"),
    [
        # a 3 with two hidden neighbours
        ("3x1x2\nH3H\n", ((0, 1),), "clue 3 at (0, 1) needs 3 mines but has only 2 hidden neighbours"),
        # two clues that disagree about (0, 1)
        ("3x1x1\n1H0\n", ((0, 0), (0, 2)), "no mine layout satisfies the clues 1 at (0, 0), 0 at (0, 2)"),
        # a 1 between two cells, but two mines on the board
        ("3x1x2\nH1H\n", ((0, 1),), "mine total 2 cannot be met"),
        # more flags around a number than it shows
        ("3x2x2\nFFH\n11H\n", ((1, 0),), "clue 1 at (1, 0) has 2 flagged"),
        # a number with no unknown neighbour left
        ("2x1x0\n10\n", ((0, 0),), "clue 1 at (0, 0)"),
        # the 1 at (0, 4) shares a cell with the 0 but is not part of the conflict
        ("7x1x2\n1H0H1HH\n", ((0, 0), (0, 2)), "1 at (0, 0), 0 at (0, 2)"),
    ],
)
def test_inconsistent_boards_name_the_clues_in_conflict(text, clues, message, engine):
    board = Board.from_text(text)
    assert brute_force(board).total == 0
    with pytest.raises(InconsistentBoardError, match=re.escape(message)) as info:
        solve(board, engine=engine)
    assert tuple(sorted(info.value.clues)) == clues
    assert_minimal_conflict(board, info.value.clues, trust_flags=True)
    for cell in clues:
        assert f"{board[cell]} at {cell!r}" in str(info.value)
    assert isinstance(info.value, ValueError)


def test_minimal_conflict_check_rejects_wrong_answers():
    """The check of ``.clues`` is not vacuous: it refuses too few, too many or unrelated clues."""
    board = Board.from_text("7x1x2\n1H0H1HH\n")
    assert_minimal_conflict(board, ((0, 0), (0, 2)), trust_flags=True)
    for wrong in [(), ((0, 0),), ((0, 0), (0, 4)), ((0, 0), (0, 2), (0, 4))]:
        with pytest.raises(AssertionError):
            assert_minimal_conflict(board, wrong, trust_flags=True)
    # In conflict with the mine total only: minimal with it, not without it.
    total = Board.from_text("7x1x4\nH1HHH1H\n")
    assert_minimal_conflict(total, ((0, 1), (0, 5)), trust_flags=True)
    with pytest.raises(AssertionError):
        assert_minimal_conflict(total, ((0, 1),), trust_flags=True)


def test_mine_total_conflict_message():
    with pytest.raises(InconsistentBoardError) as info:
        solve("7x1x4\nH1HHH1H\n")
    # two components of one mine each and one background cell: at most 3 mines
    assert str(info.value).startswith("mine total 4 cannot be met: the clues allow 2-3 mines among the 5")
    assert_minimal_conflict(Board.from_text("7x1x4\nH1HHH1H\n"), info.value.clues, trust_flags=True)


def test_inconsistency_with_untrusted_flags():
    board = Board.from_text("3x2x2\nFFH\n11H\n")
    check_consistent_or_conflict(board, "enumerate", trust_flags=False)
    check_consistent_or_conflict(board, "cpsat", trust_flags=False)


def test_unknown_engine_is_a_value_error():
    with pytest.raises(ValueError, match=r"unknown engine 'magic'"):
        solve("3x1x1\nH1H\n", engine="magic")


@pytest.mark.parametrize("time_limit", [0, -1, -0.5, float("nan")])
def test_bad_time_limit_is_a_value_error(time_limit):
    with pytest.raises(ValueError, match=r"time_limit must be a positive number of seconds"):
        solve("3x1x1\nH1H\n", time_limit=time_limit)


def test_generous_time_limit_is_fine():
    assert solve("3x1x1\nH1H\n", time_limit=60).total == 2


def test_solve_rejects_other_types_and_bad_text():
    with pytest.raises(TypeError, match=r"expects a Board or \.mine text, got int"):
        solve(42)
    with pytest.raises(BoardParseError, match=r"line 2, column 2: unknown character '\?'"):
        solve("3x1x1\nH?H\n")


def _hard_board(width: int = 30, height: int = 16, seed: int = 7) -> Board:
    """A number on every (odd, odd) cell, hidden cells around: one component of 120 overlapping clues.

    The numbers come from a real layout (a mine on each hidden cell with
    probability 0.3), so the board is consistent, and its layouts are
    astronomically many: no engine counts them in a millisecond.
    """
    rng = random.Random(seed)
    template = Board(width, height, 0, (-1,) * (width * height))
    clues = {(r, c) for r in range(1, height, 2) for c in range(1, width, 2)}
    layout = {
        (r, c) for r in range(height) for c in range(width) if (r, c) not in clues and rng.random() < 0.3
    }
    cells = [
        sum(1 for n in template.neighbours(r, c) if n in layout) if (r, c) in clues else -1
        for r in range(height)
        for c in range(width)
    ]
    return Board(width, height, len(layout), tuple(cells))


@pytest.mark.parametrize("engine", ("auto", *ENGINES))
def test_time_limit_raises_solver_timeout(engine):
    board = _hard_board()
    assert len(board.hidden_cells()) == 360
    with pytest.raises(SolverTimeoutError, match=r"time limit"):
        solve(board, engine=engine, time_limit=0.001)


def test_solver_timeout_error_is_a_timeout_error():
    assert issubclass(SolverTimeoutError, TimeoutError)


def test_solve_reads_a_path_as_well_as_text(tmp_path, monkeypatch) -> None:  # noqa: ANN001
    import pathlib

    from analyzer import BoardParseError, OptionError, certain_cells, count_layouts, explain

    board = tmp_path / "board.mine"
    board.write_text("4x3x4\nHHHH\nFHHH\n2H2H\n")
    assert solve(board).total == solve(str(board)).total == 24
    assert count_layouts(pathlib.Path(board)) == 24
    assert certain_cells(str(board)).safe == ()
    monkeypatch.chdir(tmp_path)
    assert solve("board.mine").total == 24
    with pytest.raises(
        BoardParseError, match=r"no file 'other\.mine' \(solve\(\) reads a Board, \.mine text"
    ):
        solve("other.mine")
    with pytest.raises(BoardParseError, match=r"no file 'sub/x' \(explain\(\) reads"):
        explain("sub/x", (0, 0))
    with pytest.raises(BoardParseError, match="cannot read .*missing.mine.*No such file"):
        solve(tmp_path / "missing.mine")
    (tmp_path / "binary.mine").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(BoardParseError, match="not a text file"):
        solve(tmp_path / "binary.mine")
    with pytest.raises(OptionError, match="trust_flags must be True or False, got 'no'"):
        solve(board, trust_flags="no")  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="deductions must be True or False, got 1"):
        solve(board, deductions=1)  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="trust_flags must be True or False, got None"):
        count_layouts(board, trust_flags=None)  # type: ignore[arg-type]


def test_ms_toollibs_published_test_board_gives_its_published_probabilities() -> None:
    """ms-toollib's own test (base/tests/test_probability.rs, board 4) asserts these floats."""
    from benchmarks.solve import MS_TOOLLIB_POSITIONS

    analysis = solve(MS_TOOLLIB_POSITIONS[3])
    published = {(0, 1): 0.07547169811320754, (1, 1): 0.9245283018867925, (3, 0): 0.5377358490566039}
    for cell, p in published.items():
        assert abs(float(analysis.probability(*cell)) - p) <= 2e-16, cell
    assert analysis.probability(0, 1) == Fraction(4, 53)
    assert abs(float(analysis.probability(7, 7)) - 0.14150943396226415) <= 2e-16  # a background cell


def test_a_slow_first_import_of_or_tools_leaves_the_conflict_search_its_budget() -> None:
    """The conflict search's second starts after CP-SAT is imported.

    A busy machine's first import of OR-Tools took the whole second, and a flaky test said
    "no time was left".
    """
    code = """
import importlib.abc, sys, time
class Slow(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == "ortools":
            time.sleep(1.5)  # a first import of OR-Tools on a loaded machine
        return None
sys.meta_path.insert(0, Slow())
import analyzer
try:
    analyzer.solve("3x1x1\\n3HH\\n")
except analyzer.InconsistentBoardError as error:
    print(error)
"""
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert "clue 3 at (0, 0) needs 3 mines but has only 1 hidden neighbour" in result.stdout
