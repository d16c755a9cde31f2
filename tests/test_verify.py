"""Tests of :mod:`analyzer.verify`: every check holds, and the machinery can fail."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from types import MappingProxyType, SimpleNamespace

import pytest
import sympy as sp

from analyzer import solve, verify
from analyzer.board.board import Board
from analyzer.cli import main as cli_main
from analyzer.verify import (
    CHECKS,
    STRATEGIES_6_3,
    CheckResult,
    Step,
    check_identity,
    format_table,
    run_checks,
)

n, k, a, b, j = sp.symbols("n k a b j", integer=True, nonnegative=True)
PROOFS = {"symbolic proof", "proof by documented steps"}


# ------------------------------------------------------------- every check holds
@pytest.mark.parametrize("name", list(CHECKS))
def test_check_holds(name):
    result = CHECKS[name]()
    assert isinstance(result, CheckResult)
    assert result.name == name
    assert result.holds, [s.description for s in result.steps if not s.verified]
    assert result.steps and all(isinstance(s, Step) and s.verified for s in result.steps)
    assert isinstance(result.statement, sp.Basic)
    assert result.latex == sp.latex(result.statement)


def test_registry_order_and_names():
    assert list(CHECKS) == [
        "placement_marginal",
        "placement_uniform",
        "safe_first_move_prior",
        "binomial_ratio",
        "strategy_count",
        "expectation_linearity",
        "expectation_linearity_boards",
        "component_product",
        "component_product_boards",
        "vandermonde",
    ]
    with pytest.raises(TypeError):
        CHECKS["extra"] = verify.check_vandermonde  # read-only registry


def test_methods_say_what_was_done():
    methods = {r.name: r.method for r in run_checks()}
    for name in ("expectation_linearity_boards", "component_product_boards"):
        assert methods[name].startswith("exact check on ") and methods[name].endswith(" boards")
    assert methods["strategy_count"] == "finite check (holds for N = 6, M = 3)"
    proofs = set(CHECKS) - {"expectation_linearity_boards", "component_product_boards", "strategy_count"}
    assert {methods[name] for name in proofs} <= PROOFS


def test_finite_cross_checks_are_labelled_as_such():
    for result in run_checks():
        for step in result.steps:
            if step.description.startswith("[finite"):
                assert "not part of the proof" in step.description


def test_results_are_frozen_values():
    result = verify.check_vandermonde()
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.holds = False
    assert isinstance(result.steps, tuple)
    description, expression, verified = result.steps[0]
    assert isinstance(description, str) and isinstance(expression, sp.Basic) and verified is True


def test_board_checks_use_examples_and_random_boards():
    boards = verify._default_boards()
    labels = [label for label, _ in boards]
    assert "cs70_4x3_4.mine" in labels
    assert sum(label.startswith("random board") for label in labels) == verify._RANDOM_BOARDS
    result = verify.check_component_product_boards()
    assert result.method == f"exact check on {len(boards)} boards"
    assert len(result.steps) == len(boards)


def test_random_boards_are_reproducible_and_solvable():
    assert verify._random_board(3) == verify._random_board(3)
    assert len({verify._random_board(seed) for seed in range(10)}) > 1
    for _, board in verify._default_boards():
        assert isinstance(board, Board)
        assert verify._solve(board).total >= 1


def test_board_checks_accept_boards_and_text():
    text = "4x3x4\nHHHH\nFHHH\n2H2H\n"
    result = verify.check_expectation_linearity_boards([text, Board.from_text("3x1x1\nH1H\n")])
    assert result.holds
    assert result.method == "exact check on 2 boards"


# ----------------------------------------------------- the quoted strategy count
def test_strategy_count_reports_the_discrepancy():
    result = verify.check_strategy_count()
    assert STRATEGIES_6_3 == 6 * 5**9 * 4**81
    assert (6 * 5 * 4) ** 9 == 5159780352000000000 != STRATEGIES_6_3
    assert "NOT the quoted number" in result.steps[0].description
    assert result.steps[0].expression == sp.Ne(5159780352000000000, STRATEGIES_6_3, evaluate=False)
    assert verify._strategies_by_recursion(6, 3) == STRATEGIES_6_3


def test_one_pass_placement_is_uniform_by_simulation():
    layouts = [(True, False, True, False), (False, False, True, True)]
    assert {verify._one_pass_probability(layout) for layout in layouts} == {Fraction(1, 6)}


# ------------------------------------------------------- the machinery can fail
def test_off_by_one_ratio_does_not_hold():
    wrong = check_identity("off by one", sp.binomial(n, k) / sp.binomial(n, k + 1), (k + 1) / (n - k + 1))
    assert not wrong.holds
    assert wrong.method.startswith("counterexample at ")
    assert wrong.steps[-1].expression.func is sp.Ne


def test_off_by_one_vandermonde_does_not_hold():
    wrong = check_identity(
        "vandermonde + 1",
        sp.Sum(sp.binomial(a, j) * sp.binomial(b, k - j), (j, 0, k)),
        sp.binomial(a + b, k + 1),
    )
    assert not wrong.holds
    assert "counterexample" in wrong.method


def test_off_by_one_prior_does_not_hold():
    N, M = sp.symbols("N M", integer=True, positive=True)
    wrong = check_identity("prior", sp.binomial(N - 2, M - 1) / sp.binomial(N - 1, M), M / N)
    assert not wrong.holds


def test_true_identity_is_a_symbolic_proof():
    right = check_identity("pascal", sp.binomial(n + 1, k), sp.binomial(n, k) + sp.binomial(n, k - 1))
    assert right.holds and right.method == "symbolic proof"


def _fake_analysis(board, *, total_offset=0, probability_offset=Fraction(0)):
    real = solve(board)
    rows = tuple(tuple(p if p is None else p + probability_offset for p in row) for row in real.probabilities)
    return SimpleNamespace(
        board=real.board,
        total=real.total + total_offset,
        mines_left=real.mines_left,
        background_size=real.background_size,
        components=real.components,
        probabilities=rows,
        trust_flags=True,
    )


def test_board_checks_fail_on_a_wrong_engine(monkeypatch):
    board = Board.from_text("4x3x4\nHHHH\nFHHH\n2H2H\n")
    labelled = (("example", board),)
    monkeypatch.setattr(verify, "_solve", lambda b: _fake_analysis(b, total_offset=1))
    assert not verify._component_boards.__wrapped__(labelled).holds
    monkeypatch.setattr(verify, "_solve", lambda b: _fake_analysis(b, probability_offset=Fraction(1, 100)))
    assert not verify._expectation_boards.__wrapped__(labelled).holds


def test_run_checks_selects_and_rejects():
    results = run_checks(["vandermonde", "binomial_ratio"])
    assert [r.name for r in results] == ["vandermonde", "binomial_ratio"]
    with pytest.raises(ValueError, match="unknown check 'nope'"):
        run_checks(["nope"])


# ------------------------------------------------------------ table and command
def _failing_result() -> CheckResult:
    return check_identity("broken", sp.binomial(n, k) / sp.binomial(n, k + 1), (k + 1) / (n - k + 1))


def test_format_table():
    table = format_table([verify.check_vandermonde(), _failing_result()])
    lines = table.splitlines()
    assert lines[0].split() == ["name", "holds", "method", "statement"]
    assert set(lines[1].replace(" ", "")) == {"-"}
    assert lines[2].startswith("vandermonde") and " yes " in lines[2]
    assert "Sum(binomial(a, j)*binomial(b, -j + k), (j, 0, k)) = binomial(a + b, k)" in lines[2]
    assert lines[3].startswith("broken") and " NO " in lines[3]
    assert "\\binom" in format_table([verify.check_vandermonde()], latex=True)


def main(argv: list[str]) -> int:
    return cli_main(["verify", *argv])


def test_main_exit_codes(capsys, monkeypatch):
    assert main(["--check", "vandermonde", "--check", "binomial_ratio"]) == 0
    out = capsys.readouterr().out
    assert "vandermonde" in out and "binomial_ratio" in out and "2 of 2 checks hold" in out

    assert main(["--check", "vandermonde", "--latex"]) == 0
    assert "\\binom{a + b}{k}" in capsys.readouterr().out

    with pytest.raises(SystemExit) as exit_info:
        main(["--check", "nope"])
    assert exit_info.value.code == 2
    capsys.readouterr()

    monkeypatch.setattr(verify, "CHECKS", MappingProxyType({**CHECKS, "broken": _failing_result}))
    assert main(["--check", "vandermonde", "--check", "broken"]) == 1
    assert "failed: broken" in capsys.readouterr().out


def test_board_checks_fail_without_a_solver(monkeypatch):
    def missing(board):
        raise ImportError("no solver yet")

    monkeypatch.setattr(verify, "_solve", missing)
    labelled = (("example", Board.from_text("3x1x1\nH1H\n")),)
    for check in (verify._component_boards, verify._expectation_boards):
        result = check.__wrapped__(labelled)
        assert not result.holds
        assert result.method == "exact check on 0 boards"
        assert "no solver yet" in result.steps[0].description
