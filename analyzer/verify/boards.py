"""Exact checks of the solver on boards (bundled examples and seeded random positions)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import TYPE_CHECKING

import sympy as sp

from analyzer import examples as bundled
from analyzer.board.board import Board

if TYPE_CHECKING:
    from analyzer.solver.analysis import Analysis

from analyzer.verify.proof import (
    _B,
    _L,
    CheckResult,
    Step,
    _Coeff,
    _eq,
    _i,
    _result,
    _x,
)

_RANDOM_BOARDS = 40


def _random_board(seed: int) -> Board:
    """A small position from a real game (:func:`analyzer.play.positions.mid_game`), all seeded."""
    from analyzer.play.positions import mid_game

    rng = random.Random(seed)
    width, height = rng.randint(4, 7), rng.randint(3, 6)
    mines = max(1, round(width * height * rng.uniform(0.15, 0.3)))
    return mid_game(
        width, height, mines, progress=rng.uniform(0.2, 0.6), flag_fraction=rng.uniform(0.0, 0.3), seed=seed
    )


def _default_boards() -> tuple[tuple[str, Board], ...]:
    examples = tuple((name, Board.from_text(bundled.read(name))) for name in bundled.names())
    randoms = tuple((f"random board (seed {seed})", _random_board(seed)) for seed in range(_RANDOM_BOARDS))
    return examples + randoms


def _labelled(boards: Iterable[Board | str] | None) -> tuple[tuple[str, Board], ...]:
    if boards is None:
        return _default_boards()
    out = []
    for number, board in enumerate(boards, 1):
        board = Board.from_text(board) if isinstance(board, str) else board
        out.append((f"board {number} ({board.width}x{board.height}x{board.mines})", board))
    return tuple(out)


def _solve(board: Board) -> Analysis:
    from analyzer.solver.solve import solve

    return solve(board)


def _on_boards(count: int) -> str:
    return f"exact check on {count} board{'' if count == 1 else 's'}"


def _solver_missing(name: str, statement: sp.Basic, summary: str, error: Exception) -> CheckResult:
    step = Step(f"[error] analyzer.solve is not available: {error}", sp.false, False)
    return CheckResult(name, statement, False, "exact check on 0 boards", (step,), summary)


def _unknown_probabilities(analysis: Analysis) -> list[Fraction | None]:
    """Probabilities of the unknown cells: hidden ones, and flags unless the solver trusted them."""
    board = analysis.board
    cells = list(board.hidden_cells())
    if not getattr(analysis, "trust_flags", True):
        cells += board.flagged_cells()
    return [analysis.probabilities[r][c] for r, c in cells]


def check_expectation_linearity_boards(
    boards: Iterable[Board | str] | None = None, *, solver: Callable[[Board], Analysis] | None = None
) -> CheckResult:
    """The solver's probabilities of the unknown cells sum exactly to the mines left, board by board.

    Parameters
    ----------
    boards : iterable of Board or str, optional
        Boards (or ``.mine`` text) to check; by default the bundled examples and
        40 seeded random boards.
    solver : callable, optional
        Board -> Analysis; :func:`analyzer.solve` by default (the mutation tests pass a wrong one).

    Returns
    -------
    CheckResult
        ``method`` is ``"exact check on K boards"``: not a proof.

    Examples
    --------
    >>> check_expectation_linearity_boards(["3x1x1\\nH1H\\n"]).method
    'exact check on 1 board'
    """
    return _expectation_boards(_labelled(boards), solver or _solve)


def _expectation_boards(
    labelled: tuple[tuple[str, Board], ...], solver: Callable[[Board], Analysis]
) -> CheckResult:
    name = "expectation_linearity_boards"
    summary = "solver: unknown cells' probabilities sum to the mines left"
    p, cell, H, L = sp.IndexedBase("p"), sp.Symbol("c"), sp.Symbol("H"), sp.Symbol("L")
    statement = _eq(sp.Sum(p[cell], (cell, 1, H)), L)
    steps = []
    for label, board in labelled:
        try:
            analysis = solver(board)
        except ImportError as error:
            return _solver_missing(name, statement, summary, error)
        values = _unknown_probabilities(analysis)
        total = sum((v for v in values if v is not None), Fraction(0))
        expected = board.mines_left if getattr(analysis, "trust_flags", True) else board.mines
        ok = None not in values and total == analysis.mines_left == expected
        steps.append(
            Step(
                f"[exact] {label}: {len(values)} unknown cells,"
                f" probabilities sum to {total}, mines left {analysis.mines_left}",
                _eq(sp.Rational(total.numerator, total.denominator), analysis.mines_left),
                ok,
            )
        )
    return _result(name, statement, _on_boards(len(labelled)), steps, summary)


def check_component_product_boards(
    boards: Iterable[Board | str] | None = None, *, solver: Callable[[Board], Analysis] | None = None
) -> CheckResult:
    """The engine's total equals the coefficient of ``x^L`` in ``prod P_i(x) (1 + x)^B``, board by board.

    ``P_i`` are the components' ``layouts_by_mines``, ``B`` the background size
    and ``L`` the mines left, all as the solver reports them; the product is
    taken by sympy and compared, exactly, with ``analysis.total`` and with the DP
    sum ``sum_m p_m C(B, L - m)``.

    Parameters
    ----------
    boards : iterable of Board or str, optional
        Boards to check; by default the bundled examples and 40 seeded random boards.

    Returns
    -------
    CheckResult
        ``method`` is ``"exact check on K boards"``: not a proof.

    Examples
    --------
    >>> check_component_product_boards(["3x1x1\\nH1H\\n"]).holds
    True
    """
    return _component_boards(_labelled(boards), solver or _solve)


def _component_boards(
    labelled: tuple[tuple[str, Board], ...], solver: Callable[[Board], Analysis]
) -> CheckResult:
    name = "component_product_boards"
    summary = "solver: total = coefficient of x^L in prod P_i(x) (1 + x)^B"
    x, B, L = _x, _B, _L
    T = sp.Symbol("T")
    P = sp.Function("P_i")(x)
    statement = _eq(_Coeff(sp.Product(P, (_i, 1, sp.Symbol("k"))) * (1 + x) ** B, x**L), T)
    steps = []
    for label, board in labelled:
        try:
            analysis = solver(board)
        except ImportError as error:
            return _solver_missing(name, statement, summary, error)
        factors = [
            sp.Poly(list(reversed(component.layouts_by_mines)) or [0], x).as_expr()
            for component in analysis.components
        ]
        conv = sp.Poly(sp.Mul(*factors), x) if factors else sp.Poly(1, x)
        generating = conv * sp.Poly((1 + x) ** analysis.background_size, x)
        coefficient = generating.coeff_monomial(x**analysis.mines_left)
        dp = sum(
            conv.coeff_monomial(x**mv) * math.comb(analysis.background_size, analysis.mines_left - mv)
            for mv in range(analysis.mines_left + 1)
        )
        ok = coefficient == dp == analysis.total
        shown = sp.Mul(*factors, sp.Pow(1 + x, analysis.background_size, evaluate=False), evaluate=False)
        steps.append(
            Step(
                f"[exact] {label}: {len(factors)} components, B = {analysis.background_size},"
                f" L = {analysis.mines_left}: coefficient {coefficient}, DP sum {dp}, total {analysis.total}",
                _eq(_Coeff(shown, x**analysis.mines_left), analysis.total),
                ok,
            )
        )
    return _result(name, statement, _on_boards(len(labelled)), steps, summary)
