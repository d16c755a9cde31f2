"""Tests of :mod:`analyzer.verify`: every check holds, and the machinery can fail."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from types import MappingProxyType

import pytest
import sympy as sp

from analyzer import solve, verify
from analyzer.board.board import Board
from analyzer.cli import main as cli_main
from analyzer.play import placement
from analyzer.verify import (
    CHECKS,
    STRATEGIES_6_3,
    CheckResult,
    Step,
    binomials,
    boards,
    check_identity,
    format_table,
    run_checks,
)
from analyzer.verify.mutations import MUTATIONS, RULE_MUTATIONS, with_rule

pytestmark = pytest.mark.xdist_group("verify")  # the checks run once (``results``), not once a worker

n, k, a, b, j = sp.symbols("n k a b j", integer=True, nonnegative=True)
PROOFS = {"symbolic proof", "proof by documented steps"}
METHODS = {
    "placement_marginal": "proof by documented steps",
    "placement_uniform": "proof by documented steps",
    "safe_first_move_prior": "symbolic proof",
    "binomial_ratio": "symbolic proof",
    "strategy_count": "finite check (holds for N = 6, M = 3)",
    "expectation_linearity": "proof by documented steps",
    "expectation_linearity_boards": "exact check on 43 boards",
    "component_product": "proof by documented steps",
    "component_product_boards": "exact check on 43 boards",
    "vandermonde": "proof by documented steps",
}
"""Each check's label, pinned: a proof may not quietly become an argument, nor the reverse."""


@pytest.fixture(scope="module")
def results():
    """Every check run once for this module (the package itself caches nothing)."""
    return {r.name: r for r in run_checks()}


# ------------------------------------------------------------- every check holds
@pytest.mark.parametrize("name", list(CHECKS))
def test_check_holds(name, results):
    result = results[name]
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


def test_methods_are_pinned(results):
    assert {name: r.method for name, r in results.items()} == METHODS


def test_proofs_end_with_sympy_comparing_the_two_sides(results):
    """No proof rests on a step asserted true: the last proof step is sympy on the statement's sides."""
    for name, result in results.items():
        if result.method in PROOFS:
            closing = [
                s
                for s in result.steps
                if s.description.startswith("[sympy ")
                and "corroboration" not in s.description
                and s.expression.rhs == result.statement.rhs
            ]
            assert closing and all(s.verified for s in closing), name
        for step in result.steps:
            assert not step.description.startswith(("[definition] taking", "[invariant]")), (name, step)


_FAST = {"placement_uniform", "safe_first_move_prior", "strategy_count", "vandermonde"}
_CASES = [
    pytest.param(
        name,
        text,
        run,
        id=f"{name}: {text}",
        marks=() if name in _FAST and "//" not in text else pytest.mark.slow,
    )
    for name, mutations in MUTATIONS.items()
    for text, run in mutations
]


def test_every_check_has_mutations():
    assert set(MUTATIONS) == set(CHECKS)
    assert all(len(mutations) >= 1 for mutations in MUTATIONS.values())
    assert sum(len(m) for m in MUTATIONS.values()) >= 20


@pytest.mark.parametrize(("name", "text", "run"), _CASES)
def test_mutation_fails(name, text, run):
    result = run()
    assert result.name == name
    assert not result.holds, f"{name} still holds with {text}"


def test_rule_mutation_is_undone_and_drives_the_sampler():
    original = placement.mine_draws
    seen = []

    def spy(mines, cells):
        seen.append((mines, cells))
        return original(mines, cells)

    with_rule(spy, lambda: placement.place_mines_sequential(3, 3, 2, seed=1))
    assert placement.mine_draws is original
    assert seen and all(isinstance(m, int) for m, _ in seen)
    assert RULE_MUTATIONS


def test_results_are_not_cached_stale(monkeypatch):
    """A change to the code under check shows in the next run (as in a notebook)."""
    assert verify.check_vandermonde().holds
    assert not with_rule(lambda mines, cells: mines + 1, verify.check_placement_uniform).holds


