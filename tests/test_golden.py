"""The golden corpus: ``tests/golden/*.mine`` with exact answers computed by brute force.

``answers.json`` is written by ``tests/make_golden.py`` from the brute force of
``tests/bruteforce.py``, never by the solver; see ``tests/golden/README.md``.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from bruteforce import brute_force
from make_golden import ANSWERS, GOLDEN, compute_answers, to_json

from analyzer import Board, solve
from analyzer.solver.counting import ENGINES as SOLVER_ENGINES

ENGINES = tuple(engine for engine in SOLVER_ENGINES if engine != "auto")
ANSWER = json.loads(ANSWERS.read_text())
NAMES = sorted(ANSWER)
FLAGGED = sorted(name for name in NAMES if "untrusted" in ANSWER[name])
EXAMPLES = Path(__file__).resolve().parent.parent / "analyzer" / "examples"


def _board(name: str) -> Board:
    return Board.from_text((GOLDEN / f"{name}.mine").read_text())


def _fractions(rows: list[list[str | None]]) -> tuple[tuple[Fraction | None, ...], ...]:
    return tuple(tuple(None if p is None else Fraction(p) for p in row) for row in rows)


def test_every_board_has_an_answer():
    assert sorted(path.stem for path in GOLDEN.glob("*.mine")) == NAMES
    assert 15 <= len(NAMES) <= 30


def test_the_corpus_holds_the_example_boards():
    for path in EXAMPLES.glob("*.mine"):
        assert (GOLDEN / path.name).read_text() == path.read_text()


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", NAMES)
def test_solve_matches_the_golden_answer(name, engine):
    board = _board(name)
    expected = ANSWER[name]
    analysis = solve(board, engine=engine)
    assert analysis.total == int(expected["total"])
    assert analysis.probabilities == _fractions(expected["probabilities"])
    golden = {k: v for k, v in expected.items() if k != "untrusted"}
    # to_dict also lists certain cells and components; the golden keys must match exactly.
    assert {k: analysis.to_dict()[k] for k in golden} == golden


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", FLAGGED)
def test_solve_matches_the_golden_answer_without_trusting_flags(name, engine):
    expected = ANSWER[name]["untrusted"]
    analysis = solve(_board(name), engine=engine, trust_flags=False)
    assert analysis.total == int(expected["total"])
    assert analysis.probabilities == _fractions(expected["probabilities"])


@pytest.mark.parametrize("name", NAMES)
def test_golden_answers_are_exact_and_add_up(name):
    """Checks on the file itself: probabilities in [0, 1] summing to the mines left."""
    board = _board(name)
    expected = ANSWER[name]
    assert (expected["width"], expected["height"], expected["mines"]) == (
        board.width,
        board.height,
        board.mines,
    )
    rows = _fractions(expected["probabilities"])
    hidden = sum(rows[r][c] for r, c in board.hidden_cells())
    assert hidden == board.mines_left
    assert all(rows[r][c] == 1 for r, c in board.flagged_cells())
    assert all(
        (rows[r][c] is None) == board.is_revealed(r, c)
        for r in range(board.height)
        for c in range(board.width)
    )
    assert all(0 <= p <= 1 for row in rows for p in row if p is not None)


def _unknown_count(name: str) -> int:
    board = _board(name)
    return len(board.hidden_cells()) + len(board.flagged_cells())


@pytest.mark.parametrize("name", [name for name in NAMES if _unknown_count(name) <= 16])
def test_small_golden_answers_are_the_brute_force(name):
    board = _board(name)
    assert brute_force(board).to_dict() == {k: v for k, v in ANSWER[name].items() if k != "untrusted"}


@pytest.mark.slow
def test_answers_json_is_up_to_date():
    """``make_golden.py --check``: the whole file is what the brute force writes today."""
    assert ANSWERS.read_text() == to_json(compute_answers())
