"""Integer polynomials in the number of mines (coefficient lists), exact.

Shared by the counting engines and the combination over components: kept below
both so neither imports the other.
"""

from __future__ import annotations

from math import comb

from analyzer.limits import Deadline, check_binomial_time

__all__ = ["poly_mul", "products_of_others", "binomial_row"]


def poly_mul(a: list[int], b: list[int], limit: int) -> list[int]:
    """Product of two polynomials (coefficient lists), truncated past degree ``limit``.

    >>> poly_mul([1, 1], [1, 2, 1], limit=10)
    [1, 3, 3, 1]
    >>> poly_mul([1, 1], [1, 2, 1], limit=1)
    [1, 3]
    """
    size = min(len(a) + len(b) - 1, limit + 1)
    out = [0] * max(size, 0)
    for i, ai in enumerate(a):
        if not ai or i >= size:
            continue
        for j in range(min(len(b), size - i)):
            bj = b[j]
            if bj:
                out[i + j] += ai * bj
    return out


def products_of_others(
    polys: list[list[int]], limit: int, deadline: Deadline | float | None = None
) -> tuple[list[int], list[list[int]]]:
    """The product of all polynomials, and for each one the product of all the others.

    Prefix and suffix products give every "all but one" product with ``3k``
    multiplications instead of ``k^2`` (and no division, which exact integer
    polynomials do not allow in general). Degrees past ``limit`` are dropped.

    >>> products_of_others([[1, 1], [1, 2], [0, 1]], limit=10)
    ([0, 1, 3, 2], [[0, 1, 2], [0, 1, 1], [1, 3, 2]])
    """
    until = Deadline.of(deadline)
    prefix = [[1]]
    for p in polys:
        until.check("the combination of the components")
        prefix.append(poly_mul(prefix[-1], p, limit))
    suffix = [[1]] * (len(polys) + 1)
    for i in range(len(polys) - 1, -1, -1):
        until.check("the combination of the components")
        suffix[i] = poly_mul(polys[i], suffix[i + 1], limit)
    others = []
    for i in range(len(polys)):
        until.check("the combination of the components")
        others.append(poly_mul(prefix[i], suffix[i + 1], limit))
    return prefix[-1], others


def binomial_row(n: int, low: int, high: int, deadline: Deadline | float | None = None) -> list[int]:
    """``[C(n, low), C(n, low + 1), ..., C(n, high)]`` in ``O(high - low)`` big-int steps.

    >>> binomial_row(5, 1, 4)
    [5, 10, 10, 5]
    """
    if high < low:
        return []
    check_binomial_time(n, low, deadline, "the count of background layouts")
    row = [comb(n, low)]
    for j in range(low, high):
        row.append(row[-1] * (n - j) // (j + 1))
    return row
