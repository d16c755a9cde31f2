"""Symbolic verification (sympy) of the formulas the engine and the placement rely on.

Each check is a function that returns a frozen :class:`CheckResult`: the
statement as a sympy expression, whether it holds, *how* that was shown, and the
steps, each a :class:`Step` ``(description, expression, verified)``. A step's
description starts with how it was checked: ``[sympy combsimp]`` and the like
(sympy, in symbols), ``[exact]`` (integer arithmetic), ``[finite cross-check,
not part of the proof]``, or ``[definition]`` / ``[invariant]`` for a
definition or a standard fact that is taken as given (marked verified; what
sympy can check of it, such as instances or boundary values, is checked).
A check holds when every one of its steps is verified.

Methods
-------
``"symbolic proof"``
    sympy closes the general statement, in symbols, by simplification or by its
    own summation (named in the steps).
``"proof by documented steps"``
    The argument is written out; every algebraic step is checked by sympy in
    symbols, and the steps that are definitions or standard facts (the product
    of polynomials, exchanging two finite sums, an invariant of a loop) say so.
``"finite check (holds for ...)"``
    Exact arithmetic over the values named, and nothing more.
``"exact check on K boards"``
    :func:`analyzer.solve` on ``K`` boards (the bundled examples and seeded
    random boards), compared exactly.

sympy simplifies binomials as ratios of gamma functions, which is valid where no
gamma function has a pole; the checks state the boundary cases that this
leaves out and settle them separately (by substitution, or by a finite
cross-check that is labelled as such).

Examples
--------
>>> result = check_safe_first_move_prior()
>>> result.holds, result.method
(True, 'symbolic proof')
>>> print(format_table([result]))
name                   holds  method          statement
---------------------  -----  --------------  -----------------------------------------------------
safe_first_move_prior  yes    symbolic proof  binomial(N - 2, M - 1)/binomial(N - 1, M) = M/(N - 1)
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType

# With python-flint installed, sympy's default ground types are flint's, and its Gosper
# summation then fails on the placement proofs ("fmpq_poly divmod by 0"). Its pure-Python
# ground types give the same exact answers; they are chosen here only when sympy is not
# loaded yet and the user has not chosen (SYMPY_GROUND_TYPES).
if "sympy" not in sys.modules:
    os.environ.setdefault("SYMPY_GROUND_TYPES", "python")

import sympy as sp  # noqa: E402

from analyzer.verify.binomials import (  # noqa: E402
    STRATEGIES_6_3,
    check_binomial_ratio,
    check_safe_first_move_prior,
    check_strategy_count,
    check_vandermonde,
)
from analyzer.verify.boards import check_component_product_boards, check_expectation_linearity_boards
from analyzer.verify.engine import check_component_product, check_expectation_linearity
from analyzer.verify.placement import check_placement_marginal, check_placement_uniform
from analyzer.verify.proof import DOCUMENTED_STEPS, SYMBOLIC_PROOF, CheckResult, Step, check_identity

__all__ = [
    "CHECKS",
    "DOCUMENTED_STEPS",
    "SYMBOLIC_PROOF",
    "STRATEGIES_6_3",
    "CheckResult",
    "Step",
    "check_binomial_ratio",
    "check_component_product",
    "check_component_product_boards",
    "check_expectation_linearity",
    "check_expectation_linearity_boards",
    "check_identity",
    "check_placement_marginal",
    "check_placement_uniform",
    "check_safe_first_move_prior",
    "check_strategy_count",
    "check_vandermonde",
    "format_table",
    "run_checks",
]

CHECKS: Mapping[str, Callable[[], CheckResult]] = MappingProxyType(
    {
        "placement_marginal": check_placement_marginal,
        "placement_uniform": check_placement_uniform,
        "safe_first_move_prior": check_safe_first_move_prior,
        "binomial_ratio": check_binomial_ratio,
        "strategy_count": check_strategy_count,
        "expectation_linearity": check_expectation_linearity,
        "expectation_linearity_boards": check_expectation_linearity_boards,
        "component_product": check_component_product,
        "component_product_boards": check_component_product_boards,
        "vandermonde": check_vandermonde,
    }
)
"""Every check by name, in the order they run (a read-only mapping)."""


def run_checks(names: Iterable[str] | None = None) -> tuple[CheckResult, ...]:
    """Run checks by name (all of :data:`CHECKS` by default), in the order given.

    Raises
    ------
    ValueError
        For a name not in :data:`CHECKS`.

    Examples
    --------
    >>> [r.holds for r in run_checks(["binomial_ratio", "vandermonde"])]
    [True, True]
    >>> run_checks(["nope"])
    Traceback (most recent call last):
    ...
    ValueError: unknown check 'nope'; known checks: placement_marginal, placement_uniform, ...
    """
    names = list(CHECKS) if names is None else list(names)
    for name in names:
        if name not in CHECKS:
            known = ", ".join(CHECKS)
            raise ValueError(f"unknown check {name!r}; known checks: {known}")
    return tuple(CHECKS[name]() for name in names)


def _statement_text(statement: sp.Basic, *, latex: bool) -> str:
    if latex:
        return sp.latex(statement)
    if isinstance(statement, sp.Eq):
        return f"{sp.sstr(statement.lhs)} = {sp.sstr(statement.rhs)}"
    return sp.sstr(statement)


def format_table(results: Iterable[CheckResult], *, latex: bool = False) -> str:
    """A plain-text table of results: name, holds, method, statement.

    Parameters
    ----------
    results : iterable of CheckResult
    latex : bool
        Give the statements in LaTeX instead of sympy's plain text.

    Examples
    --------
    >>> print(format_table([check_safe_first_move_prior()]))
    name                   holds  method          statement
    ---------------------  -----  --------------  -----------------------------------------------------
    safe_first_move_prior  yes    symbolic proof  binomial(N - 2, M - 1)/binomial(N - 1, M) = M/(N - 1)
    >>> format_table([check_vandermonde()], latex=True).endswith(r"= {\\binom{a + b}{k}}")
    True
    """
    header = ("name", "holds", "method", "statement")
    rows = [
        (r.name, "yes" if r.holds else "NO", r.method, _statement_text(r.statement, latex=latex))
        for r in results
    ]
    widths = [max(len(row[col]) for row in [header, *rows]) for col in range(len(header))]
    lines = [header, tuple("-" * w for w in widths), *rows]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)).rstrip()
        for line in lines
    )
