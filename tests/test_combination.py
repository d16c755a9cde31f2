"""Joining components and the background: the dynamic programme against direct enumeration."""

from __future__ import annotations

import itertools
from math import comb
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import examples, problems

from analyzer.errors import SolverTimeoutError
from analyzer.limits import Deadline
from analyzer.solver.combination import combine, join
from analyzer.solver.counting import count_enumerate
from analyzer.solver.decomposition import ComponentProblem
from analyzer.solver.polynomials import (
    convolve,
    poly_mul,
    product_tree,
    products_of_others,
    weights_of_others,
)


def _solutions(problem: ComponentProblem) -> list[tuple[int, ...]]:
    return [
        values
        for values in itertools.product(*(range(s + 1) for s in problem.sizes))
        if all(sum(values[g] for g in groups) == rhs for groups, rhs in problem.equations)
    ]


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(problems(), min_size=1, max_size=3), st.integers(0, 6), st.data())
def test_combination_equals_enumerating_every_joint_layout(
    parts: list[ComponentProblem], background: int, data: st.DataObject
) -> None:
    constrained = sum(sum(p.sizes) for p in parts)
    mines_left = data.draw(st.integers(0, constrained + background))
    combined = combine([count_enumerate(p) for p in parts], background, mines_left)
    # Direct: every choice of one solution per component, weighted by its cell
    # layouts, times C(background, the mines left over).
    total = 0
    numerators = [[0] * len(p.sizes) for p in parts]
    background_numerator = 0
    for choice in itertools.product(*(_solutions(p) for p in parts)):
        mines = sum(sum(values) for values in choice)
        weight = 1
        for p, values in zip(parts, choice, strict=True):
            for size, x in zip(p.sizes, values, strict=True):
                weight *= comb(size, x)
        rest = mines_left - mines
        if rest < 0 or rest > background:
            continue
        total += weight * comb(background, rest)
        background_numerator += weight * comb(background - 1, rest - 1) if background and rest else 0
        for i, values in enumerate(choice):
            for g, x in enumerate(values):
                numerators[i][g] += weight * x * comb(background, rest)
    assert combined.total == total
    assert [list(row) for row in combined.group_numerators] == numerators
    assert combined.background_numerator == background_numerator
    assert sum(combined.constrained_mines.values()) == total


@given(
    st.lists(st.lists(st.integers(0, 5), min_size=1, max_size=4), min_size=1, max_size=5), st.integers(0, 12)
)
def test_products_of_others_are_the_products_of_all_but_one(polys: list[list[int]], limit: int) -> None:
    full, others = products_of_others(polys, limit)
    expected_full = [1]
    for p in polys:
        expected_full = poly_mul(expected_full, p, limit)
    assert full == expected_full
    for i in range(len(polys)):
        expected = [1]
        for j, p in enumerate(polys):
            if j != i:
                expected = poly_mul(expected, p, limit)
        assert others[i] == expected


@given(
    st.lists(st.lists(st.integers(0, 5), min_size=1, max_size=4), min_size=0, max_size=9),
    st.integers(0, 12),
    st.lists(st.integers(0, 10**6), min_size=1, max_size=14),
)
def test_weights_of_others_are_the_weighted_products_of_all_but_one(
    polys: list[list[int]], limit: int, weight: list[int]
) -> None:
    # The product tree top down against the products of all the others, one by one.
    tree = product_tree(polys, limit)
    full, others = products_of_others(polys, limit)
    while full and not full[-1]:
        full = full[:-1]  # the tree keeps no zero past the highest term
    assert tree.root.dense() == full
    vectors = weights_of_others(tree, weight)
    assert len(vectors) == len(polys)
    for p, vector, other in zip(polys, vectors, others, strict=True):
        padded = weight[: limit + 1] + [0] * (len(p) + len(other))  # no weight past the limit
        # Computed where p has a term (a component's mine counts with layouts), 0 elsewhere.
        expected = [sum(o * padded[m + j] for j, o in enumerate(other)) if p[m] else 0 for m in range(len(p))]
        assert vector == expected[: len(vector)] and len(vector) == min(len(p), limit + 1)


