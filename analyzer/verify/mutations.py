"""Mutations: for every check, wrong statements (or a wrong step rule) that must make it fail.

A check that still holds on a mutation proves nothing about its statement:
``tests/test_verify.py`` runs every entry of :data:`MUTATIONS` and fails if one holds.
Each mutation is a ``(description, run)`` pair; ``run()`` returns the check's result on
the perturbed statement. Step-rule mutations (:data:`RULE_MUTATIONS`) replace
:func:`analyzer.play.placement.mine_draws`, the sampler's own rule, for the duration of a run.

>>> sorted(MUTATIONS) == sorted(__import__("analyzer.verify", fromlist=["CHECKS"]).CHECKS)
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import sympy as sp

from analyzer.verify.binomials import (
    STRATEGIES_6_3,
    check_binomial_ratio,
    check_safe_first_move_prior,
    check_strategy_count,
    check_vandermonde,
)
from analyzer.verify.boards import check_component_product_boards, check_expectation_linearity_boards
from analyzer.verify.engine import check_component_product, check_expectation_linearity
from analyzer.verify.placement import check_placement_marginal, check_placement_uniform
from analyzer.verify.proof import _B, _C, _K, _L, _M, _N, CheckResult, _a, _b, _d, _i, _j, _k, _m, _n

if TYPE_CHECKING:
    from analyzer.board.board import Board
    from analyzer.solver.analysis import Analysis

__all__ = ["MUTATIONS", "RULE_MUTATIONS", "with_rule"]

Mutation = tuple[str, Callable[[], CheckResult]]

_Z = sp.Symbol("Z", integer=True, nonnegative=True)
_p = sp.IndexedBase("p")


def with_rule(rule: Callable[[Any, Any], Any], check: Callable[[], CheckResult]) -> CheckResult:
    """Run ``check`` with the placement sampler's step rule replaced by ``rule`` (restored after)."""
    from analyzer.play import placement

    original = placement.mine_draws
    placement.mine_draws = rule  # type: ignore[assignment]
    try:
        return check()
    finally:
        placement.mine_draws = original


RULE_MUTATIONS: Mapping[str, Callable[[Any, Any], Any]] = MappingProxyType(
    {
        "one draw too many: mines_left + 1": lambda mines, cells: mines + 1,
        "the complement: cells_left - mines_left": lambda mines, cells: cells - mines,
        "half the mines: mines_left // 2": lambda mines, cells: mines // 2,
    }
)
"""Wrong step rules for the sequential sampler."""


def _wrong_total(board: Board) -> Analysis:
    from analyzer.solver.solve import solve

    analysis = solve(board)
    return analysis.replace(total=analysis.total + 1)


def _wrong_probability(board: Board) -> Analysis:
    from analyzer.solver.solve import solve

    analysis = solve(board)
    cells = tuple(
        None if value is None else value * Fraction(1001, 1000) for value in analysis.cell_probabilities
    )
    return analysis.replace(cell_probabilities=cells)


MUTATIONS: Mapping[str, tuple[Mutation, ...]] = MappingProxyType(
    {
        "placement_marginal": (
            ("K/(N + 1)", lambda: check_placement_marginal(rhs=_K / (_N + 1))),
            ("(K + 1)/N", lambda: check_placement_marginal(rhs=(_K + 1) / _N)),
        ),
        "placement_uniform": (
            ("2/C(N, K)", lambda: check_placement_uniform(rhs=2 / _C(_K + _Z, _K))),
            ("1/C(N, K + 1)", lambda: check_placement_uniform(rhs=1 / _C(_K + _Z, _K + 1))),
            *(
                (f"step rule {text}", lambda rule=rule: with_rule(rule, check_placement_uniform))
                for text, rule in RULE_MUTATIONS.items()
            ),
        ),
        "safe_first_move_prior": (
            ("(M + 1)/(N - 1)", lambda: check_safe_first_move_prior(rhs=(_M + 1) / (_N - 1))),
            ("M/N", lambda: check_safe_first_move_prior(rhs=_M / _N)),
        ),
        "binomial_ratio": (
            (
                "prod (k + i)/(n - k - i + 2)",
                lambda: check_binomial_ratio(rhs=sp.Product((_k + _i) / (_n - _k - _i + 2), (_i, 1, _m))),
            ),
            (
                "prod (k + i + 1)/(n - k - i + 1)",
                lambda: check_binomial_ratio(rhs=sp.Product((_k + _i + 1) / (_n - _k - _i + 1), (_i, 1, _m))),
            ),
        ),
        "strategy_count": (
            ("the quoted number + 1", lambda: check_strategy_count(quoted=STRATEGIES_6_3 + 1)),
            ("(6*5*4)^9", lambda: check_strategy_count(quoted=(6 * 5 * 4) ** 9)),
        ),
        "expectation_linearity": (
            ("M + 1", lambda: check_expectation_linearity(rhs=_M + 1)),
            ("M - 1", lambda: check_expectation_linearity(rhs=_M - 1)),
        ),
        "expectation_linearity_boards": (
            (
                "every probability 0.1% too large",
                lambda: check_expectation_linearity_boards(solver=_wrong_probability),
            ),
        ),
        "component_product": (
            (
                "sum_m p_m C(B, L - m + 1)",
                lambda: check_component_product(rhs=sp.Sum(_p[_m] * _C(_B, _L - _m + 1), (_m, 0, _d))),
            ),
            (
                "sum_m p_m C(B + 1, L - m)",
                lambda: check_component_product(rhs=sp.Sum(_p[_m] * _C(_B + 1, _L - _m), (_m, 0, _d))),
            ),
        ),
        "component_product_boards": (
            ("total + 1", lambda: check_component_product_boards(solver=_wrong_total)),
        ),
        "vandermonde": (
            ("C(a + b, k + 1)", lambda: check_vandermonde(rhs=_C(_a + _b, _k + 1))),
            (
                "sum_j C(a, j) C(b, k - j + 1)",
                lambda: check_vandermonde(lhs=sp.Sum(_C(_a, _j) * _C(_b, _k - _j + 1), (_j, 0, _k))),
            ),
            ("C(a + b + 1, k)", lambda: check_vandermonde(rhs=_C(_a + _b + 1, _k))),
        ),
    }
)
"""Every check by name: the mutations that must make it fail."""
