"""The counting engine's identities: linearity of expectation and the component product."""

from __future__ import annotations

import sympy as sp

from analyzer.verify.binomials import _extract
from analyzer.verify.proof import (
    _B,
    _C,
    _L,
    _M,
    DOCUMENTED_STEPS,
    CheckResult,
    RewriteError,
    Step,
    _c,
    _cauchy_product_step,
    _Coeff,
    _d,
    _eq,
    _m,
    _mu,
    _result,
    _sympy_step,
    _x,
    coefficient_rule_steps,
    rewrite_and_compare,
)


def check_expectation_linearity(*, rhs: sp.Basic | None = None) -> CheckResult:
    """Linearity of expectation: the unknown cells' probabilities sum to the mines left.

    Frontier configurations ``c = 1..R`` (``w_c`` layouts each, ``m_c`` mines on
    the frontier) share ``M`` mines with ``Y >= 1`` background cells. By
    definition (substituted, not assumed), a probability is a share of layouts:
    configuration ``c`` has ``C(Y, M - m_c)`` background layouts, ``C(Y - 1, M - m_c - 1)``
    of them with a mine on a given background cell. The expected number of mines
    is ``Y`` times a background cell's probability plus the frontier's expected
    mines. Absorption, ``C(Y - 1, M - mu - 1) = (M - mu)/Y C(Y, M - mu)`` (checked
    by sympy), is substituted; sympy then compares the result with ``M``.

    Parameters
    ----------
    rhs : sympy expression, optional
        Another right side to put through the same proof (the mutation tests use this).

    Examples
    --------
    >>> check_expectation_linearity().method
    'proof by documented steps'
    """
    M, Y, c, mu = _M, sp.Symbol("Y", integer=True, positive=True), _c, _mu
    R = sp.Symbol("R", integer=True, positive=True)
    w, m = sp.IndexedBase("w"), sp.IndexedBase("m")
    weight = w[c] * _C(Y, M - m[c])
    total = sp.Sum(weight, (c, 1, R))
    mine_layouts = w[c] * _C(Y - 1, M - m[c] - 1)
    background = Y * sp.Sum(mine_layouts, (c, 1, R)) / total
    frontier = sp.Sum(weight * m[c], (c, 1, R)) / total
    rhs = M if rhs is None else rhs
    absorption = _sympy_step(
        "absorption: C(Y - 1, M - mu - 1) = (M - mu)/Y C(Y, M - mu) for mu < M",
        _C(Y - 1, M - mu - 1),
        (M - mu) / Y * _C(Y, M - mu),
    )
    steps = [
        absorption,
        Step(
            "[sympy evaluation] boundary mu = M: C(Y - 1, -1) = 0 = (M - M)/Y C(Y, 0)",
            _eq(_C(Y - 1, -1), 0),
            _C(Y - 1, -1) == 0,
        ),
    ]
    rewrite_and_compare(
        steps,
        background + frontier,
        [
            (
                "substitute absorption at mu = m_c",
                lambda e: e.subs(_C(Y - 1, M - m[c] - 1), (M - m[c]) / Y * _C(Y, M - m[c])),
            ),
        ],
        rhs,
    )
    return _result(
        "expectation_linearity",
        _eq(background + frontier, rhs),
        DOCUMENTED_STEPS,
        steps,
        "background and frontier expected mines add up to the mines left",
    )


def _distribute(expr: sp.Basic) -> sp.Basic:
    """Inside the coefficient: ``(sum_m t_m) * f`` -> ``sum_m t_m f`` (f free of m)."""
    product, monomial = expr.args
    sums = [t for t in sp.Mul.make_args(product) if isinstance(t, sp.Sum)]
    if len(sums) != 1:
        raise RewriteError(f"not one sum times factors: {product}")
    others = sp.Mul(*(t for t in sp.Mul.make_args(product) if t is not sums[0]))
    return expr.func(sp.Sum(sums[0].function * others, *sums[0].limits), monomial)


def check_component_product(*, rhs: sp.Basic | None = None) -> CheckResult:
    """The component DP is a product of polynomials.

    The layouts of a board by mine count have the generating function
    ``prod_i P_i(x) * (1 + x)^B``: components ``P_i`` (``layouts_by_mines``),
    ``B`` background cells. With ``p`` the convolution of the components'
    coefficients (by definition ``prod_i P_i(x) = sum_m p_m x^m``; the Cauchy
    product is checked by sympy up to degree 4), the coefficient of ``x^L`` is
    the DP sum ``sum_m p_m C(B, L - m)``, for symbolic ``B`` and ``L``. The left
    side is rewritten by sympy (distribute the sum, take coefficients term by
    term by the shifted binomial theorem) and compared with the right side.

    Parameters
    ----------
    rhs : sympy expression, optional
        Another right side to put through the same proof (the mutation tests use this).

    Examples
    --------
    >>> check_component_product().holds
    True
    """
    B, L, m, d = _B, _L, _m, _d
    x = _x
    p = sp.IndexedBase("p")
    P = sp.Sum(p[m] * x**m, (m, 0, d))
    rhs = sp.Sum(p[m] * _C(B, L - m), (m, 0, d)) if rhs is None else rhs
    lhs = _Coeff(P * (1 + x) ** B, x**L)
    steps = [_cauchy_product_step(), *coefficient_rule_steps()]
    rewrite_and_compare(
        steps,
        lhs,
        [
            ("distribute: P(x) (1 + x)^B = sum_m p_m x^m (1 + x)^B", _distribute),
            ("coefficients term by term: [x^L] x^m (1 + x)^B = C(B, L - m)", _extract),
        ],
        rhs,
    )
    return _result(
        "component_product",
        _eq(lhs, rhs),
        DOCUMENTED_STEPS,
        steps,
        "layouts by mine count: coefficient of x^L in prod P_i(x) (1 + x)^B is the DP sum",
    )