def _single_or_not() -> st.SearchStrategy[list[int]]:
    """A component's layouts by mine count: often one term (one possible mine count), else several."""
    single = st.tuples(st.integers(0, 4), st.integers(1, 6), st.integers(0, 2)).map(
        lambda t: [0] * t[0] + [t[1]] + [0] * t[2]
    )
    return st.one_of(single, st.lists(st.integers(0, 5), min_size=1, max_size=5))


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(_single_or_not(), min_size=0, max_size=10), st.integers(0, 6), st.integers(0, 20))
def test_join_equals_the_products_of_all_but_one(
    polys: list[list[int]], background: int, mines_left: int
) -> None:
    # Components of one mine count leave the product tree: the join must not notice.
    joined = join(polys, background, mines_left)
    full, others = products_of_others(polys, mines_left)

    def bg(j: int) -> int:
        return comb(background, j) if 0 <= j <= background else 0

    assert joined.total == sum(q * bg(mines_left - m) for m, q in enumerate(full))
    expected_background = sum(
        q * comb(background - 1, mines_left - m - 1)
        for m, q in enumerate(full)
        if background and mines_left - m >= 1
    )
    assert joined.background_numerator == expected_background
    for p, vector, other in zip(polys, joined.others, others, strict=True):
        expected = [
            sum(o * bg(mines_left - m - j) for j, o in enumerate(other)) if p[m] else 0
            for m in range(min(len(p), mines_left + 1))
        ]
        assert vector == expected


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(problems(), min_size=4, max_size=6), st.integers(0, 3), st.data())
def test_combination_of_many_components_equals_enumeration(
    parts: list[ComponentProblem], background: int, data: st.DataObject
) -> None:
    # Four to six components: a product tree of three levels, with an odd one out.
    small = [p for p in parts if len(_solutions(p)) <= 4]
    if len(small) < 4:
        return
    constrained = sum(sum(p.sizes) for p in small)
    mines_left = data.draw(st.integers(0, constrained + background))
    combined = combine([count_enumerate(p) for p in small], background, mines_left)
    total = 0
    numerators = [[0] * len(p.sizes) for p in small]
    for choice in itertools.product(*(_solutions(p) for p in small)):
        weight = (
            comb(background, mines_left - sum(map(sum, choice))) if mines_left >= sum(map(sum, choice)) else 0
        )
        for p, values in zip(small, choice, strict=True):
            for size, x in zip(p.sizes, values, strict=True):
                weight *= comb(size, x)
        total += weight
        for i, values in enumerate(choice):
            for g, x in enumerate(values):
                numerators[i][g] += weight * x
    assert combined.total == total
    assert [list(row) for row in combined.group_numerators] == numerators


def _spanned(zeros: int, middle: list[int]) -> list[int]:
    """A polynomial with ``zeros`` leading zeros, as a component with that many decided mines."""
    return [0] * zeros + middle


@settings(max_examples=examples(60), deadline=None)
@given(
    st.lists(st.integers(0, 2**200), min_size=1, max_size=90),
    st.lists(st.integers(0, 2**70), min_size=1, max_size=90),
)
def test_convolve_equals_the_term_by_term_product(a: list[int], b: list[int]) -> None:
    # Long lists of large counts go through one big-integer product (Kronecker substitution).
    assert convolve(a, b) == poly_mul(a, b, limit=len(a) + len(b))


@given(st.integers(1, 300), st.integers(1, 300), st.integers(5, 120), st.integers(5, 120))
def test_convolve_of_the_largest_coefficients_overflows_no_slot(
    bits_a: int, bits_b: int, n: int, m: int
) -> None:
    # Every coefficient at its largest: each product coefficient reaches the most a slot must hold.
    a, b = [2**bits_a - 1] * n, [2**bits_b - 1] * m
    assert convolve(a, b) == poly_mul(a, b, limit=n + m)


@settings(max_examples=examples(40), deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 40), st.lists(st.integers(0, 2**90), min_size=1, max_size=40)),
        min_size=1,
        max_size=7,
    ),
    st.integers(0, 300),
    st.lists(st.integers(0, 10**40), min_size=1, max_size=400),
)
def test_weights_of_others_on_long_shifted_polynomials(
    parts: list[tuple[int, list[int]]], limit: int, weight: list[int]
) -> None:
    # Components whose fewest mines are far above 0, with long spans of large counts:
    # the tree stores and multiplies spans only, and still equals all-but-one products.
    polys = [_spanned(zeros, middle) for zeros, middle in parts]
    tree = product_tree(polys, limit)
    full, others = products_of_others(polys, limit)
    while full and not full[-1]:
        full = full[:-1]
    assert tree.root.dense() == full
    vectors = weights_of_others(tree, weight)
    for p, vector, other in zip(polys, vectors, others, strict=True):
        padded = weight[: limit + 1] + [0] * (len(p) + len(other))
        expected = [sum(o * padded[m + j] for j, o in enumerate(other)) if p[m] else 0 for m in range(len(p))]
        assert vector == expected[: len(vector)] and len(vector) == min(len(p), limit + 1)


