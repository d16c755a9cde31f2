"""Mine placement: the one-pass sampler's marginal and its uniformity."""

from __future__ import annotations

import math
from fractions import Fraction

import sympy as sp

from analyzer.verify.binomials import check_vandermonde
from analyzer.verify.proof import (
    _C,
    _K,
    DOCUMENTED_STEPS,
    CheckResult,
    Step,
    _eq,
    _finite_step,
    _i,
    _j,
    _k,
    _n,
    _result,
    _sympy_step,
    rewrite_and_compare,
)


def check_placement_marginal(*, rhs: sp.Basic | None = None) -> CheckResult:
    """One-pass placement puts a mine on each cell with probability ``K/N``.

    The method walks the ``N`` cells once and puts a mine on a cell with
    probability (mines left)/(cells left). After ``n`` cells the number ``k`` of
    mines placed is hypergeometric, so the next cell is a mine with probability

    ``sum_k C(K, k) C(N - K, n - k) / C(N, n) * (K - k)/(N - n) = K/N``
    for ``0 <= n < N``.

    Proof: absorption ``(K - k) C(K, k) = K C(K - 1, k)``, then Vandermonde with
    ``a = K - 1``, ``b = N - K`` (check ``vandermonde``), then algebra; ``K = 0``
    separately. sympy's ``summation`` and ``sympy.stats`` (the hypergeometric
    mean ``nK/N``) reach the same closed form independently.

    Examples
    --------
    >>> check_placement_marginal().holds
    True
    """
    N, K, n, k = sp.Symbol("N", integer=True, positive=True), _K, _n, _k
    hyper = _C(K, k) * _C(N - K, n - k) / _C(N, n)
    lhs = sp.Sum(hyper * (K - k) / (N - n), (k, 0, n))
    rhs = K / N if rhs is None else rhs
    steps = []
    absorption = _sympy_step(
        "absorption (K - k) C(K, k) = K C(K - 1, k) for 0 <= k < K", (K - k) * _C(K, k), K * _C(K - 1, k)
    )
    Kp = sp.Symbol("K", integer=True, positive=True)
    s = sp.Symbol("s", integer=True, nonnegative=True)
    boundary = Step(
        "[sympy evaluation] boundary k >= K (K >= 1): both sides are 0"
        " (C(K - 1, K + s) = 0, C(K, K + 1 + s) = 0)",
        _eq(_C(Kp - 1, Kp + s, evaluate=False), 0),
        (Kp * _C(Kp - 1, Kp + s)) == 0 and _C(Kp, Kp + 1 + s) == 0 and (Kp - Kp) * _C(Kp, Kp) == 0,
    )
    steps += [absorption, boundary]
    vandermonde = check_vandermonde()
    steps.append(
        Step(
            "[uses check 'vandermonde' with a = K - 1, b = N - K, K >= 1] sum_k C(K - 1, k) C(N - K, n - k)"
            " = C(N - 1, n)",
            _eq(sp.Sum(_C(K - 1, k) * _C(N - K, n - k), (k, 0, n)), _C(N - 1, n)),
            vandermonde.holds,
        )
    )
    steps.append(
        _sympy_step(
            "so the sum is K C(N - 1, n) / (C(N, n) (N - n)) = K/N",
            K * _C(N - 1, n) / (_C(N, n) * (N - n)),
            rhs,
        )
    )
    steps.append(
        Step(
            "[sympy summation] K = 0: every term is 0, and so is K/N",
            _eq(lhs.subs(K, 0), 0),
            lhs.subs(K, 0).doit() == 0,
        )
    )
    steps += _marginal_corroborations(lhs, rhs, hyper, N, Kp)
    bound = 30
    steps.append(
        _finite_step(
            f"holds for all 0 <= n < N <= {bound}, 0 <= K <= N", _marginal_holds_up_to(bound), _eq(lhs, rhs)
        )
    )
    return _result(
        "placement_marginal",
        _eq(lhs, rhs),
        DOCUMENTED_STEPS,
        steps,
        "one-pass placement: each cell is a mine with probability K/N",
    )


def _marginal_corroborations(
    lhs: sp.Basic, rhs: sp.Basic, hyper: sp.Basic, N: sp.Symbol, Kp: sp.Symbol
) -> list[Step]:
    """sympy's summation and sympy.stats' hypergeometric mean, for ``K >= 1`` (``Kp``)."""
    K, n, k = _K, _n, _k
    # sympy's summation needs K >= 1 to close (with K >= 0 it returns a Piecewise keeping the Sum).
    direct = sp.summation((hyper * (K - k) / (N - n)).subs(K, Kp), (k, 0, n))
    summed = Step(
        "[sympy summation, corroboration] for K >= 1, sympy's own summation of the whole sum"
        " simplifies (combsimp) to K/N",
        _eq(lhs.subs(K, Kp), rhs.subs(K, Kp)),
        sp.simplify(sp.combsimp(direct - rhs.subs(K, Kp))) == 0,
    )
    from sympy.stats import E, Hypergeometric

    mean = E(Hypergeometric("X", N, Kp, n))
    expected = Step(
        "[sympy.stats, corroboration] for K >= 1, E[X] = nK/N for X ~ Hypergeometric(N, K, n), and the"
        " sum is (K - E[X])/(N - n) = K/N",
        _eq((Kp - sp.Symbol("E[X]")) / (N - n), rhs.subs(K, Kp)),
        sp.simplify(sp.combsimp(mean) - n * Kp / N) == 0
        and sp.simplify((Kp - n * Kp / N) / (N - n) - rhs.subs(K, Kp)) == 0,
    )
    return [summed, expected]


