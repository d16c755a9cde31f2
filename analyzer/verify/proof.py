"""The proof machinery of :mod:`analyzer.verify`: steps, results, sympy helpers, symbols."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import sympy as sp

SYMBOLIC_PROOF = "symbolic proof"
DOCUMENTED_STEPS = "proof by documented steps"


class Step(NamedTuple):
    """One step of a check: what it says, the sympy expression, whether it was checked."""

    description: str
    expression: sp.Basic
    verified: bool


@dataclass(frozen=True, slots=True)
class CheckResult:
    """The outcome of one check.

    Attributes
    ----------
    name : str
        The name in :data:`CHECKS`.
    statement : sympy expression
        What is claimed, usually an unevaluated ``Eq(lhs, rhs)``.
    holds : bool
        Whether it was shown (every step verified). ``False`` means "not shown":
        the steps say whether a counterexample was found.
    method : str
        How it was shown (see the module docstring).
    steps : tuple of Step
        The steps, in order.
    summary : str
        One line in words.
    """

    name: str
    statement: sp.Basic
    holds: bool
    method: str
    steps: tuple[Step, ...]
    summary: str = ""

    @property
    def latex(self) -> str:
        """The statement in LaTeX.

        >>> from analyzer.verify import check_vandermonde
        >>> print(check_vandermonde().latex)
        \\sum_{j=0}^{k} {\\binom{a}{j}} {\\binom{b}{- j + k}} = {\\binom{a + b}{k}}
        """
        return sp.latex(self.statement)


# ---------------------------------------------------------------------- helpers
_Coeff = sp.Function("Coeff")
"""``Coeff(f, x**k)``: the coefficient of ``x**k`` in ``f`` (kept unevaluated, for statements)."""


def _eq(lhs: sp.Basic, rhs: sp.Basic) -> sp.Basic:
    return sp.Eq(sp.sympify(lhs), sp.sympify(rhs), evaluate=False)


def _is_closed(expr: sp.Basic, target: sp.Basic) -> bool:
    return sp.sympify(expr) == sp.sympify(target)


def _equal_by_sympy(lhs: sp.Basic, rhs: sp.Basic) -> str | None:
    """The name of the first sympy simplification showing ``lhs == rhs``, or ``None``."""
    lhs, rhs = sp.sympify(lhs).doit(), sp.sympify(rhs).doit()
    diff = lhs - rhs
    if diff == 0:
        return "evaluation"
    attempts: list[tuple[str, Callable[[], sp.Basic], sp.Basic]] = [
        ("combsimp", lambda: sp.combsimp(diff), sp.S.Zero),
    ]
    if rhs != 0:
        attempts.append(("combsimp", lambda: sp.combsimp(lhs / rhs), sp.S.One))
        attempts.append(("gammasimp", lambda: sp.gammasimp((lhs / rhs).rewrite(sp.gamma)), sp.S.One))
    attempts.append(
        ("simplify(rewrite(factorial))", lambda: sp.simplify(diff.rewrite(sp.factorial)), sp.S.Zero)
    )
    attempts.append(("simplify", lambda: sp.simplify(diff), sp.S.Zero))
    for tactic, attempt, target in attempts:
        try:
            closed = attempt() == target
        except (ArithmeticError, StopIteration, TypeError, ValueError, RecursionError):
            continue  # a tactic that breaks down shows nothing
        if closed:
            return tactic
    return None


def _sympy_step(text: str, lhs: sp.Basic, rhs: sp.Basic) -> Step:
    """A step ``lhs = rhs`` that sympy checks by simplification; the tactic is named."""
    tactic = _equal_by_sympy(lhs, rhs)
    label = f"[sympy {tactic}]" if tactic else "[sympy: not shown]"
    return Step(f"{label} {text}", _eq(lhs, rhs), tactic is not None)


def _counterexample(lhs: sp.Basic, rhs: sp.Basic, *, limit: int = 300) -> dict[sp.Symbol, int] | None:
    """Small non-negative integers at which ``lhs`` and ``rhs`` are finite and differ."""
    symbols = sorted((lhs - rhs).free_symbols, key=str)
    grid = sorted(itertools.product(range(7), repeat=len(symbols)), key=lambda v: (max(v, default=0), v))
    for values in grid[:limit]:
        point = dict(zip(symbols, values, strict=True))
        left, right = sp.sympify(lhs).subs(point).doit(), sp.sympify(rhs).subs(point).doit()
        if left.is_finite and right.is_finite and sp.nsimplify(left - right) != 0:
            return point
    return None


def check_identity(name: str, lhs: sp.Basic, rhs: sp.Basic, *, summary: str = "") -> CheckResult:
    """Check ``lhs == rhs`` by sympy simplification; look for a counterexample if that fails.

    The machinery behind the symbolic checks, public so that a statement of
    one's own (or a deliberately wrong one) can be put through it.

    Parameters
    ----------
    name : str
        A name for the result.
    lhs, rhs : sympy expressions
        The two sides.
    summary : str
        One line in words.

    Returns
    -------
    CheckResult
        ``method`` is ``"symbolic proof"`` when sympy shows the identity;
        otherwise ``holds`` is false and ``method`` names the counterexample
        found among small non-negative integers (or says none was found).

    Examples
    --------
    >>> n, k = sp.symbols("n k", integer=True, nonnegative=True)
    >>> check_identity("ratio", sp.binomial(n, k) / sp.binomial(n, k + 1), (k + 1) / (n - k)).holds
    True
    >>> wrong = check_identity("off by one", sp.binomial(n, k) / sp.binomial(n, k + 1), (k + 1) / (n - k + 1))
    >>> wrong.holds, wrong.method
    (False, 'counterexample at k = 0, n = 1')
    """
    step = _sympy_step("the two sides simplify to the same expression", lhs, rhs)
    if step.verified:
        return CheckResult(name, _eq(lhs, rhs), True, SYMBOLIC_PROOF, (step,), summary)
    point = _counterexample(lhs, rhs)
    if point is None:
        method = "no proof found"
        steps: tuple[Step, ...] = (step,)
    else:
        where = ", ".join(f"{s} = {v}" for s, v in point.items())
        method = f"counterexample at {where}"
        left, right = sp.sympify(lhs).subs(point).doit(), sp.sympify(rhs).subs(point).doit()
        steps = (
            step,
            Step(f"[counterexample] at {where} the sides differ", sp.Ne(left, right, evaluate=False), True),
        )
    return CheckResult(name, _eq(lhs, rhs), False, method, steps, summary)


def _result(name: str, statement: sp.Basic, method: str, steps: Sequence[Step], summary: str) -> CheckResult:
    steps = tuple(steps)
    return CheckResult(name, statement, all(s.verified for s in steps), method, steps, summary)


def _finite_step(text: str, ok: bool, expression: sp.Basic) -> Step:
    return Step(f"[finite cross-check, not part of the proof] {text}", expression, ok)


def _binomial_theorem_branch(result: sp.Basic) -> sp.Basic:
    """sympy states the binomial sum as a ``Piecewise`` valid for ``|x| <= 1``: its first branch."""
    return result.args[0][0] if isinstance(result, sp.Piecewise) else result


# Symbols: integers, non-negative unless said otherwise.
_N, _K, _M, _Y, _B, _L = sp.symbols("N K M Y B L", integer=True, nonnegative=True)
_n, _k, _m, _i, _j, _r, _c, _d = sp.symbols("n k m i j r c d", integer=True, nonnegative=True)
_a, _b, _mu = sp.symbols("a b mu", integer=True, nonnegative=True)
_x = sp.Symbol("x")
_C = sp.binomial


def _cauchy_product_step(max_degree: int = 4) -> Step:
    """The coefficient of ``x^k`` in a product of polynomials is the convolution of their coefficients.

    This is the definition of the product of polynomials; sympy checks it with
    symbolic coefficients for every pair of degrees up to ``max_degree``.
    """
    x = _x
    ok = True
    for da, db in itertools.product(range(max_degree + 1), repeat=2):
        p = sp.symbols(f"p0:{da + 1}")
        q = sp.symbols(f"q0:{db + 1}")
        product = sp.Poly(
            sum(pi * x**i for i, pi in enumerate(p)) * sum(qi * x**i for i, qi in enumerate(q)), x
        )
        for kv in range(da + db + 1):
            conv = sum(p[jv] * q[kv - jv] for jv in range(kv + 1) if jv <= da and kv - jv <= db)
            ok = ok and sp.expand(product.coeff_monomial(x**kv) - conv) == 0
    pp, qq = sp.IndexedBase("p"), sp.IndexedBase("q")
    return Step(
        "[definition] Cauchy product: [x^k] (sum_j p_j x^j)(sum_i q_i x^i) = sum_j p_j q_(k-j);"
        f" sympy checks it with symbolic coefficients for all degrees <= {max_degree}",
        _eq(
            _Coeff(sp.Sum(pp[_j] * x**_j, (_j, 0, _a)) * sp.Sum(qq[_i] * x**_i, (_i, 0, _b)), x**_k),
            sp.Sum(pp[_j] * qq[_k - _j], (_j, 0, _k)),
        ),
        ok,
    )


class RewriteError(ValueError):
    """A documented rewriting rule does not apply to the expression it was given."""


def _coefficient(expr: sp.Basic, x: sp.Symbol, power: sp.Basic) -> sp.Basic:
    """``[x^power] expr``, carried out by the documented rules, or :class:`RewriteError`.

    Rules (each checked by sympy in :func:`coefficient_rule_steps`): linearity over a
    ``Sum`` and over constant factors; ``[x^L] x^m (1 + x)^B = C(B, L - m)`` (the
    shifted binomial theorem, ``m = 0`` included).
    """
    expr = sp.sympify(expr)
    if isinstance(expr, sp.Sum):
        return sp.Sum(_coefficient(expr.function, x, power), *expr.limits)
    shift: sp.Basic = sp.S.Zero
    top: sp.Basic | None = None
    constant: sp.Basic = sp.S.One
    for factor in sp.Mul.make_args(expr):
        if factor == x:
            shift += 1
        elif isinstance(factor, sp.Pow) and factor.base == x:
            shift += factor.exp
        elif isinstance(factor, sp.Pow) and sp.expand(factor.base - 1 - x) == 0 and top is None:
            top = factor.exp
        elif factor == 1 + x and top is None:
            top = sp.S.One
        elif x not in factor.free_symbols:
            constant *= factor
        else:
            raise RewriteError(f"no documented rule extracts a coefficient from the factor {factor}")
    if top is None:
        raise RewriteError(f"no factor (1 + x)^B in {expr}")
    return constant * sp.binomial(top, power - shift)


def coefficient_rule_steps() -> tuple[Step, ...]:
    """sympy's checks of the coefficient rule: the shifted binomial theorem, by its own summation."""
    B, L, m = sp.symbols("B L m", integer=True, nonnegative=True)
    x = sp.Symbol("x")
    shifted = _binomial_theorem_branch(sp.summation(sp.binomial(B, L - m) * x**L, (L, m, m + B)))
    return (
        Step(
            "[sympy summation] shifted binomial theorem: sum_L C(B, L - m) x^L = x^m (1 + x)^B"
            " (sympy states it for |x| <= 1; both sides are polynomials for integer B >= 0, so the"
            " identity holds for all x), hence [x^L] x^m (1 + x)^B = C(B, L - m); sympy evaluates"
            " C(B, L - m) to 0 outside m <= L <= m + B",
            _eq(sp.Sum(sp.binomial(B, L - m) * x**L, (L, m, m + B)), x**m * (1 + x) ** B),
            _is_closed(shifted, x**m * (1 + x) ** B)
            and sp.binomial(B, -1) == 0
            and sp.binomial(B, B + 1) == 0,
        ),
    )


def rewrite_and_compare(
    steps: list[Step],
    start: sp.Basic,
    rules: Sequence[tuple[str, Callable[[sp.Basic], sp.Basic]]],
    rhs: sp.Basic,
) -> None:
    """Apply documented rewriting rules to ``start`` (sympy carries each out), then compare with ``rhs``.

    Each rule appends a step ``before = after`` (not verified if the rule does not apply);
    the last step is sympy comparing the rewritten left side with the statement's right side.
    """
    current = sp.sympify(start)
    for text, rule in rules:
        try:
            after = sp.sympify(rule(current))
        except (RewriteError, ValueError, TypeError, AttributeError, IndexError) as error:
            steps.append(Step(f"[rewrite: does not apply] {text}: {error}", _eq(current, current), False))
            return
        steps.append(Step(f"[rewrite] {text}", _eq(current, after), True))
        current = after
    steps.append(_sympy_step("the rewritten left side equals the right side", current, rhs))