def test_a_product_that_would_run_past_the_time_limit_is_refused_before_it_starts() -> None:
    # One big-integer product cannot be interrupted: its cost is estimated from its bits first.
    a, b = [2**5000 - 1] * 400, [2**4000 - 1] * 300
    with pytest.raises(SolverTimeoutError, match=r"components: its next product of [\d,]+ bits"):
        convolve(a, b, Deadline.after(1e-6))
    assert convolve(a, b, Deadline.after(60.0)) == convolve(a, b)  # time enough: the same product


def test_a_product_the_estimate_lets_start_still_stops_at_the_time_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The estimate can be wrong (a 2.6 Gbit product ran at 153 Mbit/s): the work itself must stop.

    With the estimate made to let every product start, a product of 400 Mbit (seconds of work)
    under a limit of 0.3 s ends in the time-limit error, its child process killed and gone.
    """
    import os

    from analyzer.solver import polynomials

    monkeypatch.setattr(polynomials, "_PRODUCT_BITS_PER_SECOND", 10**18)
    # A test runner's own threads (pytest-xdist's) would keep the product in this process.
    monkeypatch.setattr(polynomials.threading, "active_count", lambda: 1)
    forked: list[int] = []
    fork = os.fork

    def recorded() -> int:
        pid = fork()
        if pid:
            forked.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", recorded)
    a = b = [2**100_000 - 1] * 2000
    with pytest.raises(SolverTimeoutError, match=r"components \(in a product of [\d,]+ bits\)"):
        convolve(a, b, Deadline.after(0.3))
    assert len(forked) == 1
    with pytest.raises(ProcessLookupError):
        os.kill(forked[0], 0)  # killed and reaped


@pytest.mark.parametrize("gmp", [True, False])
def test_a_product_made_where_it_can_be_stopped_is_the_same_product(
    monkeypatch: pytest.MonkeyPatch, gmp: bool
) -> None:
    from analyzer.solver import polynomials

    monkeypatch.setattr(polynomials, "_STOPPABLE_PRODUCT_BITS", 0)
    monkeypatch.setattr(polynomials.threading, "active_count", lambda: 1)  # as in a single-threaded CLI
    if not gmp:
        monkeypatch.setattr(polynomials, "gmpy2_module", lambda: None)
    a, b = [3**k for k in range(300)], [2**900 - k for k in range(200)]
    assert convolve(a, b, Deadline.after(600.0)) == poly_mul(a, b, limit=500)
    assert convolve([0] * 40 + [1], [0] * 50, Deadline.after(600.0)) == [0] * 90  # a product of 0


@pytest.mark.slow
def test_a_500x500_board_with_long_products_keeps_to_a_time_limit_of_5_s(tmp_path: Path) -> None:
    """The command, on a board whose join multiplies 0.8 to 2.6 Gbit products (5 to 17 s each here).

    500x500 with 50,000 mines and 12,500 islands of two 1s (a component of two possible mine
    counts each) in a background of 100,000 hidden cells: without a limit the join's products run
    for minutes. With ``--time-limit 5`` the command ends in the time-limit error within 6 s of CPU,
    its own and its children's.
    """
    import resource
    import subprocess
    import sys

    n = 500
    grid = [["H"] * n for _ in range(n)]
    for r in range(1, n - 1, 4):
        for c in range(1, n - 2, 5):
            grid[r][c] = grid[r][c + 1] = "1"
    board = tmp_path / "islands.mine"
    board.write_text(f"{n}x{n}x50000\n" + "".join("".join(row) + "\n" for row in grid))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = subprocess.run(
        [sys.executable, "-m", "analyzer", "solve", str(board), "--time-limit", "5"],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parent.parent,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    assert run.returncode == 1 and "analyzer: error: time limit reached" in run.stderr
    assert cpu < 6.0, f"{cpu:.2f} s CPU"