def _marginal_holds_up_to(bound: int) -> bool:
    """The marginal's identity in integers, for every ``0 <= n < N <= bound``, ``0 <= K <= N``."""
    return all(
        sum(math.comb(Kv, kv) * math.comb(Nv - Kv, nv - kv) * (Kv - kv) for kv in range(nv + 1)) * Nv
        == Kv * math.comb(Nv, nv) * (Nv - nv)
        for Nv in range(1, bound + 1)
        for Kv in range(Nv + 1)
        for nv in range(Nv)
    )


def _step_numerator(rule: object, mines_left: sp.Basic, cells_left: sp.Basic, *, mine: bool) -> sp.Basic:
    draws = sp.sympify(rule(mines_left, cells_left))  # type: ignore[operator]
    return sp.simplify(draws if mine else cells_left - draws)


def check_placement_uniform(*, rhs: sp.Basic | None = None) -> CheckResult:
    """The sequential sampler gives every layout of ``K`` mines on ``N`` cells probability ``1/C(N, K)``.

    The step rule is the sampler's own, :func:`analyzer.play.placement.mine_draws`,
    called here with sympy symbols: at a cell with ``r`` mines and ``c`` cells left
    it takes a mine with probability ``mine_draws(r, c)/c``. Walk a layout with
    ``Z = N - K`` safe cells. The ``j``-th mine cell, after ``t`` safe cells, has
    ``r = K - j``, ``c = N - j - t``; the ``s``-th safe cell, after ``u`` mine
    cells, has ``r = K - u``, ``c = N - s - u`` and probability
    ``(c - mine_draws(r, c))/c``. sympy simplifies each numerator and checks that
    it does not depend on ``t`` (resp. ``u``), i.e. on where the layout's cells
    lie; the layout's probability is then the product of the numerators over the
    product ``prod_{i=0}^{N-1} (N - i)`` of the cells-left counts, which sympy
    evaluates and compares with ``1/C(N, K)``. The finite check runs
    :func:`analyzer.play.placement.sequential_layout_distribution` (the sampler's
    decision tree, same rule) on every board of at most 9 cells.

    Parameters
    ----------
    rhs : sympy expression, optional
        Another right side to put through the same proof (the mutation tests use this).

    Examples
    --------
    >>> result = check_placement_uniform()
    >>> result.holds, result.method
    (True, 'proof by documented steps')
    >>> Z = sp.Symbol("Z", integer=True, nonnegative=True)
    >>> check_placement_uniform(rhs=2 / sp.binomial(_K + Z, _K)).holds
    False
    """
    from analyzer.play.placement import mine_draws as rule

    K, i, j = _K, _i, _j
    Z, s, t, u = sp.symbols("Z s t u", integer=True, nonnegative=True)
    N = K + Z
    rhs = 1 / _C(N, K) if rhs is None else rhs
    steps = []
    mine = _step_numerator(rule, K - j, N - j - t, mine=True)
    safe = _step_numerator(rule, K - u, N - s - u, mine=False)
    steps.append(
        Step(
            f"[sympy simplify] the j-th mine cell after t safe cells: mine_draws(K - j, N - j - t) = {mine},"
            " free of t",
            _eq(sp.Function("mine_draws")(K - j, N - j - t), mine),
            t not in mine.free_symbols,
        )
    )
    steps.append(
        Step(
            f"[sympy simplify] the s-th safe cell after u mine cells: c - mine_draws(K - u, c) = {safe}"
            " with c = N - s - u, free of u",
            _eq(N - s - u - sp.Function("mine_draws")(K - u, N - s - u), safe),
            u not in safe.free_symbols,
        )
    )
    lhs = sp.Product(mine, (j, 0, K - 1)) * sp.Product(safe, (s, 0, Z - 1)) / sp.Product(N - i, (i, 0, N - 1))
    rewrite_and_compare(steps, lhs, [("sympy evaluates the products (doit)", lambda e: e.doit())], rhs)
    bound = 9
    ok = _uniform_up_to(bound)
    steps.append(
        _finite_step(
            f"analyzer.play.placement.sequential_layout_distribution: on every board of N <= {bound} cells,"
            " every layout of every K has probability 1/C(N, K)",
            ok,
            _eq(lhs, rhs),
        )
    )
    return _result(
        "placement_uniform",
        _eq(lhs, rhs),
        DOCUMENTED_STEPS,
        steps,
        "the sequential sampler: every layout has probability 1/C(N, K)",
    )


def _uniform_up_to(bound: int) -> bool:
    """Whether the sampler's decision tree gives each layout ``1/C(N, K)`` on each board of ``N <= bound``."""
    from analyzer.errors import GameError
    from analyzer.play import placement as sampler

    try:
        return all(
            len(dist) == math.comb(width * height, mines)
            and set(dist.values()) == {Fraction(1, math.comb(width * height, mines))}
            for width in range(1, bound + 1)
            for height in range(1, bound // width + 1)
            for mines in range(width * height + 1)
            for dist in [sampler.sequential_layout_distribution(width, height, mines)]
        )
    except GameError:
        return False