def test_methods_say_what_was_done(results):
    methods = {r.name: r.method for r in results.values()}
    for name in ("expectation_linearity_boards", "component_product_boards"):
        assert methods[name].startswith("exact check on ") and methods[name].endswith(" boards")
    assert methods["strategy_count"] == "finite check (holds for N = 6, M = 3)"
    proofs = set(CHECKS) - {"expectation_linearity_boards", "component_product_boards", "strategy_count"}
    assert {methods[name] for name in proofs} <= PROOFS


def test_finite_cross_checks_are_labelled_as_such(results):
    for result in results.values():
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


def test_board_checks_use_examples_and_random_boards(results):
    labelled = boards._default_boards()
    labels = [label for label, _ in labelled]
    assert "cs70_4x3_4.mine" in labels
    assert sum(label.startswith("random board") for label in labels) == boards._RANDOM_BOARDS
    result = results["component_product_boards"]
    assert result.method == f"exact check on {len(labelled)} boards"
    assert len(result.steps) == len(labelled)


def test_random_boards_are_reproducible_and_solvable():
    assert boards._random_board(3) == boards._random_board(3)
    assert len({boards._random_board(seed) for seed in range(10)}) > 1
    for _, board in boards._default_boards():
        assert isinstance(board, Board)
        assert boards._solve(board).total >= 1


def test_board_checks_accept_boards_and_text():
    text = "4x3x4\nHHHH\nFHHH\n2H2H\n"
    result = verify.check_expectation_linearity_boards([text, Board.from_text("3x1x1\nH1H\n")])
    assert result.holds
    assert result.method == "exact check on 2 boards"


# ----------------------------------------------------------- the strategy count
def test_strategy_count_reports_the_discrepancy():
    result = verify.check_strategy_count()
    assert STRATEGIES_6_3 == 6 * 5**9 * 4**81
    assert (6 * 5 * 4) ** 9 == 5159780352000000000 != STRATEGIES_6_3
    assert "NOT the quoted number" in result.steps[0].description
    assert result.steps[0].expression == sp.Ne(5159780352000000000, STRATEGIES_6_3, evaluate=False)
    assert binomials._strategies_by_recursion(6, 3) == STRATEGIES_6_3


def test_placement_uniform_runs_the_samplers_rule():
    result = verify.check_placement_uniform()
    assert "mine_draws(K - j, K + Z - j - t)" in str(result.steps[0].expression)
    assert "sequential_layout_distribution" in result.steps[-1].description


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
    cells = tuple(p if p is None else p + probability_offset for p in real.cell_probabilities)
    return real.replace(total=real.total + total_offset, cell_probabilities=cells)


def test_board_checks_fail_on_a_wrong_engine():
    board = Board.from_text("4x3x4\nHHHH\nFHHH\n2H2H\n")
    wrong_total = verify.check_component_product_boards(
        [board], solver=lambda b: _fake_analysis(b, total_offset=1)
    )
    assert not wrong_total.holds
    wrong_p = verify.check_expectation_linearity_boards(
        [board], solver=lambda b: _fake_analysis(b, probability_offset=Fraction(1, 100))
    )
    assert not wrong_p.holds


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


def test_board_checks_fail_without_a_solver():
    def missing(board):
        raise ImportError("no solver yet")

    board = Board.from_text("3x1x1\nH1H\n")
    for check in (verify.check_component_product_boards, verify.check_expectation_linearity_boards):
        result = check([board], solver=missing)
        assert not result.holds
        assert result.method == "exact check on 0 boards"
        assert "no solver yet" in result.steps[0].description


def test_the_proofs_hold_with_python_flint_installed() -> None:
    """sympy picks python-flint's ground types when it is installed; its Gosper summation then failed."""
    import os
    import subprocess
    import sys

    pytest.importorskip("flint", reason="needs python-flint installed (pip install python-flint)")
    env = {k: v for k, v in os.environ.items() if k != "SYMPY_GROUND_TYPES"}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "analyzer",
            "verify",
            "--check",
            "placement_marginal",
            "--check",
            "placement_uniform",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
